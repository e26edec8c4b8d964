import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Decoder(nn.Module):
    def __init__(self, vocab=11, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, token, hidden):
        hidden = self.cell(self.embed(token), hidden)
        return self.out(hidden), hidden


@torch.no_grad()
def greedy(model, steps=9):
    token = torch.zeros(3, dtype=torch.long, device=device)
    hidden = torch.zeros(3, 16, device=device)
    tokens = []
    for step in range(steps):
        logits, hidden = model(token, hidden)
        token = logits.argmax(-1)
        tokens.append(token.cpu())
    return torch.stack(tokens, 1)


model = Decoder().to(device)
RESULT = greedy(model)
print(RESULT.tolist())
