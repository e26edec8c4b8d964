import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# synclint batches the per-step progress-bar update below on purpose: the harness compares what is logged as
# sums over the same steps (run_pairs.py, compare_batched_log); the printed text and RESULT still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


class tqdm:
    """A progress bar like tqdm's, recording the values shown instead of drawing them."""

    def __init__(self, iterable):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, **values):
        for name, value in values.items():
            LOGGED.append((name, STEPS[0], value))


class CountingSGD(torch.optim.SGD):
    def step(self, closure=None):
        STEPS[0] += 1
        return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(69, 8)
Y = torch.randint(0, 3, (69,))
dataset = TensorDataset(X, Y)


def train(model, loader, optimizer):
    pbar = tqdm(loader)
    for batch in pbar:
        x, y = batch[0].to(device), batch[1].to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        pbar.set_postfix(loss=loss.item())


model = nn.Linear(8, 3).to(device)
optimizer = CountingSGD(model.parameters(), lr=0.1)
# 23 steps, the last batch smaller: reports after steps 10 and 20, and the remaining 3 after the loop.
train(model, DataLoader(dataset, batch_size=3), optimizer)
RESULT = [STEPS[0], [p.detach().cpu() for p in model.parameters()]]
