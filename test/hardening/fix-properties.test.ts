/**
 * Fix properties: on random programs, applying every fix (safe and suggestions) yields text that parses without
 * ERROR/MISSING nodes and compiles with CPython, and fixing the result again changes nothing.
 */
import * as assert from "assert";
import { spawnSync } from "child_process";
import { applyFixes, initParser, parsesCleanly } from "synclint-rules";
import { fc, programArbitrary } from "./properties";

const SEED = 20261129;

/** Training and evaluation loops whose pieces each invite a fix, in random combinations and styles. */
const fixableProgram: fc.Arbitrary<string> = fc
  .record({
    indent: fc.constantFrom("    ", "  ", "\t"),
    newline: fc.constantFrom("\n", "\r\n"),
    loader: fc.constantFrom("DataLoader(dataset, batch_size=32)", "DataLoader(dataset, batch_size=32, pin_memory=False)", "DataLoader(dataset, 8, shuffle=True)"),
    iterate: fc.constantFrom("for x, y in loader:", "for step, (x, y) in enumerate(loader):"),
    pieces: fc.subarray(
      [
        "x = x.to(device)",
        "y = y.cuda()",
        "weight = torch.tensor([0.3, 0.7], device=device)",
        "out = model(x)",
        "loss = criterion(out, y)",
        "running_loss += loss.item()",
        "correct += (out.argmax(1) == y).sum().item()",
        "preds.append(out.argmax(1).cpu())",
        "probs.extend(out.softmax(-1).cpu().numpy())",
        "total = x[x > 0].sum()",
        "print(loss.item())",
      ],
      { minLength: 1 },
    ),
  })
  .map(({ indent, newline, loader, iterate, pieces }) => {
    const lines = [
      "import torch",
      "import torch.nn.functional as F",
      "from torch.utils.data import DataLoader",
      "",
      "",
      "def train(model, dataset, criterion, device):",
      `${indent}loader = ${loader}`,
      `${indent}running_loss = 0.0`,
      `${indent}correct = 0`,
      `${indent}preds = []`,
      `${indent}probs = []`,
      `${indent}${iterate}`,
      ...pieces.map((piece) => `${indent}${indent}${piece}`),
      `${indent}return running_loss, correct, preds, probs`,
      "",
    ];
    return lines.join(newline);
  });

function compiles(text: string): boolean {
  const run = spawnSync("python3", ["-c", "import sys; compile(sys.stdin.read(), 'fixed.py', 'exec')"], { input: text, encoding: "utf8" });
  return run.status === 0;
}

describe("hardening: fix properties (seeded)", function () {
  this.timeout(120000);
  before(() => initParser());

  it("fixing training loops yields parseable, compilable text, and fixing again is a no-op", () => {
    let changed = 0;
    fc.assert(
      fc.property(fixableProgram, (text) => {
        const first = applyFixes(text, { unsafe: true });
        if (!first.changed) return;
        changed++;
        assert.ok(parsesCleanly(first.text), `fixed text does not parse:\n${first.text}`);
        assert.ok(compiles(first.text), `fixed text does not compile:\n${first.text}`);
        const second = applyFixes(first.text, { unsafe: true });
        assert.strictEqual(second.text, first.text, "fixing twice changed the text");
      }),
      { seed: SEED, numRuns: 60, endOnFailure: true },
    );
    assert.ok(changed > 30, `only ${changed} of 60 programs were changed by fixes`);
  });

  it("fixing arbitrary grammar programs never breaks parsing and is idempotent", () => {
    fc.assert(
      fc.property(programArbitrary, (text) => {
        const first = applyFixes(text, { unsafe: true });
        if (!first.changed) return;
        assert.ok(parsesCleanly(first.text), `fixed text does not parse:\n${first.text}`);
        assert.strictEqual(applyFixes(first.text, { unsafe: true }).text, first.text, "fixing twice changed the text");
      }),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );
  });
});
