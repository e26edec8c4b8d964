import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# Tabs, CRLF line endings and a module-level loop over epochs. synclint batches the per-step print below on
# purpose: the harness compares what is logged as sums over the same steps (run_pairs.py, compare_batched_log);
# the printed text and RESULT still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


def print(label, value):
	"""The recorder: keeps the printed number itself."""
	LOGGED.append((label, STEPS[0], value))


class CountingSGD(torch.optim.SGD):
	def step(self, closure=None):
		STEPS[0] += 1
		return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(44, 8)
Y = torch.randint(0, 3, (44,))
model = nn.Linear(8, 3).to(device)
optimizer = CountingSGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(X, Y), batch_size=4, shuffle=True)
# 11 steps per epoch, counted from 3: reports after the 10th step of each epoch and 1 step after the loop.
for epoch in range(2):
	for i, (x, y) in enumerate(loader, start=3):
		x = x.to(device)
		y = y.to(device)
		loss = F.cross_entropy(model(x), y)
		optimizer.zero_grad()
		loss.backward()
		optimizer.step()
		print("loss", loss.item())
RESULT = [STEPS[0], model.weight.detach().cpu(), model.bias.detach().cpu()]
