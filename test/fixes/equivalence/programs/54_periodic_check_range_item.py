# `if loss.item() > LIMIT: return` in `for i in range(steps)`: the check runs when (i + 1) % check_every == 0.
# It never fires here, so the result is the same; when it would, the function returns up to
# check_every - 1 steps later (and a blow-up in the last steps, after the last multiple, is not caught).
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
LIMIT = 1e6


def fit(model, x, y, steps, optimizer):
    history = []
    for i in range(steps):
        loss = (model(x) - y).pow(2).mean()
        if loss.item() > LIMIT:
            return None
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.detach())
    return torch.stack(history).cpu()


model = nn.Linear(3, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 3, device=device)
y = torch.randn(16, 1, device=device)
RESULT = [fit(model, x, y, 250, optimizer), model.weight.detach().cpu()]
