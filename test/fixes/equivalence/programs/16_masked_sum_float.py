# equivalence: allclose -- `torch.where(mask, x, 0).sum()` adds the same numbers in another order (a suggestion)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def positive_mass(model, loader):
    masses = []
    for x, y in loader:
        out = model(x.to(device))
        mass = out[out > 0].sum()
        masses.append(mass.detach())
    return torch.stack(masses).cpu()


model = nn.Linear(8, 3).to(device)
RESULT = positive_mass(model, DataLoader(dataset, batch_size=4))
