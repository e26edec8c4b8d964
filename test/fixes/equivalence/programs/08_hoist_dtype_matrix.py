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
    outs = []
    for x, y in loader:
        x = x.to(device)
        mix = torch.tensor([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [0.0, 0.0, 1.0]], dtype=torch.float32, device=device)
        logits = model(x) @ mix
        loss = F.cross_entropy(logits, y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        outs.append(logits.detach().sum())
    return torch.stack(outs).cpu()


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
RESULT = [train(model, DataLoader(dataset, batch_size=8), optimizer), model.weight.detach().cpu()]
