import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def run(model, loader):
    running_loss = 0
    for x, y in loader:
        x = x.to(device)
        loss = F.cross_entropy(model(x), y.to(device))
        running_loss += loss.item()
    print(type(running_loss).__name__, running_loss)
    return running_loss


model = nn.Linear(8, 3).to(device)
full = run(model, DataLoader(dataset, batch_size=16))
empty = run(model, [])
RESULT = [full, empty]
