from torch import nn, manual_seed, randn, randint
from torch.utils.data import DataLoader, TensorDataset
import torch.nn.functional as F

manual_seed(0)
X = randn(40, 8)
Y = randint(0, 3, (40,))


def train(model, loader, optimizer, device="cpu"):
    running_loss = 0.0
    for x, y in loader:
        x = x.to(device)
        loss = F.cross_entropy(model(x), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    return running_loss


model = nn.Linear(8, 3)
import torch.optim as optim
optimizer = optim.SGD(model.parameters(), lr=0.1)
RESULT = [train(model, DataLoader(TensorDataset(X, Y), batch_size=8), optimizer), model.weight.detach()]
