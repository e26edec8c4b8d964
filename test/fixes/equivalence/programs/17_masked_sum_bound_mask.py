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


def hinge(model, loader, optimizer):
    for x, y in loader:
        out = model(x.to(device))
        margins = 1.0 - out
        active = margins > 0
        loss = margins[active].sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return [p.detach().cpu() for p in model.parameters()]


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
RESULT = hinge(model, DataLoader(dataset, batch_size=16), optimizer)
