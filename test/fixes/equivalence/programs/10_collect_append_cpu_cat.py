import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


@torch.no_grad()
def predict(model, loader):
    preds = []
    for x, _ in loader:
        x = x.to(device)
        preds.append(model(x).argmax(1).cpu())
    preds = torch.cat(preds)
    print(preds.tolist())
    return preds


model = nn.Linear(8, 3).to(device)
RESULT = predict(model, DataLoader(dataset, batch_size=7))
