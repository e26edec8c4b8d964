import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# synclint batches the per-step logger call below on purpose: the harness compares what is logged as sums over
# the same steps (run_pairs.py, compare_batched_log); the printed text and RESULT still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


class Recorder(logging.Handler):
    """Keeps the logged number itself (the last argument of the record), with the series its message names."""

    def emit(self, record):
        LOGGED.append((record.msg, STEPS[0], record.args[-1]))


# A logger of this run only (logging.getLogger would share one, and its handlers, between the two runs).
logger = logging.Logger("train")
logger.addHandler(Recorder())


class CountingSGD(torch.optim.SGD):
    def step(self, closure=None):
        STEPS[0] += 1
        return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(56, 8)
Y = torch.randint(0, 3, (56,))
dataset = TensorDataset(X, Y)


def fit(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            x = x.to(device)
            y = y.to(device)
            out = model(x)
            loss = F.cross_entropy(out, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            logger.info(
                "epoch %d step %d loss %r",
                epoch,
                step,
                loss.item(),
            )
            logger.info("correct %r", (out.argmax(1) == y).sum().item())


model = nn.Linear(8, 3).to(device)
optimizer = CountingSGD(model.parameters(), lr=0.1)
# 14 steps per epoch, 3 epochs: per epoch a report after step 10 and the remaining 4 after the loop.
fit(model, DataLoader(dataset, batch_size=4), optimizer, epochs=3)
RESULT = [STEPS[0], [p.detach().cpu() for p in model.parameters()]]
