import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def train(model, optimizer, max_steps=12):
    step = 0
    total_loss = 0.0
    while step < max_steps:
        x = X[step * 4:(step + 1) * 4].to(device)
        y = Y[step * 4:(step + 1) * 4].to(device)
        margin = torch.tensor(0.1, device=device)
        loss = F.cross_entropy(model(x), y) + margin
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        step += 1
    return total_loss


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
RESULT = [train(model, optimizer), model.weight.detach().cpu()]
