/**
 * Runs the edit path on a training file of our own before the user's first keystrokes need it.
 *
 * Opening a file runs the parser, the analysis and every rule, but not the code that only an edit runs
 * (splicing statements into a tree, keeping per-statement lints, moving findings), nor the code behind the
 * first findings of an edited file. V8 compiles that code lazily, then optimises it, while the first few dozen
 * edits wait. The server types into this file while it initialises instead, before answering `initialize`, so
 * no message waits behind it: in `npm run bench` (a fresh server, 200 edits on a 5,000-line file) this halved
 * the p99 of keystroke → diagnostics and shortened the first open.
 */
import { IncrementalLinter, resolveConfig } from "synclint-rules";
import type { PositionEncoding } from "synclint-rules";
import { OpenDocument } from "./documents";
import { toDiagnostics } from "./diagnostics";

/** A small training script on which every rule reports something (see test/server/warm-up.test.ts). */
export const WARM_UP_SOURCE = `import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.layer = nn.Linear(width, width)

    def forward(self, x):
        if x.sum() > 0:
            x = x[x > 0]
        print(x)
        return self.layer(x)


def train(model, dataset, optimizer, device):
    loader = DataLoader(dataset, batch_size=32)
    compiled = torch.compile(model)
    for step, (inputs, targets) in enumerate(loader):
        inputs = inputs.to(device)
        targets = targets.to(device)
        loss = nn.functional.cross_entropy(compiled(inputs), targets)
        loss.backward()
        optimizer.step()
        total = loss.item()
        print(loss.item())
        values = loss.cpu().numpy()
        first = targets[[0]]
        torch.cuda.synchronize()
        if step % 100 == 0:
            print(f"step {step}: {loss}")
    return total, values


@torch.compile
def scale(x):
    return x * x.max().item()
`;

/**
 * Types a character into lines of WARM_UP_SOURCE (at the start, inside and at the end of a line, which also
 * leaves syntax errors to recover from) and deletes it again, linting after each edit as the server does, until
 * `budgetMs` is spent or `rounds` passes over the file are done. Returns the number of edits made.
 */
export function warmUp(encoding: PositionEncoding, rounds: number, budgetMs: number): number {
  const started = performance.now();
  const lines = WARM_UP_SOURCE.split("\n");
  const document = new OpenDocument("synclint-warm-up:///train.py", 1, WARM_UP_SOURCE);
  const linter = new IncrementalLinter();
  const config = resolveConfig({}, process.cwd());
  const lint = () => {
    const result = linter.lint(document.text, document.syntax, { config, source: document.source });
    toDiagnostics(result, encoding);
    if (document.provisionalTree) document.reparseAfresh();
  };
  let edits = 0;
  try {
    lint();
    for (let round = 0; round < rounds; round++) {
      for (let line = 0; line < lines.length; line++) {
        if (performance.now() - started > budgetMs) return edits;
        const character = [0, Math.floor(lines[line].length / 2), lines[line].length][(line + round) % 3];
        const place = { line, character };
        document.applyChanges([{ range: { start: place, end: place }, text: "x" }], document.version + 1, encoding);
        lint();
        document.applyChanges([{ range: { start: place, end: { line, character: character + 1 } }, text: "" }], document.version + 1, encoding);
        lint();
        edits += 2;
      }
    }
    return edits;
  } finally {
    document.close();
  }
}
