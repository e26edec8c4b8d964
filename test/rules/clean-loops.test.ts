/**
 * Idiomatic, sync-free training code: every rule together must report nothing (recommended preset).
 * These guard against false positives that a single-rule test would not see.
 */
import * as assert from "assert";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { py } from "../helpers";

const CLEAN: Array<[string, string]> = [
  [
    "AMP step loop: pinned loader, non_blocking copies, clip_grad_norm_, periodic logging",
    py`
      import torch
      from torch.utils.data import DataLoader
      def train(dataset, model, scheduler, device, log_every=50):
          loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
          optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
          scaler = torch.cuda.amp.GradScaler()
          running = torch.zeros((), device=device)
          for step, (x, y) in enumerate(loader):
              x = x.to(device, non_blocking=True)
              y = y.to(device, non_blocking=True)
              optimizer.zero_grad(set_to_none=True)
              with torch.autocast("cuda", dtype=torch.bfloat16):
                  loss = torch.nn.functional.cross_entropy(model(x), y)
              scaler.scale(loss).backward()
              scaler.unscale_(optimizer)
              grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
              scaler.step(optimizer)
              scaler.update()
              scheduler.step()
              running += loss.detach()
              if (step + 1) % log_every == 0:
                  print(f"step {step + 1}: loss {running.item() / log_every:.4f} grad {grad_norm.item():.2f}")
                  running.zero_()
    `,
  ],
  [
    "Lightning module logging tensors through self.log",
    py`
      import torch
      import torch.nn as nn
      import torch.nn.functional as F
      import pytorch_lightning as pl
      class Classifier(pl.LightningModule):
          def __init__(self, backbone: nn.Module, num_classes: int):
              super().__init__()
              self.backbone = backbone
              self.head = nn.Linear(512, num_classes)
          def forward(self, x):
              return self.head(self.backbone(x))
          def training_step(self, batch, batch_idx):
              x, y = batch
              logits = self(x)
              loss = F.cross_entropy(logits, y)
              acc = (logits.argmax(-1) == y).float().mean()
              self.log("train/loss", loss, prog_bar=True)
              self.log("train/acc", acc)
              return loss
    `,
  ],
  [
    "evaluation that collects on the device and copies once",
    py`
      import torch
      @torch.no_grad()
      def evaluate(model, val_loader, device):
          model.eval()
          correct = torch.zeros((), dtype=torch.long, device=device)
          preds = []
          for images, labels in val_loader:
              images = images.to(device, non_blocking=True)
              labels = labels.to(device, non_blocking=True)
              logits = model(images)
              correct += (logits.argmax(1) == labels).sum()
              preds.append(logits.argmax(1))
          all_preds = torch.cat(preds).cpu().numpy()
          return correct.item() / len(val_loader.dataset), all_preds
    `,
  ],
  [
    "epoch loop with per-epoch reporting after the step loop",
    py`
      import torch
      def fit(model, loader, optimizer, scheduler, device, epochs):
          for epoch in range(epochs):
              total = torch.zeros((), device=device)
              for x, y in loader:
                  x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
                  loss = torch.nn.functional.mse_loss(model(x), y)
                  optimizer.zero_grad()
                  loss.backward()
                  optimizer.step()
                  total += loss.detach()
              scheduler.step()
              mean_loss = total / len(loader)
              print(f"epoch {epoch}: {mean_loss.item():.4f}")
              if torch.isnan(mean_loss):
                  raise RuntimeError("diverged")
    `,
  ],
  [
    "attention block with masking kept on the device",
    py`
      import math
      import torch
      import torch.nn as nn
      class SelfAttention(nn.Module):
          def __init__(self, dim: int, heads: int):
              super().__init__()
              self.heads = heads
              self.qkv = nn.Linear(dim, 3 * dim)
              self.out = nn.Linear(dim, dim)
          def forward(self, x: torch.Tensor, mask: torch.Tensor = None) -> torch.Tensor:
              b, n, d = x.shape
              q, k, v = self.qkv(x).chunk(3, dim=-1)
              q = q.view(b, n, self.heads, d // self.heads).transpose(1, 2)
              k = k.view(b, n, self.heads, d // self.heads).transpose(1, 2)
              v = v.view(b, n, self.heads, d // self.heads).transpose(1, 2)
              scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)
              if mask is not None:
                  scores = scores.masked_fill(~mask, float("-inf"))
              attn = scores.softmax(dim=-1)
              return self.out((attn @ v).transpose(1, 2).reshape(b, n, d))
    `,
  ],
  [
    "DataLoader options passed through **kwargs may pin memory",
    py`
      import torch
      from torch.utils.data import DataLoader
      def main(dataset, model, use_cuda):
          device = torch.device("cuda" if use_cuda else "cpu")
          loader_kwargs = {"num_workers": 2, "pin_memory": True} if use_cuda else {}
          loader = DataLoader(dataset, batch_size=64, shuffle=True, **loader_kwargs)
          for x, y in loader:
              x = x.to(device, non_blocking=True)
    `,
  ],
];

describe("all rules on sync-free training code", () => {
  before(() => initParser());

  for (const [name, code] of CLEAN) {
    it(name, () => {
      const result = lintSource(code, { config: resolveConfig({}, process.cwd()) });
      assert.deepStrictEqual(result.problems, [], "parses cleanly");
      assert.deepStrictEqual(result.findings.map((f) => `${f.line}:${f.column} ${f.rule}: ${f.message}`), []);
    });
  }

  it("the same AMP loop reports its syncs once the logging guard is removed (control)", () => {
    const unguarded = CLEAN[0][1].replace("if (step + 1) % log_every == 0:", "if True:");
    const result = lintSource(unguarded, { config: resolveConfig({}, process.cwd()) });
    assert.deepStrictEqual(result.findings.map((f) => [f.line, f.rule]), [
      [22, "item-in-hot-path"],
      [22, "item-in-hot-path"],
    ]);
  });
});
