import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.randn(48, 8)
Y = torch.randint(0, 3, (48,))
dataset = TensorDataset(X, Y)


def fit(model, loader, epochs=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    history = []
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in loader:
            inputs = inputs.to(device)
            labels = labels.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        history.append(running_loss)
        print(f"epoch {epoch}: {running_loss!r}")
    return history


model = nn.Linear(8, 3).to(device)
loader = DataLoader(dataset, batch_size=12, shuffle=True)
RESULT = [fit(model, loader), model.weight.detach().cpu()]
