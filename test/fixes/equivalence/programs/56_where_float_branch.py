# `float(t) if t > c else 0.0` and `t.item() if t.item() > c else 0.0` → torch.where(t > c, t.detach(), 0.0):
# the value becomes a 0-dim float32 tensor (detached, as the host read was) instead of a Python float.
# Multiplying a float32 tensor by it gives the same values and the same gradients.
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def train(model, batches, optimizer):
    outs = []
    for x in batches:
        out = model(x.to(device))
        mean = out.mean()
        peak = out.max()
        margin = float(mean) if mean > 0 else 0.0
        boost = peak.item() if peak.item() > 0.5 else 0.0
        weighted = out * margin + out * boost
        optimizer.zero_grad()
        weighted.sum().backward()
        optimizer.step()
        outs.append(weighted.detach().cpu())
    return outs


model = nn.Linear(4, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [torch.randn(5, 4) + (1.5 if k % 2 else -1.5) for k in range(10)]
outs = train(model, batches, optimizer)
RESULT = [torch.stack(outs), model.weight.detach().cpu()]
