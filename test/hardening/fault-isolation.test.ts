/**
 * Fault isolation (a throwing rule is reported once, by name, and every other rule still reports), configuration
 * errors (file, key and expectation named; CLI exit 2), and no code execution from configuration or linted code.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { pathToFileURL } from "url";
import { initParser, lintSource, rules, resolveConfig } from "synclint-rules";
import type { Rule } from "synclint-rules";
import { HotPaths } from "synclint-rules/out/analysis/hot-paths";
import { enclosingFunctionOf } from "synclint-rules/out/syntax";
import { TestClient } from "../server/lsp-client";

const CLI = path.join(__dirname, "..", "..", "..", "shared-rules", "bin", "synclint.js");
const STACK = /\n\s+at .+:\d+:\d+|internal error/;

const SOURCE = [
  "import torch",
  "",
  "def train(model, loader, optimizer):",
  "    for x, y in loader:",
  "        loss = model(x).mean()",
  "        loss.backward()",
  "        optimizer.step()",
  "        print(loss.item())",
  "        torch.cuda.synchronize()",
  "        n = x.cuda()[y.cuda() > 0]",
  "",
].join("\n");

function rule(name: string, visitor: Record<string, (node: any) => void>, throwInCreate?: unknown): Rule {
  const base = rules[0];
  return {
    ...base,
    meta: { ...base.meta, name, code: `SYN9${name.length}`, hotPathOnly: false },
    create: () => {
      if (throwInCreate !== undefined) throw throwInCreate;
      return visitor as never;
    },
  } as Rule;
}

function cli(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", timeout: 30000 });
  assert.ok(!run.error, String(run.error));
  return run;
}

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-faults-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe("hardening: fault isolation", () => {
  before(async () => {
    await initParser();
  });

  const config = resolveConfig({}, process.cwd());
  const strip = (findings: Array<{ rule: string; start: number; end: number; message: string }>) => findings.map((f) => `${f.rule}@${f.start}-${f.end}:${f.message}`);

  for (const [label, thrown] of [["an Error", new Error("boom on purpose")], ["a string", "plain string thrown"], ["undefined", undefined], ["an object", { weird: true }]] as const) {
    it(`a rule that throws ${label} on some nodes is reported once, by name, and the other rules' findings still arrive`, () => {
      const baseline = lintSource(SOURCE, { config, rules });
      assert.ok(baseline.findings.length >= 3, "the fixture has findings from several rules");
      let calls = 0;
      const bad = rule("exploding-rule", {
        call: () => {
          calls++;
          if (calls >= 2) throw thrown;
        },
        identifier: () => {
          if (calls >= 3) throw thrown;
        },
      });
      const result = lintSource(SOURCE, { config, rules: [bad, ...rules] });
      assert.deepStrictEqual(strip(result.findings), strip(baseline.findings));
      const failures = result.problems.filter((p) => p.kind === "rule-error");
      assert.strictEqual(failures.length, 1, JSON.stringify(result.problems));
      assert.strictEqual(failures[0].rule, "exploding-rule");
      assert.match(failures[0].message, /exploding-rule/);
      assert.ok(!failures[0].message.includes("\n"));
      assert.ok(failures[0].start >= 0 && failures[0].start <= SOURCE.length);
      assert.strictEqual(calls, 2, "a failed rule is not called again");
    });
  }

  it("a rule that throws in create() and one that throws on every node are each reported once", () => {
    const baseline = lintSource(SOURCE, { config, rules });
    const every = rule("every-node-rule", { module: () => undefined, call: () => { throw new RangeError("always"); }, identifier: () => { throw new RangeError("always"); } });
    const creator = rule("create-rule", {}, new TypeError("cannot create"));
    const result = lintSource(SOURCE, { config, rules: [...rules.slice(0, 3), every, creator, ...rules.slice(3)] });
    assert.deepStrictEqual(strip(result.findings), strip(baseline.findings));
    const failures = result.problems.filter((p) => p.kind === "rule-error").map((p) => p.rule).sort();
    assert.deepStrictEqual(failures, ["create-rule", "every-node-rule"]);
  });

  it("when the hot-path analysis fails on a function, the rules that need it are reported by name and the file's other findings still arrive", () => {
    const normal = lintSource(SOURCE, { config, rules });
    const original = HotPaths.prototype.coldThroughout;
    const originalContext = HotPaths.prototype.contextOf;
    HotPaths.prototype.coldThroughout = () => {
      throw new RangeError("Maximum call stack size exceeded");
    };
    try {
      // Not knowing which functions are cold throughout only costs time: every rule is asked, `report` drops the rest.
      const unskipped = lintSource(SOURCE, { config, rules });
      assert.ok(normal.findings.length >= 3, "the fixture has findings from several rules");
      assert.deepStrictEqual(strip(unskipped.findings), strip(normal.findings));
      assert.deepStrictEqual(unskipped.problems, []);
      // Now the analysis also fails wherever a rule asks how often a site runs.
      HotPaths.prototype.contextOf = function (this: HotPaths, site, depth) {
        if (this.functionLabel(enclosingFunctionOf(site)) === "`train()`" && depth === undefined) throw new RangeError("Maximum call stack size exceeded");
        return originalContext.call(this, site, depth);
      };
      const failing = lintSource(SOURCE, { config, rules });
      assert.deepStrictEqual(failing.findings, []);
      assert.ok(failing.problems.length > 0 && failing.problems.every((p) => p.kind === "rule-error" && /Maximum call stack/.test(p.message)), JSON.stringify(failing.problems));
    } finally {
      HotPaths.prototype.coldThroughout = original;
      HotPaths.prototype.contextOf = originalContext;
    }
  });

  it("a rule whose report() is given a bogus node is contained", () => {
    const baseline = lintSource(SOURCE, { config, rules });
    const bogus = rule("bogus-report-rule", { call: () => { throw Object.assign(new Error("x"), { stack: "fake\n    at nowhere (x.js:1:1)" }); } });
    const result = lintSource(SOURCE, { config, rules: [...rules, bogus] });
    assert.deepStrictEqual(strip(result.findings), strip(baseline.findings));
    const failure = result.problems.find((p) => p.kind === "rule-error")!;
    assert.doesNotMatch(failure.message, STACK, "the message carries no stack trace");
  });
});

describe("hardening: configuration errors and no code execution", () => {
  const TRAIN = "import torch\nfor x in loader:\n    loss = model(x)\n    print(loss.item())\n";
  const marker = path.join(os.tmpdir(), `synclint-pwned-${process.pid}`);

  const CASES: Array<{ name: string; file: string; text: string; expect: RegExp[] }> = [
    { name: "TOML syntax error", file: "pyproject.toml", text: "[tool.synclint\nselect = [\n", expect: [/pyproject\.toml/, /invalid TOML at line \d+, column \d+/] },
    { name: "unknown rule name", file: "pyproject.toml", text: '[tool.synclint]\nselect = ["no-such-rule"]\n', expect: [/pyproject\.toml/, /"select"/, /unknown rule "no-such-rule"/, /expected one of item-in-hot-path/] },
    { name: "unknown rule in severity", file: "synclint.toml", text: '[severity]\nno-such-rule = "error"\n', expect: [/synclint\.toml/, /"severity\.no-such-rule"/, /unknown rule/] },
    { name: "wrong type (number for preset)", file: "pyproject.toml", text: "[tool.synclint]\npreset = 3\n", expect: [/pyproject\.toml/, /"preset"/, /expected "recommended" or "strict", got a number \(3\)/] },
    { name: "wrong severity level", file: "pyproject.toml", text: '[tool.synclint.severity]\nitem-in-hot-path = "loud"\n', expect: [/"severity\.item-in-hot-path"/, /expected "error", "warning", "info" or "off"/] },
    { name: "unknown key", file: "pyproject.toml", text: "[tool.synclint]\nselekt = []\n", expect: [/pyproject\.toml/, /"selekt"/, /unknown key; expected one of select, ignore/] },
    { name: "a table where a list is expected", file: "pyproject.toml", text: "[tool.synclint.select]\nx = 1\n", expect: [/"select"/, /expected an array of rule names or codes, got a table/] },
    { name: "per-file-ignores with a string", file: "pyproject.toml", text: '[tool.synclint.per-file-ignores]\n"tests/**" = "SYN101"\n', expect: [/per-file-ignores\."tests\/\*\*"/, /expected/] },
    { name: "code in a string where a list is expected", file: "pyproject.toml", text: `[tool.synclint]\nselect = "__import__('os').system('touch ${marker}')"\n`, expect: [/"select"/, /expected an array of rule names or codes, got a string/] },
    { name: "code as a rule name", file: "pyproject.toml", text: `[tool.synclint]\nignore = ["__import__('os').system('touch ${marker}')"]\n`, expect: [/"ignore"/, /unknown rule "__import__/] },
    { name: "code as a preset", file: "synclint.toml", text: `preset = "eval(open('/etc/passwd').read())"\n`, expect: [/"preset"/, /expected "recommended" or "strict"/] },
  ];

  for (const c of CASES) {
    it(`CLI: ${c.name} → exit 2, one message naming the file, the key and what is expected`, () => {
      const dir = workspace({ [c.file]: c.text, "train.py": TRAIN });
      const run = cli(["train.py"], dir);
      assert.strictEqual(run.status, 2, run.stdout + run.stderr);
      assert.doesNotMatch(run.stderr, STACK);
      assert.match(run.stderr, /^synclint: configuration error: /);
      assert.strictEqual(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.ok(run.stderr.includes(path.join(dir, c.file)), `names the file: ${run.stderr}`);
      for (const pattern of c.expect) assert.match(run.stderr, pattern);
      assert.ok(!fs.existsSync(marker), "nothing was executed");
      // The same file given with --config (two cases suffice: same loader).
      if (c.name === "TOML syntax error" || c.name === "unknown key") {
        const explicit = cli(["--config", c.file, "train.py"], dir);
        assert.strictEqual(explicit.status, 2);
        for (const pattern of c.expect) assert.match(explicit.stderr, pattern);
      }
    });
  }

  it("values that look like code are kept as data where a string is expected, and nothing runs", () => {
    const dir = workspace({
      "pyproject.toml": `[tool.synclint]\nextra-step-functions = ["__import__('os').system('touch ${marker}')", "$(touch ${marker})"]\nexclude = ["\`touch ${marker}\`"]\n`,
      // Linted code is never imported or run either.
      "train.py": `import os\nos.system("touch ${marker}")\n__import__("os").system("touch ${marker}")\n${TRAIN}`,
      "conftest.py": `open("${marker}", "w").write("x")\n`,
    });
    const run = cli(["--format", "json", "."], dir);
    assert.strictEqual(run.status, 1, run.stderr);
    assert.ok(!fs.existsSync(marker), "nothing was executed");
    const results = JSON.parse(run.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
    assert.ok(results.find((r) => r.filePath.endsWith("train.py"))!.messages.some((m) => m.ruleId === "item-in-hot-path"));
  });

  // Issue 7: after a configuration file breaks, the server keeps serving with the last good configuration.
  it("server: keeps the last good configuration when the file breaks", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-lastgood-"));
    const config = path.join(dir, "pyproject.toml");
    fs.writeFileSync(config, '[tool.synclint]\nselect = ["explicit-synchronize"]\n');
    const text = "import torch\nfor x in loader:\n    loss = model(x)\n    print(loss.item())\n    torch.cuda.synchronize()\n";
    const client = new TestClient();
    try {
      await client.initialize({}, pathToFileURL(dir).href);
      const uri = pathToFileURL(path.join(dir, "train.py")).href;
      await client.open(uri, text);
      const good = await client.diagnostics(uri, 1);
      assert.deepStrictEqual(good.diagnostics.map((d) => d.code), ["explicit-synchronize"]);
      fs.writeFileSync(config, "[tool.synclint\nselect = [\n");
      const since = client.published.length;
      await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(config).href, type: 2 }] });
      const after = await client.diagnostics(uri, 1, since);
      assert.deepStrictEqual(after.diagnostics.map((d) => d.code), ["explicit-synchronize"], "still the last good selection");
    } finally {
      client.kill();
    }
  });

  it("server: a broken configuration file is reported once (file, key, expectation) and documents are still linted", async () => {
    const dir = workspace({ "pyproject.toml": "[tool.synclint]\nselekt = []\n" });
    const client = new TestClient();
    const shown: string[] = [];
    client.connection.onNotification("window/showMessage", (params: { message: string }) => shown.push(params.message));
    try {
      await client.initialize({}, pathToFileURL(dir).href);
      for (const name of ["a.py", "b.py"]) {
        const uri = pathToFileURL(path.join(dir, name)).href;
        await client.open(uri, TRAIN);
        const published = await client.diagnostics(uri, 1);
        assert.ok(published.diagnostics.some((d) => d.code === "item-in-hot-path"), "linted with the defaults");
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.strictEqual(shown.length, 1, JSON.stringify(shown));
      assert.match(shown[0], /pyproject\.toml/);
      assert.match(shown[0], /"selekt"/);
      assert.match(shown[0], /unknown key; expected one of/);
      assert.strictEqual(await client.shutdown(), 0);
    } finally {
      client.kill();
    }
  });
});
