import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def run(model, train_loader, val_loader, optimizer):
    train_correct = 0
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_correct += (out.argmax(1) == y).sum().item()
    val_correct = 0
    val_loss = 0.0
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            val_loss += F.cross_entropy(out, y).item()
            val_correct += out.argmax(1).eq(y).sum().item()
    print(train_correct, val_correct, val_loss)
    return train_correct, val_correct, val_loss


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
RESULT = run(model, DataLoader(dataset, batch_size=8, shuffle=True), DataLoader(dataset, batch_size=12), optimizer)
