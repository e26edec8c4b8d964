import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# synclint batches the per-step print below on purpose: the harness compares what is logged as sums over the
# same steps (run_pairs.py, compare_batched_log); the printed text and RESULT still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


def print(*args):
    """The recorder: what the program prints, read back into numbers (`.17g` round-trips a float)."""
    label, value = args[0].split(" ")
    LOGGED.append((label, STEPS[0], float(value)))


class CountingSGD(torch.optim.SGD):
    def step(self, closure=None):
        STEPS[0] += 1
        return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(100, 8)
Y = torch.randint(0, 3, (100,))
dataset = TensorDataset(X, Y)


def train(model, loader, optimizer):
    model.train()
    for x, y in loader:
        x = x.to(device)
        y = y.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.17g}")


model = nn.Linear(8, 3).to(device)
optimizer = CountingSGD(model.parameters(), lr=0.1)
# 25 steps: reports after steps 10 and 20, and the remaining 5 after the loop.
train(model, DataLoader(dataset, batch_size=4, shuffle=True), optimizer)
RESULT = [STEPS[0], [p.detach().cpu() for p in model.parameters()]]
