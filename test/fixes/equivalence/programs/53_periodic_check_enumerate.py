# `if torch.isnan(loss).any(): break` and `if not torch.isfinite(loss): raise` in a step loop without a counter:
# the fix adds `enumerate` and checks every `check_every` steps. The checks never fire here, so the program
# computes the same; when one would fire, the fixed loop stops up to check_every - 1 steps later.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(64, 5)
Y = torch.randn(64, 1)


def train(model, loader, optimizer):
    losses = []
    for x, y in loader:
        loss = F.mse_loss(model(x.to(device)), y.to(device))
        if torch.isnan(loss).any():
            print("nan loss, stopping")
            break
        if not torch.isfinite(loss):
            raise FloatingPointError("loss is not finite")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach().cpu())
    return losses


model = nn.Linear(5, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
losses = train(model, DataLoader(TensorDataset(X, Y), batch_size=4), optimizer)
RESULT = [torch.stack(losses), model.weight.detach().cpu()]
print(len(losses))
