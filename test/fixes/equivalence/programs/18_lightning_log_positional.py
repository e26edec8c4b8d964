import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LOGGED = []


class LightningModule(nn.Module):
    """A stand-in for Lightning's: `log` records what would be logged, as Lightning reads it (a float)."""

    def log(self, name, value, **kwargs):
        LOGGED.append((name, float(value)))


class Classifier(LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(8, 3)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.layer(x), y)
        self.log("train_loss", loss.item())
        return loss


model = Classifier()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(32, 8)
Y = torch.randint(0, 3, (32,))
for i in range(4):
    loss = model.training_step((X[i * 8:(i + 1) * 8], Y[i * 8:(i + 1) * 8]), i)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(LOGGED)
RESULT = LOGGED
