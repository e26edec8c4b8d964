# `x[x > 0].mean()` → `torch.where(x > 0, x, 0).sum() / (x > 0).sum()`. A suggestion: the additions happen in
# another order and CUDA's `mean` multiplies by 1/n, so floats may round differently. Here every value is a
# multiple of 0.25 with small sums, which both forms add exactly, so the results must be equal bit for bit,
# including the NaN of a batch that selects nothing.
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randint(-8, 9, (40, 6)).float() / 4
X[8:12] = -1.0  # one batch with no positive value
dataset = TensorDataset(X, torch.zeros(40))


def positive_means(loader):
    means = []
    for x, _ in loader:
        x = x.to(device)
        above = x > 0.5
        means.append(x[x > 0].mean())
        means.append(1 - x[above].mean() * 2)
    return torch.stack(means).cpu()


RESULT = positive_means(DataLoader(dataset, batch_size=4))
