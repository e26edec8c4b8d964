import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def train(model, loader, optimizer, accumulation=3):
    optimizer.zero_grad()
    epoch_loss = 0.0
    for i, (x, y) in enumerate(loader):
        x = x.to(device)
        y = y.to(device)
        divisor = torch.tensor(3.0, device=device)
        loss = F.cross_entropy(model(x), y) / divisor
        loss.backward()
        if (i + 1) % accumulation == 0:
            optimizer.step()
            optimizer.zero_grad()
        epoch_loss += loss.item()
    return epoch_loss


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
RESULT = [train(model, DataLoader(dataset, batch_size=4), optimizer), model.weight.detach().cpu()]
