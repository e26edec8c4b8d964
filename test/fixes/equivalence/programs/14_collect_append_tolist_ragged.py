import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def decode(model, loader):
    rows = []
    with torch.no_grad():
        for x, y in loader:
            scores = model(x.to(device))
            rows.append(scores.argmax(1).tolist())
    print(rows)
    return rows


model = nn.Linear(8, 3).to(device)
RESULT = decode(model, DataLoader(dataset, batch_size=20))
