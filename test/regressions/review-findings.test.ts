/**
 * Regression cases for analysis bugs found while reviewing the engine (each was a wrong result before its fix).
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { initParser, lintSource, resolveConfig, readSourceFile } from "synclint-rules";
import { py } from "../helpers";

function lint(code: string, select: string[], extra: Record<string, unknown> = {}) {
  return lintSource(code, { config: resolveConfig({ select, ...extra }, process.cwd()) });
}

describe("regressions from the engine review", () => {
  before(() => initParser());

  it("enumerate(loader) is a loop over data", () => {
    const code = py`
      import torch
      def compute_stats(loader, device):
          total = torch.zeros(3, device=device)
          for i, (images, _) in enumerate(loader):
              images = images.to(device)
              total += images.mean(dim=(0, 2, 3))
    `;
    const findings = lint(code, ["blocking-host-to-device"]).findings;
    assert.deepStrictEqual(findings.map((f) => f.line), [5]);
  });

  it("code after an enumerate(loader) step loop in an epoch loop runs once per epoch", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, device):
          for e in range(10):
              for i, (x, y) in enumerate(loader):
                  loss = model(x.to(device, non_blocking=True)).mean()
                  loss.backward()
                  optimizer.step()
              print(loss.item())
    `;
    assert.deepStrictEqual(lint(code, ["item-in-hot-path"]).findings, []);
  });

  it("a validation forward pass in the epoch loop's body keeps it an epoch loop", () => {
    const code = py`
      import torch
      def fit(model, criterion, optimizer, train_loader, val_x, val_y, num_epochs, device):
          for epoch in range(num_epochs):
              for x, y in train_loader:
                  loss = criterion(model(x.to(device, non_blocking=True)), y.to(device, non_blocking=True))
                  loss.backward()
                  optimizer.step()
              with torch.no_grad():
                  val_loss = criterion(model(val_x), val_y)
              print(val_loss.item())
    `;
    assert.deepStrictEqual(lint(code, ["item-in-hot-path"]).findings, []);
  });

  it("a periodic test stored in a variable is a periodic guard", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, device):
          for step, batch in enumerate(loader):
              loss = model(batch.to(device, non_blocking=True)).mean()
              loss.backward()
              report = step % 50 == 0
              if report:
                  print(loss.item())
              if loss.item() > 10:
                  pass
    `;
    assert.deepStrictEqual(lint(code, ["item-in-hot-path"]).findings.map((f) => f.line), [9]);
  });

  it("an in-place update through a mask reads the selection first", () => {
    const code = py`
      import torch
      def train(model, loader, device):
          for x in loader:
              out = model(x.to(device, non_blocking=True))
              mask = out > 0
              out[mask] *= 2
    `;
    assert.deepStrictEqual(lint(code, ["data-dependent-shape"]).findings.map((f) => f.line), [6]);
  });

  it("a boolean mask is recognised by its assignment, not only by its name", () => {
    const code = py`
      import torch
      def train(model, loader, threshold, device):
          for x in loader:
              out = model(x.to(device, non_blocking=True))
              above = out > threshold
              sel = out[above]
              rows = out[[0, 1]]
    `;
    assert.deepStrictEqual(lint(code, ["data-dependent-shape"]).findings.map((f) => f.line), [6]);
  });

  it("a syntax error is reported at its place and the rest of the file is still linted", () => {
    const code = py`
      import torch
      def train(model, loader, device):
          for x in loader:
              loss = model(x.to(device, non_blocking=True)).mean()
              other = model(x).mean())
              v = loss.item()
    `;
    // (A stray `)` at the end of `loss = ...` itself would chain it onto the next line in tree-sitter's recovery,
    // `loss = <error> v = loss.item()`, which makes `loss` a number.)
    const result = lint(code, ["item-in-hot-path"]);
    assert.strictEqual(result.problems.filter((p) => p.kind === "parse-error").length, 1);
    assert.strictEqual(result.problems[0].line, 5);
    assert.deepStrictEqual(result.findings.map((f) => f.line), [6]);
    assert.strictEqual(lint("x = (1,\n", ["item-in-hot-path"]).problems.filter((p) => p.kind === "parse-error").length, 1);
  });

  it("files with lone carriage returns (old Mac line endings) parse like Python parses them", () => {
    const code = "import torch\rdef train(model, loader, device):\r    for x in loader:\r        loss = model(x.to(device, non_blocking=True)).mean()\r        v = loss.item()\r";
    const result = lint(code, ["item-in-hot-path"]);
    assert.deepStrictEqual(result.problems, []);
    assert.deepStrictEqual(result.findings.map((f) => [f.line, f.column]), [[5, 18]]);
    assert.strictEqual(code.slice(result.findings[0].start, result.findings[0].end), "item()");
  });

  it("PEP 263 latin-1 declarations decode as ISO-8859-1", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "synclint-pep263-")), "a.py");
    fs.writeFileSync(file, Buffer.concat([Buffer.from("# -*- coding: latin-1 -*-\ns = '"), Buffer.from([0xe9, 0x93]), Buffer.from("'\n")]));
    const source = readSourceFile(file);
    assert.ok(source.ok);
    if (source.ok) assert.strictEqual(source.text.split("\n")[1], "s = '\u00e9\u0093'");
  });

  it("extra-step-functions count as per-step code when deciding that a value may be on a GPU", () => {
    const code = py`
      import torch
      def run_batch(loss):
          return loss.item()
    `;
    const findings = lint(code, ["item-in-hot-path"], { "extra-step-functions": ["run_batch"] }).findings;
    assert.deepStrictEqual(findings.map((f) => f.line), [3]);
  });

  it("a DataLoader stored on self in __init__ is followed into the methods that iterate it", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      class Trainer:
          def __init__(self, dataset, device):
              self.loader = DataLoader(dataset, batch_size=32)
              self.device = device
          def fit(self, model):
              for x, y in self.loader:
                  x = x.to(self.device, non_blocking=True)
    `;
    assert.deepStrictEqual(lint(code, ["dataloader-pin-memory"]).findings.map((f) => f.line), [5]);
  });

  it("selecting only sync-in-compiled-region still finds syncs in compiled code, and only there", () => {
    const code = py`
      import torch
      @torch.compile
      def clipped(x, limit):
          if x.norm().item() > limit:
              x = x * 0.5
          return x
      def train(model, loader, device):
          for x in loader:
              print(model(x.to(device, non_blocking=True)).sum().item())
    `;
    const findings = lint(code, ["sync-in-compiled-region"]).findings;
    assert.deepStrictEqual(findings.map((f) => [f.rule, f.line]), [["sync-in-compiled-region", 4]]);
  });
  it("an attribute with its name missing (`x.()`) is a located parse error, not a rule or analysis failure", () => {
    for (const code of ["class Net(nn.Module):\n    def forward(self, x):\n        return super().forward.()\n", "x = t.any.()\nif t.sum.():\n    pass\n", "for b in loader:\n    loss = model(b).item.()\n"]) {
      const result = lintSource(`import torch\n${code}`, { config: resolveConfig({ preset: "strict" }, process.cwd()) });
      assert.deepStrictEqual(result.problems.map((p) => p.kind), ["parse-error"], `${code}: ${JSON.stringify(result.problems)}`);
      assert.match(result.problems[0].message, /expected `identifier`/);
    }
  });
});
