# `a if t > c else b` and an `if t > c:` / `else:` assigning one name, in a module's forward, → torch.where.
# One branch is the number literal 0.0: where it is selected the program used the float 0.0, afterwards a
# tensor of zeros; the sum it is added to is the same either way.
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.proj(x)
        scale = h.abs().max()
        if scale > 1.5:
            h = h / scale
        else:
            h = h * 1.0
        shift = h if h.mean() >= 0 else 0.0
        return h + shift


model = Block().to(device)
outs = []
for i in range(8):
    x = torch.randn(3, 4, device=device) * (i + 1) * 0.3
    y = model(x)
    y.sum().backward()
    outs.append(y.detach().cpu())
RESULT = [torch.stack(outs), model.proj.weight.grad.cpu()]
print([round(v, 4) for v in RESULT[0].sum(dim=(1, 2)).tolist()])
