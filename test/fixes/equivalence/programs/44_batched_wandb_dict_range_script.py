import torch
import torch.nn as nn
import torch.nn.functional as F

# synclint batches the per-step wandb.log below on purpose: the harness compares what is logged as sums over
# the same steps (run_pairs.py, compare_batched_log); the printed text and RESULT still exactly.
EQUIVALENCE = "batched-logging"
LOGGED = []  # (series, step, value), step = optimizer steps taken when the record was made
STEPS = [0]


class Run:
    """wandb's module-level `log`, recording instead of uploading."""

    def log(self, data, step=None):
        for key, value in data.items():
            LOGGED.append((key, STEPS[0], value))


wandb = Run()


class CountingAdam(torch.optim.Adam):
    def step(self, closure=None):
        STEPS[0] += 1
        return super().step(closure)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(64, 8, device=device)
Y = torch.randint(0, 3, (64,), device=device)
model = nn.Linear(8, 3).to(device)
optimizer = CountingAdam(model.parameters(), lr=0.01)
max_steps = 7
# Fewer steps than log_every: the only report is the one after the loop, with all 7 steps.
for it in range(max_steps):
    idx = torch.randint(0, 64, (8,), device=device)
    loss = F.cross_entropy(model(X[idx]), Y[idx])
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    wandb.log({"train/loss": loss.item()}, step=it)
print("done", STEPS[0])
RESULT = [STEPS[0], model.weight.detach().cpu(), model.bias.detach().cpu()]
