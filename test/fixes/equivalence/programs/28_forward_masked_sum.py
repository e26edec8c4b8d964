# equivalence: allclose -- `torch.where(mask, x, 0).sum()` adds the same numbers in another order (a suggestion)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


class PositiveSum(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 4)

    def forward(self, x):
        h = self.proj(x)
        return h[h > 0.1].sum() + h.mean()


model = PositiveSum().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
outs = []
for x, y in DataLoader(dataset, batch_size=8):
    x = x.to(device)
    out = model(x)
    opt.zero_grad()
    out.backward()
    opt.step()
    outs.append(out.detach())
RESULT = [torch.stack(outs).cpu(), model.proj.weight.detach().cpu()]
