/**
 * The plugin as users run it: the real `eslint` CLI and the Node API over Python files, with an
 * `eslint.config.js` that uses `configs.recommended` (or `configs.strict`), checked against synclint's own CLI.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import { ESLint } from "eslint";
import { acceptanceScript, disabledByDirectives, eslintBin, makeWorkspace, projectFiles, removeWorkspace, synclintBin } from "./fixtures.mjs";

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.error) throw result.error;
  return result;
}

/** `{file: ["line:column rule", ...]}` from ESLint-format JSON results, the plugin prefix removed. */
function byFile(results, root) {
  const out = {};
  for (const result of results) {
    const key = path.relative(root, path.resolve(root, result.filePath)).split(path.sep).join("/");
    out[key] = result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId === null ? "(parse)" : m.ruleId.replace(/^synclint\//, "")}`).sort();
  }
  return out;
}

function eslintJson(root, args) {
  const result = run(process.execPath, [eslintBin, "--format", "json", ...args], root);
  assert.ok(result.status === 0 || result.status === 1, `eslint exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

function synclintJson(root, args) {
  const result = run(process.execPath, [synclintBin, "--format", "json", ...args], root);
  assert.ok(result.status === 0 || result.status === 1, `synclint exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

const synclint = createRequire(import.meta.url)("synclint-rules");

/**
 * What `eslint --fix` must write: synclint's safe fixes (the first safe fix of each finding), applied as ESLint
 * applies fixes (sorted by range, a fix touching or overlapping the previous one waits for the next pass, at
 * most 10 passes, re-linting between passes).
 */
async function applySafeFixes(text, filePath, root) {
  await synclint.initParser();
  const config = synclint.resolveConfig({}, root);
  for (let pass = 0; pass < 10; pass++) {
    const { findings } = synclint.lintSource(text, { filePath, config });
    const fixes = findings
      .map((finding) => (finding.fixes ?? []).find((fix) => fix.safe))
      .filter(Boolean)
      .map((fix) => {
        const edits = [...fix.edits].sort((a, b) => a.start - b.start);
        const start = edits[0].start;
        const end = Math.max(...edits.map((edit) => edit.end));
        let replacement = "";
        let at = start;
        for (const edit of edits) {
          replacement += text.slice(at, edit.start) + edit.text;
          at = edit.end;
        }
        return { start, end, text: replacement + text.slice(at, end) };
      })
      .sort((a, b) => a.start - b.start || a.end - b.end);
    if (fixes.length === 0) return text;
    let output = "";
    let last = -Infinity;
    let at = 0;
    for (const fix of fixes) {
      if (last >= fix.start) continue;
      output += text.slice(at, fix.start) + fix.text;
      at = fix.end;
      last = fix.end;
    }
    text = output + text.slice(at);
  }
  return text;
}

const comparable = Object.keys(projectFiles).filter((name) => name !== "directives.py").map((name) => `project/${name}`);

describe("eslint-plugin-synclint: the eslint CLI", function () {
  this.timeout(60000);
  let root;
  before(() => {
    root = makeWorkspace("recommended");
  });
  after(() => removeWorkspace(root));

  it("reports exactly what synclint's CLI reports (line, column, rule)", () => {
    const eslint = byFile(eslintJson(root, comparable), root);
    const synclint = byFile(synclintJson(root, comparable), root);
    assert.deepEqual(eslint, synclint);
    // Not a vacuous comparison: every rule of the catalogue shows up in these files.
    const seen = new Set(Object.values(eslint).flat().map((entry) => entry.split(" ")[1]));
    assert.equal(seen.size, 9, [...seen].join(", "));
  });

  it("uses the plugin's rule ids, ESLint severities and synclint's messages", () => {
    const [result] = eslintJson(root, ["project/compiled.py"]);
    assert.equal(result.messages.length, 1);
    const [message] = result.messages;
    assert.equal(message.ruleId, "synclint/sync-in-compiled-region");
    assert.equal(message.severity, 2);
    assert.equal(result.errorCount, 1);
    assert.match(message.message, /graph break under `torch\.compile`/);
    const [own] = synclintJson(root, ["project/compiled.py"]);
    assert.deepEqual([message.line, message.column, message.endLine, message.endColumn], [own.messages[0].line, own.messages[0].column, own.messages[0].endLine, own.messages[0].endColumn]);
    assert.equal(message.message.replace(/\.$/, ""), own.messages[0].message.replace(/\.$/, ""));
    const [train] = eslintJson(root, ["project/train_loop.py"]);
    assert.ok(train.messages.every((m) => m.severity === 1), "warnings for warning rules");
  });

  it("honours # eslint-disable, # eslint-disable-line and # eslint-disable-next-line in Python comments", () => {
    const eslint = byFile(eslintJson(root, ["project/directives.py"]), root)["project/directives.py"];
    const synclint = byFile(synclintJson(root, ["project/directives.py"]), root)["project/directives.py"];
    const strip = (entries) => entries.map((entry) => `${entry.split(":")[0]} ${entry.split(" ")[1]}`);
    const suppressed = strip(synclint).filter((entry) => !strip(eslint).includes(entry));
    assert.deepEqual(suppressed.sort(), [...disabledByDirectives].sort());
    assert.deepEqual(strip(eslint).sort(), ["13 item-in-hot-path", "15 item-in-hot-path"]);
  });

  it("reports an unused disable directive like ESLint does for JavaScript", () => {
    const file = path.join(root, "project", "unused_directive.py");
    fs.writeFileSync(file, "import torch\n# eslint-disable-next-line synclint/item-in-hot-path\nx = torch.ones(2)\n");
    try {
      const [result] = eslintJson(root, ["--report-unused-disable-directives-severity", "error", "project/unused_directive.py"]);
      assert.equal(result.messages.length, 1);
      assert.equal(result.messages[0].line, 2);
      assert.match(result.messages[0].message, /Unused eslint-disable directive/);
    } finally {
      fs.rmSync(file);
    }
  });

  it("reports a syntax error as a fatal parsing error where synclint reports it", () => {
    const [result] = eslintJson(root, ["bad/broken.py"]);
    assert.equal(result.fatalErrorCount, 1);
    assert.equal(result.messages.length, 1);
    const [message] = result.messages;
    assert.equal(message.ruleId, null);
    assert.equal(message.fatal, true);
    assert.match(message.message, /^Parsing error: invalid syntax near `def train\(model, loader:`$/);
    const [own] = synclintJson(root, ["bad/broken.py"]);
    const parse = own.messages.find((m) => m.fatal);
    assert.deepEqual([message.line, message.column], [parse.line, parse.column]);
  });

  it("eslint --fix applies exactly synclint's safe fixes", async () => {
    const folder = path.join(root, "fixing");
    fs.mkdirSync(folder);
    // directives.py is left out: ESLint does not fix what a disable directive suppresses.
    const files = Object.entries(projectFiles).filter(([name]) => name !== "directives.py");
    for (const [name, text] of files) fs.writeFileSync(path.join(folder, name), text);
    const result = run(process.execPath, [eslintBin, "--fix", "fixing"], root);
    assert.ok(result.status === 0 || result.status === 1, result.stderr);
    for (const [name, text] of files) {
      const expected = await applySafeFixes(text, path.join("fixing", name), root);
      assert.equal(fs.readFileSync(path.join(folder, name), "utf8"), expected, name);
    }
  });

  it("writes --format json that the acceptance checker accepts", () => {
    const results = eslintJson(root, ["project"]);
    const file = path.join(root, "eslint-results.json");
    fs.writeFileSync(file, JSON.stringify(results));
    const check = run(process.execPath, [acceptanceScript, path.join(root, "project"), "--results", file], root);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /5 passed, 0 failed/);
  });

  it("configs.strict reports every site, as synclint --all does", () => {
    fs.writeFileSync(path.join(root, "eslint.strict.config.js"), fs.readFileSync(path.join(root, "eslint.config.js"), "utf8").replace("configs.recommended", "configs.strict"));
    const strict = byFile(eslintJson(root, ["--config", "eslint.strict.config.js", ...comparable]), root);
    const all = byFile(synclintJson(root, ["--all", ...comparable]), root);
    assert.deepEqual(strict, all);
    assert.ok(strict["project/once.py"].length > 0, "strict reports the run-once file");
    const recommended = byFile(eslintJson(root, ["project/once.py"]), root);
    assert.deepEqual(recommended["project/once.py"], []);
  });
});

describe("eslint-plugin-synclint: the Node API", function () {
  this.timeout(60000);
  let root;
  before(() => {
    root = makeWorkspace("recommended");
  });
  after(() => removeWorkspace(root));

  it("new ESLint({cwd, overrideConfigFile}).lintFiles matches synclint's CLI", async () => {
    const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });
    const results = await eslint.lintFiles(comparable);
    assert.deepEqual(byFile(results, root), byFile(synclintJson(root, comparable), root));
    const formatter = await eslint.loadFormatter("stylish");
    assert.match(await formatter.format(results), /synclint\/item-in-hot-path/);
  });

  it("lintText with a filePath lints unsaved Python text", async () => {
    const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });
    const [result] = await eslint.lintText(projectFiles["train_loop.py"], { filePath: path.join(root, "project", "unsaved.py") });
    const expected = byFile(synclintJson(root, ["project/train_loop.py"]), root)["project/train_loop.py"];
    assert.deepEqual(byFile([result], root)["project/unsaved.py"], expected);
  });

  it("applies [tool.synclint] from pyproject.toml unless languageOptions.useConfigFile is false", async () => {
    const folder = path.join(root, "configured");
    fs.mkdirSync(path.join(folder, "vendor"), { recursive: true });
    fs.writeFileSync(path.join(folder, "pyproject.toml"), '[tool.synclint]\nignore = ["tensor-formatting"]\nexclude = ["vendor"]\n');
    fs.writeFileSync(path.join(folder, "train_loop.py"), projectFiles["train_loop.py"]);
    fs.writeFileSync(path.join(folder, "vendor", "train_loop.py"), projectFiles["train_loop.py"]);
    const rulesOf = (result) => result.messages.map((m) => m.ruleId.replace("synclint/", "")).sort();
    const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });
    const [configured, vendored] = await eslint.lintFiles(["configured/train_loop.py", "configured/vendor/train_loop.py"]);
    const own = synclintJson(root, ["configured/train_loop.py"])[0].messages.map((m) => m.ruleId).sort();
    assert.deepEqual(rulesOf(configured), own);
    assert.ok(!own.includes("tensor-formatting") && own.length > 0);
    assert.deepEqual(rulesOf(vendored), []);
    const noConfig = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [(await import("../index.js")).default.configs.recommended, { files: ["**/*.py"], languageOptions: { useConfigFile: false } }] });
    const [plain] = await noConfig.lintFiles(["configured/train_loop.py"]);
    assert.ok(rulesOf(plain).includes("tensor-formatting"));
  });

  it("does not lint files outside **/*.py", async () => {
    fs.writeFileSync(path.join(root, "notes.txt"), "loss.item()\n");
    const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js"), errorOnUnmatchedPattern: false });
    const config = await eslint.calculateConfigForFile("project/train_loop.py");
    assert.ok(config.language, "a .py file gets the python language");
    assert.equal(await eslint.calculateConfigForFile("notes.txt"), undefined);
  });
});
