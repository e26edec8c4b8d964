import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = DataLoader(dataset, batch_size=8, shuffle=True)
running_loss = 0.0
correct = 0
for x, y in train_loader:
    x = x.to(device)
    y = y.to(device)
    out = model(x)
    loss = F.cross_entropy(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    running_loss += loss.item()
    correct += (out.argmax(1) == y).sum().item()
print(running_loss, correct)
RESULT = [running_loss, correct, model.weight.detach().cpu()]
