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
    for step, (x, y) in enumerate(loader):
        x = x.to(device)
        scale = torch.tensor(0.5, device=device)
        loss = F.cross_entropy(model(x), y.to(device)) * scale
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return step


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
steps = train(model, DataLoader(dataset, batch_size=6), optimizer)
RESULT = [steps, model.weight.detach().cpu(), model.bias.detach().cpu()]
