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
    running_loss = 0.0
    printed = []
    for i, (x, y) in enumerate(loader):
        x = x.to(device)
        y = y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 2 == 1:
            printed.append(running_loss / 2)
            print(f"[{i + 1}] loss: {running_loss / 2:.3f}")
            running_loss = 0.0
    return printed


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
RESULT = train(model, DataLoader(dataset, batch_size=6), optimizer)
