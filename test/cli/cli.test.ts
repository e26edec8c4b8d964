import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";

const CLI = path.join(__dirname, "..", "..", "..", "shared-rules", "bin", "synclint.js");
const ROOT = path.join(__dirname, "..", "..", "..");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function synclint(args: string[], options: { cwd?: string; input?: string } = {}): Run {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd, input: options.input, encoding: "utf8", timeout: 60000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const TRAIN_LOOP = [
  "import torch",
  "",
  "def train(model, loader, optimizer):",
  "    for step, (x, y) in enumerate(loader):",
  "        loss = model(x).mean()",
  "        loss.backward()",
  "        optimizer.step()",
  "        print(loss.item())",
  "",
].join("\n");

const CLEAN = ["import torch", "", "def train(model, loader, optimizer):", "    for x in loader:", "        model(x).mean().backward()", "        optimizer.step()", ""].join("\n");

function workspace(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-cli-"));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return dir;
}

interface JsonResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; severity: number; message: string; line: number; column: number; endLine: number; endColumn: number; fatal?: boolean }>;
  errorCount: number;
  warningCount: number;
}

function json(run: Run): JsonResult[] {
  return JSON.parse(run.stdout) as JsonResult[];
}

describe("synclint command line", () => {
  it("prints help and version and exits 0", () => {
    const help = synclint(["--help"]);
    assert.strictEqual(help.status, 0);
    assert.match(help.stdout, /Usage: synclint/);
    assert.match(help.stdout, /--stdin-filename/);
    const version = synclint(["--version"]);
    assert.strictEqual(version.status, 0);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
  });

  it("exits 0 on clean code and 1 when something is reported", () => {
    const dir = workspace({ "clean.py": CLEAN, "dirty.py": TRAIN_LOOP });
    assert.strictEqual(synclint([path.join(dir, "clean.py")]).status, 0);
    const dirty = synclint([path.join(dir, "dirty.py")]);
    assert.strictEqual(dirty.status, 1);
    assert.match(dirty.stdout, /8:\d+\s+warning\s+`loss\.item\(\)` in the step loop of `train\(\)`/);
    assert.match(dirty.stdout, /1 problem/);
  });

  it("exits 2 on usage errors with a clear message", () => {
    const unknownFlag = synclint(["--no-such-flag"]);
    assert.strictEqual(unknownFlag.status, 2);
    assert.match(unknownFlag.stderr, /synclint: .*no-such-flag/);
    assert.strictEqual(synclint(["--format", "xml", "."]).status, 2);
    const badRule = synclint(["--select", "not-a-rule", "."]);
    assert.strictEqual(badRule.status, 2);
    assert.match(badRule.stderr, /unknown rule "not-a-rule"/);
    assert.strictEqual(synclint(["/no/such/path/anywhere"]).status, 2);
  });

  it("exits 2 on a bad configuration, naming the file and the key", () => {
    const dir = workspace({ "pyproject.toml": "[tool.synclint]\nselect = \"item-in-hot-path\"\n", "a.py": TRAIN_LOOP });
    const run = synclint([dir]);
    assert.strictEqual(run.status, 2);
    assert.match(run.stderr, /pyproject\.toml/);
    assert.match(run.stderr, /"select"/);
    assert.match(run.stderr, /expected an array/);
    const syntax = workspace({ "synclint.toml": "select = [\n", "a.py": TRAIN_LOOP });
    const bad = synclint([syntax]);
    assert.strictEqual(bad.status, 2);
    assert.match(bad.stderr, /synclint\.toml: invalid TOML at line \d+/);
  });

  it("writes ESLint's JSON format", () => {
    const dir = workspace({ "a.py": TRAIN_LOOP });
    const run = synclint(["--format", "json", path.join(dir, "a.py")]);
    const [result] = json(run);
    assert.strictEqual(result.filePath, path.join(dir, "a.py"));
    assert.strictEqual(result.warningCount, 1);
    assert.strictEqual(result.errorCount, 0);
    const [message] = result.messages;
    assert.strictEqual(message.ruleId, "item-in-hot-path");
    assert.strictEqual(message.severity, 1);
    assert.deepStrictEqual([message.line, message.column, message.endLine, message.endColumn], [8, 20, 8, 26]);
  });

  it("writes GitHub annotations", () => {
    const dir = workspace({ "a.py": TRAIN_LOOP });
    const run = synclint(["--format", "github", "a.py"], { cwd: dir });
    assert.match(run.stdout, /^::warning file=a\.py,line=8,col=20,endLine=8,endColumn=26,title=synclint item-in-hot-path \(SYN101\)::`loss\.item\(\)`/m);
  });

  it("writes SARIF 2.1.0 that Microsoft's SARIF Multitool validates", function () {
    this.timeout(120000);
    const dir = workspace({ "a.py": TRAIN_LOOP, "b.py": "def broken(:\n    pass\n" });
    const run = synclint(["--format", "sarif", "."], { cwd: dir });
    const log = JSON.parse(run.stdout);
    assert.strictEqual(log.version, "2.1.0");
    const driver = log.runs[0].tool.driver;
    assert.strictEqual(driver.rules.length, 10);
    assert.ok(driver.rules.every((rule: { help: { markdown: string } }) => rule.help.markdown.includes("Why is this bad?")));
    assert.ok(log.runs[0].results.some((r: { ruleId: string }) => r.ruleId === "item-in-hot-path"));
    const sarifFile = path.join(dir, "out.sarif");
    fs.writeFileSync(sarifFile, run.stdout);
    const tool = path.join(ROOT, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool");
    assert.ok(fs.existsSync(tool), "the SARIF Multitool is a dev dependency");
    fs.chmodSync(tool, 0o755);
    const validation = spawnSync(tool, ["validate", sarifFile, "--output", path.join(dir, "validation.sarif"), "--log", "ForceOverwrite"], { encoding: "utf8", timeout: 110000 });
    assert.strictEqual(validation.status, 0, validation.stdout + validation.stderr);
    const report = JSON.parse(fs.readFileSync(path.join(dir, "validation.sarif"), "utf8"));
    const errors = report.runs[0].results.filter((r: { level?: string }) => r.level === "error");
    assert.deepStrictEqual(errors, []);
  });

  it("lints standard input under --stdin-filename", () => {
    const run = synclint(["--stdin-filename", "train.py", "--format", "json"], { input: TRAIN_LOOP });
    assert.strictEqual(run.status, 1);
    const [result] = json(run);
    assert.strictEqual(path.basename(result.filePath), "train.py");
    assert.strictEqual(result.messages[0].line, 8);
  });

  it("respects .gitignore, the exclude list, and never follows a symlink loop", () => {
    const dir = workspace({
      ".gitignore": "generated/\n",
      "generated/a.py": TRAIN_LOOP,
      "pyproject.toml": "[tool.synclint]\nexclude = [\"vendor\"]\n",
      "vendor/b.py": TRAIN_LOOP,
      "src/c.py": TRAIN_LOOP,
    });
    fs.symlinkSync(dir, path.join(dir, "src", "loop"));
    const run = synclint(["--format", "json", "."], { cwd: dir });
    const files = json(run).map((r) => path.relative(dir, r.filePath));
    assert.deepStrictEqual(files, ["src/c.py"]);
  });

  it("skips the copies of the code that a run saved beside its outputs, unless named", () => {
    const dir = workspace({
      "models/utils.py": TRAIN_LOOP,
      "train.py": TRAIN_LOOP,
      // Pointnet's train scripts copy the model files into each run's folder; wandb keeps the script too.
      "log/classification/run1/utils.py": TRAIN_LOOP,
      "wandb/run-20240101/files/code/train.py": TRAIN_LOOP,
      // Not a copy: no file outside the run folders has its name.
      "logs/summarize.py": TRAIN_LOOP,
      // `experiments/` holds code of its own.
      "experiments/train.py": TRAIN_LOOP,
    });
    const linted = (args: string[]) => json(synclint(["--format", "json", ...args], { cwd: dir })).map((r) => path.relative(dir, r.filePath));
    assert.deepStrictEqual(linted(["."]), ["experiments/train.py", "logs/summarize.py", "models/utils.py", "train.py"]);
    assert.deepStrictEqual(linted(["log/classification/run1/utils.py"]), ["log/classification/run1/utils.py"]);
    // A run folder given as the folder to lint: its files are what was asked for.
    assert.deepStrictEqual(linted(["log"]), ["log/classification/run1/utils.py"]);
  });

  it("reports nothing under the recommended preset in a project that never puts anything on a GPU (pytorch-a3c)", () => {
    const optimizer = ["import torch", "", "class SharedAdam(torch.optim.Adam):", "    def step(self):", "        for group in self.param_groups:", "            for p in group['params']:", "                state = self.state[p]", "                print(state['step'].item())", ""].join("\n");
    const main = ["import argparse", "import os", "import torch", "from optim import SharedAdam", "", "if __name__ == '__main__':", "    os.environ['CUDA_VISIBLE_DEVICES'] = \"\"", "    args = argparse.ArgumentParser().parse_args()", ""].join("\n");
    const linted = (files: Record<string, string>, args: string[] = []) => json(synclint(["--format", "json", ...args, "."], { cwd: workspace(files) })).flatMap((r) => r.messages.map((m) => `${path.basename(r.filePath)}:${m.line}`));
    assert.deepStrictEqual(linted({ "optim.py": optimizer, "main.py": main }), []);
    assert.deepStrictEqual(linted({ "optim.py": optimizer, "main.py": main }, ["--all"]), ["optim.py:8"]);
    // A file that moves something to a device, or a config or document that mentions one: the GPU may be used.
    assert.deepStrictEqual(linted({ "optim.py": optimizer, "main.py": main, "model.py": "import torch\nnet = torch.nn.Linear(2, 2).cuda()\n" }), ["optim.py:8"]);
    assert.deepStrictEqual(linted({ "optim.py": optimizer, "main.py": main, "config.yaml": "device: cuda\n" }), ["optim.py:8"]);
    // A framework that places the model itself (Lightning, Hugging Face's Trainer) mentions no device.
    assert.deepStrictEqual(linted({ "optim.py": optimizer, "main.py": main.replace("import os", "import os\nimport pytorch_lightning as pl") }), ["optim.py:8"]);
    // No script: a library, whose users bring their own devices.
    assert.deepStrictEqual(linted({ "optim.py": optimizer }), ["optim.py:8"]);
  });

  it("reports a located parse error and still the findings of the valid parts", () => {
    const broken = TRAIN_LOOP + "\ndef broken(:\n    pass\n";
    const dir = workspace({ "a.py": broken });
    const [result] = json(synclint(["--format", "json", "a.py"], { cwd: dir }));
    const parse = result.messages.find((m) => m.fatal);
    assert.ok(parse, "a parse error message");
    assert.strictEqual(parse!.line, 10);
    assert.match(parse!.message, /^Parsing error/);
    assert.ok(result.messages.some((m) => m.ruleId === "item-in-hot-path" && m.line === 8));
  });

  it("gives binary, non-UTF-8 and UTF-16 files a one-line reason and goes on", () => {
    const dir = workspace({
      "binary.py": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]),
      "latin.py": Buffer.concat([Buffer.from("x = 1\ny = '"), Buffer.from([0xe9]), Buffer.from("'\n")]),
      "utf16.py": Buffer.from("\ufeffx = 1\n", "utf16le"),
      "good.py": TRAIN_LOOP,
    });
    const run = synclint(["--format", "json", "."], { cwd: dir });
    assert.strictEqual(run.status, 1);
    assert.strictEqual(run.stderr, "");
    const byFile = new Map(json(run).map((r) => [path.basename(r.filePath), r.messages]));
    assert.match(byFile.get("binary.py")![0].message, /binary/);
    assert.match(byFile.get("latin.py")![0].message, /invalid UTF-8 at line 2, column 6/);
    assert.match(byFile.get("utf16.py")![0].message, /UTF-16/);
    assert.strictEqual(byFile.get("good.py")![0].ruleId, "item-in-hot-path");
  });

  it("applies --select, --ignore, --quiet and --max-warnings", () => {
    const dir = workspace({ "a.py": TRAIN_LOOP });
    assert.strictEqual(synclint(["--ignore", "SYN101", "a.py"], { cwd: dir }).status, 0);
    assert.strictEqual(synclint(["--select", "tensor-formatting", "a.py"], { cwd: dir }).status, 0);
    assert.strictEqual(synclint(["--select", "SYN1", "a.py"], { cwd: dir }).status, 1);
    assert.strictEqual(synclint(["--max-warnings", "1", "a.py"], { cwd: dir }).status, 0);
    assert.strictEqual(synclint(["--max-warnings", "0", "a.py"], { cwd: dir }).status, 1);
    const quiet = synclint(["--quiet", "a.py"], { cwd: dir });
    assert.strictEqual(quiet.status, 0);
    assert.doesNotMatch(quiet.stdout, /warning/);
  });

  it("reports cold sites only with --all", () => {
    const cold = "import torch\n\ndef describe(t: torch.Tensor) -> float:\n    return t.item()\n";
    const dir = workspace({ "a.py": cold });
    assert.strictEqual(synclint(["a.py"], { cwd: dir }).status, 0);
    const strict = synclint(["--all", "--format", "json", "a.py"], { cwd: dir });
    assert.strictEqual(json(strict)[0].messages[0].ruleId, "item-in-hot-path");
  });

  it("reports unused suppressions when asked", () => {
    const code = "import torch\n\ndef f(t):\n    return t + 1  # synclint: ignore[item-in-hot-path]\n";
    const dir = workspace({ "a.py": code });
    assert.strictEqual(synclint(["a.py"], { cwd: dir }).status, 0);
    const run = synclint(["--report-unused-suppressions", "--format", "json", "a.py"], { cwd: dir });
    const [message] = json(run)[0].messages;
    assert.strictEqual(message.ruleId, "unused-suppression");
    assert.strictEqual(message.line, 4);
  });

  it("gives the same results with worker threads as in one thread", function () {
    this.timeout(60000);
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`m${String(i).padStart(2, "0")}.py`] = i % 2 ? TRAIN_LOOP : CLEAN;
    const dir = workspace(files);
    const parallel = synclint(["--format", "json", "-j", "2", "."], { cwd: dir });
    const serial = synclint(["--format", "json", "-j", "1", "."], { cwd: dir });
    assert.strictEqual(parallel.stdout, serial.stdout);
    assert.strictEqual(json(parallel).filter((r) => r.messages.length > 0).length, 20);
  });

  it("reuses cached results for unchanged files and re-lints changed ones (--cache)", () => {
    const dir = workspace({ "a.py": TRAIN_LOOP, "b.py": CLEAN });
    const cacheDir = path.join(dir, "cache");
    const first = synclint(["--format", "json", "--cache-location", cacheDir, "a.py", "b.py"], { cwd: dir });
    const cacheFiles = fs.readdirSync(cacheDir, { recursive: true }).map(String);
    assert.ok(cacheFiles.some((name) => name.endsWith("results.json")), cacheFiles.join(", "));
    const second = synclint(["--format", "json", "--cache-location", cacheDir, "a.py", "b.py"], { cwd: dir });
    assert.strictEqual(second.stdout, first.stdout);
    fs.writeFileSync(path.join(dir, "b.py"), TRAIN_LOOP);
    const third = json(synclint(["--format", "json", "--cache-location", cacheDir, "a.py", "b.py"], { cwd: dir }));
    assert.deepStrictEqual(third.map((r) => r.messages.map((m) => m.line)), [[8], [8]]);
    // A different configuration is a different key: ignoring the rule must not serve the cached finding.
    const ignored = json(synclint(["--format", "json", "--cache-location", cacheDir, "--ignore", "item-in-hot-path", "a.py"], { cwd: dir }));
    assert.deepStrictEqual(ignored[0].messages, []);
  });

  it("lints the files it is given as one project: a helper another file calls from its step loop is hot (with --cache and --diff too)", () => {
    const engine = [
      "import torch",
      "from util.misc import all_reduce_mean, sum_losses",
      "",
      "",
      "def train(model, loader, optimizer, device):",
      "    for batch in loader:",
      "        batch = batch.to(device, non_blocking=True)",
      "        loss = model(batch).mean()",
      "        loss.backward()",
      "        optimizer.step()",
      "        all_reduce_mean(loss)",
      "        sum_losses([loss, loss])",
      "",
    ].join("\n");
    const misc = [
      "import torch",
      "",
      "",
      "def all_reduce_mean(x):",
      "    return x.item()",
      "",
      "",
      "def sum_losses(losses):",
      "    total = 0.0",
      "    for loss in losses:",
      "        total += loss.item()",
      "    return total",
      "",
    ].join("\n");
    const fillers = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`other/clean_${i}.py`, CLEAN]));
    const dir = workspace({ "engine.py": engine, "util/__init__.py": "", "util/misc.py": misc, ...fillers });
    const helperFindings = (results: JsonResult[]) => results.find((r) => r.filePath.endsWith(path.join("util", "misc.py")))?.messages ?? [];
    const project = json(synclint(["--format", "json", "-j", "1", "."], { cwd: dir }));
    assert.deepStrictEqual(helperFindings(project).map((m) => [m.ruleId, m.line]), [["item-in-hot-path", 5], ["item-in-hot-path", 11]]);
    assert.match(helperFindings(project)[0].message, /in `all_reduce_mean\(\)`, which `\.\.\/engine\.py` calls at line 11 in the step loop of `train\(\)` \(line 6\)/);
    // The same from worker threads (33 files), which lint the later rounds too.
    assert.deepStrictEqual(json(synclint(["--format", "json", "-j", "2", "."], { cwd: dir })), project);
    // Alone, the helper has no hot path.
    assert.deepStrictEqual(helperFindings(json(synclint(["--format", "json", "util/misc.py"], { cwd: dir }))), []);

    const cacheDir = path.join(dir, "cache");
    const cached = (args: string[] = []) => synclint(["--format", "json", "--cache-location", cacheDir, ...args, "engine.py", "util"], { cwd: dir });
    const cold = cached();
    assert.deepStrictEqual(helperFindings(json(cold)).length, 2);
    assert.strictEqual(cached().stdout, cold.stdout);
    // The caller changes, the helper does not: the helper's findings follow the caller.
    fs.writeFileSync(path.join(dir, "engine.py"), engine.replace("        all_reduce_mean(loss)\n", ""));
    assert.deepStrictEqual(helperFindings(json(cached())).map((m) => m.line), [11]);
    fs.writeFileSync(path.join(dir, "engine.py"), engine);
    assert.strictEqual(cached().stdout, cold.stdout);

    // Fixes are made with what the project says of the helper.
    const diff = synclint(["--diff", "--unsafe-fixes", "."], { cwd: dir });
    assert.strictEqual(diff.status, 1, diff.stderr);
    assert.match(diff.stdout, /\+\+\+ b\/util\/misc\.py[\s\S]*\+        total \+= loss\.detach\(\)\.double\(\)/);
    assert.doesNotMatch(synclint(["--diff", "--unsafe-fixes", "util/misc.py"], { cwd: dir }).stdout, /misc\.py/);
  });

  it("explains a rule from its metadata", () => {
    const run = synclint(["--explain", "SYN105"]);
    assert.strictEqual(run.status, 0);
    assert.match(run.stdout, /^# SYN105 data-dependent-shape/);
    assert.match(run.stdout, /## Why is this bad\?/);
    assert.match(run.stdout, /## Use instead/);
    assert.match(run.stdout, /## Fix safety/);
  });

  it("keeps the README rule table and docs/rules.md generated from the metadata", () => {
    const check = spawnSync(process.execPath, [path.join(ROOT, "scripts", "generate-docs.js"), "--check"], { encoding: "utf8" });
    assert.strictEqual(check.status, 0, check.stderr);
  });
});
