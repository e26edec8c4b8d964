# `max(t.item(), EPS)` / `min(t.item(), CAP)` → `t.detach().clamp(min=EPS)` / `clamp(max=CAP)`: the value
# becomes a 0-dim float32 tensor instead of a Python float. Where it is used (dividing and multiplying a float32
# tensor) the result is the same, gradients too (`.detach()` keeps `.item()`'s cut of the graph), and a NaN
# stays NaN as with Python's `max(nan, EPS)`.
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
EPS = 0.8
CAP = 1.2


def run(model, batches):
    outs = []
    for x in batches:
        x = x.to(device)
        out = model(x)
        norm = out.norm() / 4
        scaled = out / max(norm.item(), EPS)
        capped = scaled * min(out.abs().mean().item(), CAP)
        capped.sum().backward()
        outs.append(capped.detach().cpu())
    return outs


def normalise(batches):
    outs = []
    for x in batches:
        x = x.to(device)
        outs.append(x / max(x.sum().item(), EPS))
    return outs


model = nn.Linear(3, 2).to(device)
batches = [torch.randn(4, 3) * (0.2 + k) for k in range(6)]
outs = run(model, batches)
rows = normalise(batches + [torch.tensor([[float("nan"), 1.0, 2.0]] * 4)])
RESULT = [torch.stack(outs), model.weight.grad.cpu(), torch.stack(rows)]
