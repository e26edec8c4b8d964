import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(40, 6)
Y = torch.randint(0, 2, (40,))
loader = DataLoader(TensorDataset(X, Y), batch_size=8)


def train(model, optimizer):
    history = []
    for x, y in loader:
        out = model(x.to(device, non_blocking=True))
        # Scale factors built as device tensors every step: exact in float32, so the Python number is the same value.
        logits = out * torch.tensor(0.5, device=device) + torch.tensor(-1.25, device=device)
        loss = F.cross_entropy(logits, y.to(device, non_blocking=True)) / torch.tensor(4, device=device)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(logits.detach().cpu())
    return history


model = nn.Linear(6, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
history = train(model, optimizer)
RESULT = [history, [p.detach().cpu() for p in model.parameters()]]
