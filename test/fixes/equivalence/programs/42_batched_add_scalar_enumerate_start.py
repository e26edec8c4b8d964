import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# synclint batches the per-step add_scalar calls below on purpose: the harness compares what is logged as sums
# over the same steps (run_pairs.py, compare_batched_log); the printed text and RESULT still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


class SummaryWriter:
    """TensorBoard's writer, recording instead: the x-axis step it is given must be the step just taken."""

    def add_scalar(self, tag, scalar_value, global_step=None):
        assert global_step == STEPS[0], (global_step, STEPS[0])
        LOGGED.append((tag, STEPS[0], scalar_value))


class CountingSGD(torch.optim.SGD):
    def step(self, closure=None):
        STEPS[0] += 1
        return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(80, 8)
Y = torch.randint(0, 3, (80,))
dataset = TensorDataset(X, Y)


def train(model, loader, optimizer, writer):
    for i, (x, y) in enumerate(loader, 1):
        x = x.to(device)
        y = y.to(device)
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        writer.add_scalar("train/loss", loss.item(), i)
        writer.add_scalar("train/correct", (out.argmax(1) == y).sum().item(), global_step=i)


model = nn.Linear(8, 3).to(device)
optimizer = CountingSGD(model.parameters(), lr=0.1)
# 20 steps, counted from 1: reports after steps 10 and 20, nothing left for after the loop.
train(model, DataLoader(dataset, batch_size=4, shuffle=True), optimizer, SummaryWriter())
RESULT = [STEPS[0], [p.detach().cpu() for p in model.parameters()]]
