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
    for x, y in loader:
        x = x.to(device)
        y = y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model.weight.detach().cpu()


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(dataset, batch_size=8, shuffle=True, pin_memory=False)
RESULT = train(model, loader, optimizer)
