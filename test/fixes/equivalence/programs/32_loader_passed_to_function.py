import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def train_one_epoch(model, data_loader, optimizer):
    losses = []
    for images, targets in data_loader:
        images = images.to(device)
        targets = targets.to(device)
        loss = F.cross_entropy(model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach().cpu())
    return torch.stack(losses)


def main():
    model = nn.Linear(8, 3).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = DataLoader(dataset, batch_size=8, shuffle=True, num_workers=0)
    losses = train_one_epoch(model, train_loader, optimizer)
    return [losses, model.weight.detach().cpu()]


RESULT = main()
