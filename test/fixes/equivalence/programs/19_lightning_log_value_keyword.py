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

    def validation_step(self, batch, batch_idx):
        x, y = batch
        acc = (self.layer(x).argmax(1) == y).float().mean()
        self.log("val_acc", value=acc.item(), prog_bar=True)
        return acc


model = Classifier()
X = torch.randn(32, 8)
Y = torch.randint(0, 3, (32,))
with torch.no_grad():
    accs = [model.validation_step((X[i * 8:(i + 1) * 8], Y[i * 8:(i + 1) * 8]), i) for i in range(4)]
RESULT = [LOGGED, torch.stack(accs)]
