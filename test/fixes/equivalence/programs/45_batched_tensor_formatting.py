import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# synclint batches the per-step logging of tensors below on purpose (tensor-formatting): the harness compares
# what is logged as sums over the same steps (run_pairs.py, compare_batched_log); the printed text and RESULT
# still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


def print(*args):
    """The recorder: what the program prints, read back into numbers (`.17g` round-trips a float)."""
    label, value = args[0].split("=")
    LOGGED.append((label, STEPS[0], float(value)))


class SummaryWriter:
    """TensorBoard's writer, recording instead: `add_scalar` logs `float(value)` of a tensor, as TensorBoard does."""

    def add_scalar(self, tag, scalar_value, global_step=None):
        LOGGED.append((tag, STEPS[0], float(scalar_value)))


class CountingSGD(torch.optim.SGD):
    def step(self, closure=None):
        STEPS[0] += 1
        return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(52, 8)
Y = torch.randint(0, 3, (52,))
dataset = TensorDataset(X, Y)


def train(model, loader, optimizer, writer):
    for step, (x, y) in enumerate(loader):
        x = x.to(device)
        y = y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"printed_loss={loss:.17g}")
        writer.add_scalar("loss", loss, step)


model = nn.Linear(8, 3).to(device)
optimizer = CountingSGD(model.parameters(), lr=0.1)
# 13 steps: a report after step 10, and the remaining 3 after the loop.
train(model, DataLoader(dataset, batch_size=4, shuffle=True), optimizer, SummaryWriter())
RESULT = [STEPS[0], [p.detach().cpu() for p in model.parameters()]]
