# `a if t.item() > c else b` and `if t.item() > c: / else:` → torch.where(t > c, a, b): both branches are
# tensors of one shape and dtype and the condition is 0-dim, so the selected values (and the gradients, zero
# for the branch not selected) are the same.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(40, 6)
Y = torch.randint(0, 3, (40,))


def train(model, loader, optimizer):
    picks = []
    for x, y in loader:
        x = x.to(device)
        y = y.to(device)
        out = model(x)
        loss = F.cross_entropy(out, y)
        weighted = out if loss.item() > 1.1 else out * 0.5
        if loss.item() <= 1.05:
            bonus = out
        else:
            bonus = -out
        total = loss + weighted.square().mean() * 0.01 + bonus.mean() * 0.01
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
        picks.append(weighted.detach().cpu())
    return picks


model = nn.Linear(6, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
picks = train(model, DataLoader(TensorDataset(X, Y), batch_size=5), optimizer)
RESULT = [torch.stack(picks), model.weight.detach().cpu(), model.bias.detach().cpu()]
print(RESULT[0].sum().item())
