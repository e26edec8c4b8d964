import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def count_big(model, loader):
    totals = []
    for x, y in loader:
        y = y.to(device)
        out = model(x.to(device))
        labels = y * 3 + 1
        big = labels[labels > 2].sum()
        totals.append(big)
    return torch.stack(totals).cpu()


model = nn.Linear(8, 3).to(device)
RESULT = count_big(model, DataLoader(dataset, batch_size=8))
