import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def train_epoch(model, loader, optimizer):
    model.train()
    running_loss = 0.0
    correct = 0
    preds = []
    for x, y in loader:
        x = x.to(device)
        y = y.to(device)
        w = torch.tensor([0.3, 0.3, 0.4], device=device)
        out = model(x)
        loss = F.cross_entropy(out, y, weight=w)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        correct += (out.argmax(1) == y).sum().item()
        preds.extend(out.argmax(1).cpu().numpy())
        positive = out[out > 0].sum()
    print(running_loss, correct, len(preds))
    return running_loss, correct, preds


model = Net().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(dataset, batch_size=8, shuffle=True)
results = [train_epoch(model, loader, optimizer) for _ in range(2)]
RESULT = [results, [p.detach().cpu() for p in model.parameters()]]
