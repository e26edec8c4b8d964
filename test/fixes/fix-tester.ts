/**
 * RuleTester-style checks for fixes: each case is linted with only the rule under test selected, its fixes
 * are applied (safe ones, or with `unsafe` suggestions too) and the result must equal `output` exactly,
 * parse without ERROR/MISSING nodes, and stay the same when fixed again. `output: null` asserts that no fix
 * applies. Every output is also compiled with `python3 -m py_compile` once, at the end of the suite.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { applyFixes, initParser, parsesCleanly, resolveConfig } from "synclint-rules";

export interface FixCase {
  name: string;
  code: string;
  /** The fixed source, or null when no fix may apply. */
  output: string | null;
  /** Apply suggestions too (`--unsafe-fixes`). */
  unsafe?: boolean;
  /** With `unsafe`, also check that `--fix` alone (safe only) leaves the code unchanged. */
  suggestionOnly?: boolean;
}

export function fixWithRule(ruleName: string, code: string, unsafe: boolean) {
  const config = resolveConfig({ select: [ruleName] }, process.cwd());
  return applyFixes(code, { config, unsafe, filePath: path.join(os.tmpdir(), "train.py") });
}

export const fixTester = {
  run(ruleName: string, cases: FixCase[]): void {
    describe(`${ruleName} fixes`, () => {
      const outputs: string[] = [];
      before(() => initParser());
      for (const test of cases) {
        it(test.name, () => {
          const result = fixWithRule(ruleName, test.code, !!test.unsafe);
          if (test.output === null) {
            assert.strictEqual(result.text, test.code, "no fix should apply");
            assert.ok(result.findings.length > 0, "a no-fix case must still be reported, or it tests nothing");
            return;
          }
          assert.strictEqual(result.text, test.output);
          assert.ok(parsesCleanly(result.text), "the fixed code must parse without ERROR/MISSING nodes");
          assert.strictEqual(fixWithRule(ruleName, result.text, !!test.unsafe).text, result.text, "fixing again must change nothing");
          if (test.suggestionOnly) assert.strictEqual(fixWithRule(ruleName, test.code, false).text, test.code, "`--fix` must not apply a suggestion");
          outputs.push(result.text);
        });
      }
      after(function () {
        if (outputs.length === 0) return;
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-fix-out-"));
        const files = outputs.map((text, index) => {
          const file = path.join(dir, `out_${index}.py`);
          fs.writeFileSync(file, text);
          return file;
        });
        const python = fs.existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
        const run = spawnSync(python, ["-c", "import py_compile, sys\nfor f in sys.argv[1:]:\n    py_compile.compile(f, cfile=f + 'c', doraise=True)", ...files], { encoding: "utf8" });
        fs.rmSync(dir, { recursive: true, force: true });
        if (run.error && !process.env.CI) return; // no Python here
        assert.strictEqual(run.status, 0, `a fixed output does not compile:\n${run.stderr}`);
      });
    });
  },
};
