import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def train(model, loader, optimizer):
    losses = []
    for x, y in loader:
        x = x.to(device)
        y = y.to(device)
        w = torch.tensor([0.2, 0.3, 0.5], device=device)
        loss = F.cross_entropy(model(x), y, weight=w)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
    return losses


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
losses = train(model, DataLoader(dataset, batch_size=8), optimizer)
RESULT = [torch.stack(losses).cpu(), [p.detach().cpu() for p in model.parameters()]]
