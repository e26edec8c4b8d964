import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigError, ConfigResolver, initParser, lintSource, readConfigFile, resolveConfig, rules, validateConfig } from "synclint-rules";
import { ignoredRulesFor, isExcluded, resolveSelector } from "synclint-rules/out/config";
import { py } from "./helpers";

/** Asserts that `fn` throws a ConfigError whose message names the file and (when given) the key. */
function assertConfigError(fn: () => unknown, file: string, key: string | undefined, detail: RegExp): ConfigError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  const error = caught as ConfigError;
  assert.strictEqual(error.name, "ConfigError");
  assert.strictEqual(error.file, file);
  assert.strictEqual(error.key, key);
  assert.ok(error.message.startsWith(`${file}: `), error.message);
  if (key) assert.ok(error.message.includes(`"${key}"`), error.message);
  assert.match(error.message, detail);
  return error;
}

const LOOP_WITH_ITEM = py`
  import torch
  def train(loader, model):
      for x, y in loader:
          loss = model(x).mean()
          v = loss.item()
  def summarize(model, x):
      return model(x).sum().item()
`;

describe("configuration", () => {
  let root: string;
  before(async () => {
    await initParser();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-config-"));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  let counter = 0;
  /** A fresh folder with the given files (paths relative to it). */
  function project(files: Record<string, string>): string {
    const dir = path.join(root, `p${counter++}`);
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  describe("validateConfig", () => {
    it("accepts every documented key and resolves codes and prefixes to names", () => {
      const config = validateConfig(
        {
          select: ["SYN1", "blocking-host-to-device"],
          ignore: ["syn104"],
          severity: { "item-in-hot-path": "error", SYN2: "info", "data-dependent-shape": "off" },
          "per-file-ignores": { "tests/**": ["SYN101"] },
          exclude: ["build"],
          preset: "strict",
          "extra-step-functions": ["run_batch"],
        },
        "pyproject.toml",
      );
      assert.deepStrictEqual(config.select, ["item-in-hot-path", "host-transfer-in-hot-path", "implicit-host-read", "tensor-formatting", "data-dependent-shape", "explicit-synchronize", "blocking-host-to-device"]);
      assert.deepStrictEqual(config.ignore, ["tensor-formatting"]);
      assert.deepStrictEqual(config.severity, { "item-in-hot-path": "error", "blocking-host-to-device": "info", "dataloader-pin-memory": "info", "host-index": "info", "data-dependent-shape": "off" });
      assert.deepStrictEqual(config["per-file-ignores"], { "tests/**": ["item-in-hot-path"] });
      assert.strictEqual(config.preset, "strict");
    });

    it("rejects an unknown key, naming the file and the key", () => {
      const error = assertConfigError(() => validateConfig({ selekt: ["SYN101"] }, "/p/pyproject.toml"), "/p/pyproject.toml", "selekt", /unknown key; expected one of select, ignore/);
      assert.ok(error.message.includes("[tool.synclint]"));
    });

    it("rejects wrong types", () => {
      assertConfigError(() => validateConfig({ select: "item-in-hot-path" }, "f.toml"), "f.toml", "select", /expected an array of rule names or codes, got a string \("item-in-hot-path"\)/);
      assertConfigError(() => validateConfig({ exclude: [1, 2] }, "f.toml"), "f.toml", "exclude", /expected an array of glob strings, got an array/);
      assertConfigError(() => validateConfig({ preset: "fast" }, "f.toml"), "f.toml", "preset", /expected "recommended" or "strict", got a string \("fast"\)/);
      assertConfigError(() => validateConfig({ severity: ["error"] }, "f.toml"), "f.toml", "severity", /got an array/);
      assertConfigError(() => validateConfig({ "per-file-ignores": "tests" }, "f.toml"), "f.toml", "per-file-ignores", /got a string/);
      assertConfigError(() => validateConfig({ preset: new Date(0) }, "f.toml"), "f.toml", "preset", /got a date/);
      assertConfigError(() => validateConfig(["select"], "f.toml"), "f.toml", undefined, /must be a table, got an array/);
    });

    it("rejects unknown rules in select, ignore, severity and per-file-ignores", () => {
      assertConfigError(() => validateConfig({ select: ["item-in-hot-path", "no-such-rule"] }, "f.toml"), "f.toml", "select", /unknown rule "no-such-rule"; expected one of item-in-hot-path/);
      assertConfigError(() => validateConfig({ ignore: ["SYN999"] }, "f.toml"), "f.toml", "ignore", /unknown rule "SYN999"/);
      assertConfigError(() => validateConfig({ severity: { bogus: "error" } }, "f.toml"), "f.toml", "severity.bogus", /unknown rule "bogus"/);
      assertConfigError(() => validateConfig({ severity: { SYN101: "fatal" } }, "f.toml"), "f.toml", "severity.SYN101", /expected "error", "warning", "info" or "off", got a string \("fatal"\)/);
      assertConfigError(() => validateConfig({ "per-file-ignores": { "tests/*": ["nope"] } }, "f.toml"), "f.toml", 'per-file-ignores."tests/*"', /unknown rule "nope"/);
    });

    it("resolveSelector understands names, codes and code prefixes", () => {
      assert.deepStrictEqual(resolveSelector("item-in-hot-path"), ["item-in-hot-path"]);
      assert.deepStrictEqual(resolveSelector("syn201"), ["blocking-host-to-device"]);
      assert.deepStrictEqual(resolveSelector("SYN3"), ["sync-in-compiled-region"]);
      assert.strictEqual(resolveSelector("SYN").length, rules.length);
      assert.deepStrictEqual(resolveSelector("nothing"), []);
    });
  });

  describe("readConfigFile", () => {
    it("reads [tool.synclint] from pyproject.toml", () => {
      const dir = project({ "pyproject.toml": '[project]\nname = "demo"\n\n[tool.synclint]\nselect = ["SYN101"]\npreset = "strict"\n' });
      assert.deepStrictEqual(readConfigFile(path.join(dir, "pyproject.toml")), { select: ["item-in-hot-path"], preset: "strict" });
    });

    it("returns undefined for a pyproject.toml without [tool.synclint]", () => {
      const dir = project({ "pyproject.toml": '[project]\nname = "demo"\n\n[tool.ruff]\nline-length = 100\n' });
      assert.strictEqual(readConfigFile(path.join(dir, "pyproject.toml")), undefined);
    });

    it("reads synclint.toml at its top level", () => {
      const dir = project({ "synclint.toml": 'ignore = ["tensor-formatting"]\n[severity]\nitem-in-hot-path = "error"\n' });
      assert.deepStrictEqual(readConfigFile(path.join(dir, "synclint.toml")), { ignore: ["tensor-formatting"], severity: { "item-in-hot-path": "error" } });
    });

    it("invalid TOML is a ConfigError naming the file and the position", () => {
      const dir = project({ "synclint.toml": 'select = ["SYN101"\npreset = "strict"\n' });
      const file = path.join(dir, "synclint.toml");
      assertConfigError(() => readConfigFile(file), file, undefined, /invalid TOML at line \d+, column \d+/);
    });

    it("errors inside [tool.synclint] name the pyproject file and the key", () => {
      const dir = project({ "pyproject.toml": '[tool.synclint]\nselect = ["SYN101"]\nseverity = { item-in-hot-path = "loud" }\n' });
      const file = path.join(dir, "pyproject.toml");
      assertConfigError(() => readConfigFile(file), file, "severity.item-in-hot-path", /got a string \("loud"\)/);
    });

    it("an unreadable file is a ConfigError", () => {
      const file = path.join(root, "missing", "synclint.toml");
      assertConfigError(() => readConfigFile(file), file, undefined, /cannot read/);
    });
  });

  describe("resolveConfig", () => {
    it("defaults: every rule at its default severity, recommended preset", () => {
      const config = resolveConfig({}, "/r");
      assert.deepStrictEqual([...config.severities.keys()], rules.map((r) => r.meta.name));
      for (const rule of rules) assert.strictEqual(config.severities.get(rule.meta.name), rule.meta.defaultSeverity);
      assert.strictEqual(config.preset, "recommended");
      assert.strictEqual(config.root, "/r");
    });

    it("select, ignore, severity overrides and command-line overrides", () => {
      const config = resolveConfig(
        { select: ["item-in-hot-path", "tensor-formatting", "explicit-synchronize"], ignore: ["tensor-formatting"], severity: { "item-in-hot-path": "error", "explicit-synchronize": "off" } },
        "/r",
      );
      assert.deepStrictEqual([...config.severities.entries()], [["item-in-hot-path", "error"]]);
      const overridden = resolveConfig({ select: ["item-in-hot-path"], preset: "strict" }, "/r", { select: ["tensor-formatting", "implicit-host-read"], ignore: ["implicit-host-read"], preset: "recommended" });
      assert.deepStrictEqual([...overridden.severities.keys()], ["tensor-formatting"]);
      assert.strictEqual(overridden.preset, "recommended");
    });

    it("severity overrides show in findings; `off` silences a rule", () => {
      const errors = lintSource(LOOP_WITH_ITEM, { config: resolveConfig({ severity: { "item-in-hot-path": "error" } }, "/r") });
      assert.deepStrictEqual(errors.findings.map((f) => [f.rule, f.severity]), [["item-in-hot-path", "error"]]);
      const off = lintSource(LOOP_WITH_ITEM, { config: resolveConfig({ severity: { "item-in-hot-path": "off" } }, "/r") });
      assert.deepStrictEqual(off.findings, []);
    });

    it("preset strict reports the cold site too", () => {
      const recommended = lintSource(LOOP_WITH_ITEM, { config: resolveConfig({}, "/r") });
      assert.deepStrictEqual(recommended.findings.map((f) => [f.line, f.hot]), [[5, true]]);
      const strict = lintSource(LOOP_WITH_ITEM, { config: resolveConfig({ preset: "strict" }, "/r") });
      assert.deepStrictEqual(strict.findings.map((f) => [f.line, f.hot]), [[5, true], [7, false]]);
    });

    it("extra-step-functions make a named function hot", () => {
      const config = resolveConfig({ "extra-step-functions": ["summarize"] }, "/r");
      assert.deepStrictEqual(lintSource(LOOP_WITH_ITEM, { config }).findings.map((f) => f.line), [5, 7]);
    });
  });

  describe("per-file-ignores and exclude", () => {
    it("per-file-ignores match paths relative to the config root, and basenames", () => {
      const config = resolveConfig({ "per-file-ignores": { "tests/**": ["item-in-hot-path"], "conftest.py": ["tensor-formatting"] } }, "/repo");
      assert.deepStrictEqual([...ignoredRulesFor("/repo/tests/unit/test_train.py", config)], ["item-in-hot-path"]);
      assert.deepStrictEqual([...ignoredRulesFor("/repo/src/train.py", config)], []);
      assert.deepStrictEqual([...ignoredRulesFor("/elsewhere/tests/unit/test_train.py", config)], [], "outside the root");
      assert.deepStrictEqual([...ignoredRulesFor("/repo/src/conftest.py", config)], ["tensor-formatting"]);
    });

    it("per-file-ignores apply in lintSource through filePath", () => {
      const config = resolveConfig({ "per-file-ignores": { "scripts/*.py": ["item-in-hot-path"] } }, "/repo");
      assert.strictEqual(lintSource(LOOP_WITH_ITEM, { config, filePath: "/repo/scripts/train.py" }).findings.length, 0);
      assert.strictEqual(lintSource(LOOP_WITH_ITEM, { config, filePath: "/repo/src/train.py" }).findings.length, 1);
      assert.strictEqual(lintSource(LOOP_WITH_ITEM, { config }).findings.length, 1, "no filePath: nothing to match");
    });

    it("ignoring the detecting rule per file also drops its compiled-region form", () => {
      const code = py`
        import torch
        @torch.compile
        def f(x: torch.Tensor):
            return x.sum().item()
      `;
      const config = resolveConfig({ "per-file-ignores": { "*.py": ["item-in-hot-path"] } }, "/repo");
      assert.strictEqual(lintSource(code, { config }).findings.length, 1);
      assert.strictEqual(lintSource(code, { config, filePath: "/repo/model.py" }).findings.length, 0);
    });

    it("exclude matches files and whole folders", () => {
      const config = resolveConfig({ exclude: ["build", "legacy/*.py"] }, "/repo");
      assert.strictEqual(isExcluded("/repo/build/gen.py", config), true);
      assert.strictEqual(isExcluded("/repo/legacy/old.py", config), true);
      assert.strictEqual(isExcluded("/repo/src/model.py", config), false);
      assert.strictEqual(isExcluded("/repo/src/model.py", resolveConfig({}, "/repo")), false);
    });
  });

  describe("ConfigResolver", () => {
    it("finds [tool.synclint] in pyproject.toml walking up from the file", () => {
      const dir = project({ "pyproject.toml": '[tool.synclint]\nselect = ["SYN101"]\n', "src/pkg/train.py": "" });
      const config = new ConfigResolver().forFile(path.join(dir, "src", "pkg", "train.py"));
      assert.deepStrictEqual([...config.severities.keys()], ["item-in-hot-path"]);
      assert.strictEqual(config.root, dir);
      assert.strictEqual(config.file, path.join(dir, "pyproject.toml"));
    });

    it("skips a pyproject.toml without [tool.synclint] and keeps walking up", () => {
      const dir = project({ "synclint.toml": 'preset = "strict"\n', "sub/pyproject.toml": '[project]\nname = "sub"\n', "sub/train.py": "" });
      const config = new ConfigResolver().forFile(path.join(dir, "sub", "train.py"));
      assert.strictEqual(config.preset, "strict");
      assert.strictEqual(config.root, dir);
    });

    it("prefers synclint.toml over pyproject.toml in the same folder", () => {
      const dir = project({ "synclint.toml": 'select = ["SYN102"]\n', "pyproject.toml": '[tool.synclint]\nselect = ["SYN101"]\n', "a.py": "" });
      const config = new ConfigResolver().forFile(path.join(dir, "a.py"));
      assert.deepStrictEqual([...config.severities.keys()], ["host-transfer-in-hot-path"]);
      assert.strictEqual(config.file, path.join(dir, "synclint.toml"));
    });

    it("the nearest configuration wins", () => {
      const dir = project({ "synclint.toml": 'select = ["SYN101"]\n', "inner/synclint.toml": 'select = ["SYN104"]\n', "inner/a.py": "", "b.py": "" });
      const resolver = new ConfigResolver();
      assert.deepStrictEqual([...resolver.forFile(path.join(dir, "inner", "a.py")).severities.keys()], ["tensor-formatting"]);
      assert.deepStrictEqual([...resolver.forFile(path.join(dir, "b.py")).severities.keys()], ["item-in-hot-path"]);
    });

    it("without any configuration: defaults rooted at the fallback folder", () => {
      const dir = project({ "a.py": "" });
      const config = new ConfigResolver({}, undefined, "/fallback").forFile(path.join(dir, "a.py"));
      // A configuration above the temp folder would change this; temp folders normally have none.
      assert.strictEqual(config.severities.size, rules.length);
      assert.strictEqual(config.file, undefined);
      assert.strictEqual(config.root, "/fallback");
    });

    it("an explicit configuration file applies to every file", () => {
      const dir = project({ "configs/ci.toml": 'select = ["SYN106"]\n', "synclint.toml": 'select = ["SYN101"]\n', "a.py": "" });
      const config = new ConfigResolver({}, path.join(dir, "configs", "ci.toml")).forFile(path.join(dir, "a.py"));
      assert.deepStrictEqual([...config.severities.keys()], ["explicit-synchronize"]);
      assert.strictEqual(config.root, path.join(dir, "configs"));
    });

    it("command-line overrides win over the file", () => {
      const dir = project({ "synclint.toml": 'select = ["SYN101"]\npreset = "recommended"\n', "a.py": "" });
      const config = new ConfigResolver({ select: ["explicit-synchronize"], preset: "strict" }).forFile(path.join(dir, "a.py"));
      assert.deepStrictEqual([...config.severities.keys()], ["explicit-synchronize"]);
      assert.strictEqual(config.preset, "strict");
    });

    it("an invalid configuration surfaces as a ConfigError naming the file and key", () => {
      const dir = project({ "pyproject.toml": '[tool.synclint]\nunknown-option = true\n', "a.py": "" });
      const file = path.join(dir, "pyproject.toml");
      assertConfigError(() => new ConfigResolver().forFile(path.join(dir, "a.py")), file, "unknown-option", /unknown key/);
    });

    it("per-file-ignores globs are relative to the folder of the configuration", () => {
      const dir = project({ "synclint.toml": '[per-file-ignores]\n"experiments/**" = ["SYN101"]\n', "experiments/sweep/loop.py": "", "src/loop.py": "" });
      const resolver = new ConfigResolver();
      const testFile = path.join(dir, "experiments", "sweep", "loop.py");
      const srcFile = path.join(dir, "src", "loop.py");
      assert.strictEqual(lintSource(LOOP_WITH_ITEM, { config: resolver.forFile(testFile), filePath: testFile }).findings.length, 0);
      assert.strictEqual(lintSource(LOOP_WITH_ITEM, { config: resolver.forFile(srcFile), filePath: srcFile }).findings.length, 1);
    });
  });
});
