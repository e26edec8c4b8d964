import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


loader = DataLoader(
    dataset,
    batch_size=12,
    shuffle=True,
    drop_last=True,
)
model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
seen = 0
for x, y in loader:
    x = x.to(device)
    y = y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    seen += x.shape[0]
RESULT = [seen, model.weight.detach().cpu()]
