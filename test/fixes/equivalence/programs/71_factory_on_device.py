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
    seen = []
    for step, (x, y) in enumerate(loader):
        x = x.to(device)
        offsets = torch.arange(x.size(0)).to(device)
        weights = torch.ones(3, dtype=torch.float32).to(device=device)
        bias = torch.zeros(x.size(0), 3).to(device)
        noise = torch.randn(x.size(0), 8).to(device)
        logits = model(x + 0.01 * noise) + bias
        loss = F.cross_entropy(logits, y.to(device), weight=weights)
        seen.append(offsets.sum())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return step, torch.stack(seen).cpu()


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
steps, offsets = train(model, DataLoader(dataset, batch_size=6), optimizer)
RESULT = [steps, offsets, model.weight.detach().cpu(), model.bias.detach().cpu()]
