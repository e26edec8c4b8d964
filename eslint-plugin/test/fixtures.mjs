/** Python fixtures for the plugin's tests. Lines ending in `# expect` are the lines reported under `recommended`. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const pluginRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(pluginRoot, "..");
export const eslintBin = path.join(repoRoot, "node_modules", ".bin", "eslint");
export const synclintBin = path.join(repoRoot, "shared-rules", "bin", "synclint.js");
export const acceptanceScript = path.join(repoRoot, "scripts", "acceptance.js");

export const projectFiles = {
  "train_loop.py": `"""A training loop with one of each per-step sync."""
import torch
import torch.nn as nn


def train(model: nn.Module, loader, optimizer, device):
    criterion = nn.CrossEntropyLoss()
    for step, (inputs, targets, mask) in enumerate(loader):
        inputs = inputs.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        total = loss.item()  # expect
        print(loss)  # expect
        if loss > 10:  # expect
            break
        picked = outputs[mask.to(device, non_blocking=True) > 0]  # expect
        torch.cuda.synchronize()  # expect
        host = outputs.cpu()  # expect
        if step % 100 == 0:
            print(f"step {step}: {loss.item():.4f} {total} {picked.sum()} {host.shape}")
`,
  "transfers.py": `"""Host-to-device copies inside a loop."""
import torch
from torch.utils.data import DataLoader


def run(model, dataset, device="cuda"):
    loader = DataLoader(dataset, batch_size=64)  # expect
    for batch, target in loader:
        batch = batch.to(device)  # expect
        target = target.cuda()  # expect
        weight = torch.tensor([0.3, 0.7], device=device)  # expect
        loss = torch.nn.functional.cross_entropy(model(batch), target, weight=weight)
        loss.backward()
`,
  "compiled.py": `"""Inside torch.compile, reading a value on the host breaks the graph."""
import torch


@torch.compile
def clipped_step(x: torch.Tensor, limit: float) -> torch.Tensor:
    if x.norm().item() > limit:  # expect
        x = x * (limit / x.norm())
    return x
`,
  "once.py": `"""Runs once: reported only by the strict preset."""
import torch


def summary(model):
    weight = torch.ones(3, device="cuda")
    value = weight.sum().item()
    return f"{value:.3f}"
`,
  "directives.py": `"""ESLint's disable directives in Python comments."""
import torch


def train(model, loader, optimizer):
    for batch in loader:
        loss = model(batch).mean()
        loss.backward()
        optimizer.step()
        # eslint-disable-next-line synclint/item-in-hot-path -- logged on purpose
        first = loss.item()
        second = loss.item()  # eslint-disable-line synclint/item-in-hot-path
        third = loss.item()  # expect
        # eslint-disable-next-line synclint/tensor-formatting
        fourth = print(loss.item(), loss)  # expect
        # eslint-disable
        fifth = loss.item()
        print(loss)
        # eslint-enable
        sixth = loss.item()  # synclint: ignore[item-in-hot-path]
        print(first, second, third, fourth, fifth, sixth)
`,
};

/** What synclint itself reports in directives.py but the ESLint directives suppress: "line rule". */
export const disabledByDirectives = ["11 item-in-hot-path", "12 item-in-hot-path", "15 tensor-formatting", "17 item-in-hot-path", "18 tensor-formatting"];

export const brokenFile = {
  "broken.py": `import torch


def train(model, loader:
    for batch in loader:
        model(batch).item()
`,
};

/** A temporary folder `{root}/project/*.py`, `{root}/bad/broken.py` and `{root}/eslint.config.js`. */
export function makeWorkspace(configName = "recommended") {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-eslint-"));
  const write = (relative, text) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  for (const [name, text] of Object.entries(projectFiles)) write(path.join("project", name), text);
  for (const [name, text] of Object.entries(brokenFile)) write(path.join("bad", name), text);
  const plugin = pathToFileURL(path.join(pluginRoot, "index.js")).href;
  write("eslint.config.js", `import synclint from ${JSON.stringify(plugin)};\n\nexport default [synclint.configs.${configName}];\n`);
  return root;
}

export function removeWorkspace(root) {
  fs.rmSync(root, { recursive: true, force: true });
}
