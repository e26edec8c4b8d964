import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { applyFixes, initParser, noqaEdits, applyEdits, unifiedDiff, ensureTorchImport, bindsTorch, parseSyntaxTree, lintSource, resolveConfig } from "synclint-rules";
import type { Rule } from "synclint-rules";
import { py } from "../helpers";

const ROOT = path.join(__dirname, "..", "..", "..");
const CLI = path.join(ROOT, "shared-rules", "bin", "synclint.js");

const TRAIN = py`
  import torch
  from torch.utils.data import DataLoader
  device = torch.device("cuda")

  def train(model, ds, opt):
      running_loss = 0.0
      correct = 0
      loader = DataLoader(ds, batch_size=4)
      for x, y in loader:
          x = x.to(device)
          out = model(x)
          loss = out.sum()
          loss.backward()
          opt.step()
          running_loss += loss.item()
          correct += (out.argmax(1) == y).sum().item()
      return running_loss, correct

  train(model, ds, opt)
`;

function synclint(args: string[], options: { cwd?: string; input?: string } = {}) {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd, input: options.input, encoding: "utf8", timeout: 60000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function rootOf(text: string) {
  return parseSyntaxTree(text).root;
}

describe("fix engine", () => {
  before(() => initParser());

  it("applies overlapping fixes over several passes and is idempotent", () => {
    const config = resolveConfig({}, process.cwd());
    const result = applyFixes(TRAIN, { unsafe: true, config, filePath: "train.py" });
    // Both accumulators insert a line right after the loop: one pass each.
    assert.ok(result.passes >= 2, `passes: ${result.passes}`);
    assert.ok(result.text.includes("correct = correct.item() if torch.is_tensor(correct) else correct"));
    assert.ok(result.text.includes("running_loss = running_loss.item() if torch.is_tensor(running_loss) else running_loss"));
    assert.ok(result.text.includes("pin_memory=True") && result.text.includes("x.to(device, non_blocking=True)"));
    assert.strictEqual(applyFixes(result.text, { unsafe: true, config, filePath: "train.py" }).text, result.text);
    assert.deepStrictEqual(result.findings.map((f) => f.rule), []);
  });

  it("applies only safe fixes without `unsafe`", () => {
    const result = applyFixes(TRAIN, { config: resolveConfig({}, process.cwd()), filePath: "train.py" });
    assert.ok(result.applied.every((fix) => fix.safe));
    assert.ok(result.text.includes("running_loss += loss.item()"));
    assert.ok(result.text.includes("pin_memory=True"));
  });

  it("rejects a fix whose result does not parse, and keeps the others", () => {
    const broken: Rule = {
      meta: { name: "broken-fix", code: "SYN999", category: "host read", defaultSeverity: "warning", description: "", hotPathOnly: false, breaksCompiledGraph: false, fixable: true, hasSuggestions: false, docs: { why: "", example: "", useInstead: "", fixSafety: "", facts: [] }, messages: { m: "m" } },
      create: (context) => ({
        integer: (node) => context.report({ node, messageId: "m", fixes: [{ title: node.start === 4 ? "break it" : "fine", safe: true, edits: [{ start: node.start, end: node.end, text: node.start === 4 ? "(" : "2" }] }] }),
      }),
    };
    const result = applyFixes("a = 1\nb = 1\n", { rules: [broken] });
    assert.strictEqual(result.text, "a = 1\nb = 2\n");
    assert.deepStrictEqual(result.rejected.map((r) => r.title), ["break it"]);
  });

  it("leaves a file that does not parse alone", () => {
    const text = "import torch\nfor x in loader:\n    x = x.to(device)\n    (\n";
    assert.strictEqual(applyFixes(text, {}).text, text);
  });

  it("applyEdits applies edits in offset order", () => {
    assert.strictEqual(applyEdits("abcdef", [{ start: 4, end: 5, text: "X" }, { start: 0, end: 0, text: ">" }]), ">abcdXf");
  });

  it("adds `import torch` after the docstring and __future__ imports, only when missing", () => {
    const text = '"""Doc."""\nfrom __future__ import annotations\nfrom torch import nn\n';
    const edit = ensureTorchImport(text, rootOf(text))!;
    assert.strictEqual(applyEdits(text, [edit]), '"""Doc."""\nfrom __future__ import annotations\nimport torch\nfrom torch import nn\n');
    assert.strictEqual(ensureTorchImport("import numpy as np, torch\n", rootOf("import numpy as np, torch\n")), undefined);
    assert.ok(bindsTorch("import torch.nn as nn\nimport torch\n"));
    assert.ok(!bindsTorch("import torch.nn as nn\n"));
    assert.ok(!bindsTorch("def f():\n    import torch\n"));
  });

  it("unifiedDiff prints hunks with context", () => {
    const diff = unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "a/x.py", "b/x.py");
    assert.strictEqual(diff, "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    assert.strictEqual(unifiedDiff("same\n", "same\n", "a", "b"), "");
  });

  it("noqa edits merge with an existing synclint comment", () => {
    const text = py`
      import torch
      def train(model, loader):
          for x, y in loader:
              v = model(x).sum().item()  # synclint: ignore[tensor-formatting] -- reason
              print(model(x).sum())
    `;
    const findings = lintSource(text, { filePath: "train.py" }).findings;
    const fixed = applyEdits(text, noqaEdits(text, rootOf(text), findings));
    assert.ok(fixed.includes("v = model(x).sum().item()  # synclint: ignore[tensor-formatting, item-in-hot-path] -- reason"), fixed);
    assert.ok(fixed.includes("print(model(x).sum())  # synclint: ignore[tensor-formatting]"), fixed);
    assert.deepStrictEqual(lintSource(fixed, { filePath: "train.py" }).findings, []);
  });
});

describe("CLI: --fix, --unsafe-fixes, --diff, --add-noqa, fixes in JSON and SARIF", function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-fix-cli-"));
    fs.writeFileSync(path.join(dir, "train.py"), TRAIN);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("--diff prints a unified diff, changes nothing and exits 1", () => {
    const run = synclint(["--diff", "train.py"], { cwd: dir });
    assert.strictEqual(run.status, 1, run.stderr);
    assert.match(run.stdout, /^--- a\/train\.py\n\+\+\+ b\/train\.py\n@@ /);
    assert.match(run.stdout, /^\+ {4}loader = DataLoader\(ds, batch_size=4, pin_memory=True\)$/m);
    assert.ok(!run.stdout.includes("loss.detach().double()"), "--diff without --unsafe-fixes shows safe fixes only");
    assert.strictEqual(fs.readFileSync(path.join(dir, "train.py"), "utf8"), TRAIN);
    const unsafe = synclint(["--diff", "--unsafe-fixes", "train.py"], { cwd: dir });
    assert.match(unsafe.stdout, /^\+ {8}running_loss \+= loss\.detach\(\)\.double\(\)$/m);
  });

  it("--diff exits 0 when there is nothing to fix", () => {
    fs.writeFileSync(path.join(dir, "train.py"), "import torch\n");
    const run = synclint(["--diff", "train.py"], { cwd: dir });
    assert.strictEqual(run.status, 0);
    assert.strictEqual(run.stdout, "");
  });

  it("--fix writes safe fixes and reports what is left; --unsafe-fixes applies suggestions", () => {
    const run = synclint(["--fix", "train.py"], { cwd: dir });
    assert.strictEqual(run.status, 1, run.stderr);
    const fixed = fs.readFileSync(path.join(dir, "train.py"), "utf8");
    assert.ok(fixed.includes("pin_memory=True") && fixed.includes("non_blocking=True") && fixed.includes("running_loss += loss.item()"));
    assert.match(run.stdout, /item-in-hot-path/);
    const unsafe = synclint(["--unsafe-fixes", "train.py"], { cwd: dir });
    assert.strictEqual(unsafe.status, 0, unsafe.stdout + unsafe.stderr);
    assert.ok(fs.readFileSync(path.join(dir, "train.py"), "utf8").includes("running_loss += loss.detach().double()"));
  });

  it("--fix with --stdin-filename writes the fixed source to stdout", () => {
    const run = synclint(["--fix", "--stdin-filename", "train.py"], { input: TRAIN });
    assert.ok(run.stdout.startsWith("import torch\n"));
    assert.ok(run.stdout.includes("loader = DataLoader(ds, batch_size=4, pin_memory=True)\n"));
    assert.strictEqual(run.status, 1);
  });

  it("--add-noqa suppresses every current finding", () => {
    const run = synclint(["--add-noqa", "train.py"], { cwd: dir });
    assert.strictEqual(run.status, 0, run.stderr);
    assert.match(run.stderr, /added 4 suppression comments in 1 file/);
    const text = fs.readFileSync(path.join(dir, "train.py"), "utf8");
    assert.ok(text.includes("running_loss += loss.item()  # synclint: ignore[item-in-hot-path]"));
    assert.strictEqual(synclint(["train.py"], { cwd: dir }).status, 0);
  });

  it("JSON messages carry an ESLint fix for safe fixes and suggestions for every fix", () => {
    const run = synclint(["--format", "json", "train.py"], { cwd: dir });
    const [result] = JSON.parse(run.stdout);
    const pin = result.messages.find((m: { ruleId: string }) => m.ruleId === "dataloader-pin-memory");
    assert.deepStrictEqual(pin.fix, { range: [TRAIN.indexOf("batch_size=4") + 12, TRAIN.indexOf("batch_size=4") + 12], text: ", pin_memory=True" });
    assert.strictEqual(pin.suggestions[0].desc, "Add `pin_memory=True` to the `DataLoader`");
    const item = result.messages.find((m: { ruleId: string; line: number }) => m.ruleId === "item-in-hot-path" && m.line === 16);
    assert.strictEqual(item.fix, undefined);
    assert.match(item.suggestions[0].desc, /suggestion/);
    assert.ok(result.fixableWarningCount >= 2);
  });

  it("SARIF results carry fixes", () => {
    const run = synclint(["--format", "sarif", "train.py"], { cwd: dir });
    const log = JSON.parse(run.stdout);
    const pin = log.runs[0].results.find((r: { ruleId: string }) => r.ruleId === "dataloader-pin-memory");
    assert.strictEqual(pin.fixes[0].description.text, "Add `pin_memory=True` to the `DataLoader`");
    assert.deepStrictEqual(pin.fixes[0].artifactChanges[0].replacements[0].insertedContent, { text: ", pin_memory=True" });
  });
});
