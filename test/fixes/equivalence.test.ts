/**
 * Semantic equivalence, executed: every program under equivalence/programs runs with CPU PyTorch before and
 * after `synclint --unsafe-fixes` (the engine's `applyFixes`, safe fixes and suggestions), in one Python
 * process, and both versions must compile and compute the same thing (printed text, and the tensors,
 * parameters and numbers each program leaves in `RESULT`, compared exactly, types included). A program whose
 * logging is batched on purpose declares `EQUIVALENCE = "batched-logging"`: what it logs is then compared as
 * sums over the same steps (run_pairs.py `compare_batched_log`, checked by its `--self-test`).
 *
 * Needs /usr/bin/python3 with torch (Debian: `apt-get install -y python3-torch`). Without it the suite is
 * skipped locally and fails under CI (CI set).
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { applyFixes, initParser, parsesCleanly, resolveConfig } from "synclint-rules";
import { PYTHON, torchAvailable } from "../helpers";

const ROOT = path.join(__dirname, "..", "..", "..");
const HERE = path.join(ROOT, "test", "fixes", "equivalence");
const PROGRAMS = path.join(HERE, "programs");

/** What each shipped fix's title starts with: every one must be exercised by some program. */
const FIX_KINDS = [
  "Add `pin_memory=True`",
  "Add `non_blocking=True`",
  "Create `",
  "Accumulate `",
  "Log the tensor",
  "Sum with `torch.where",
  "Collect on the device",
  "Pass `num_classes=",
  "Average with `torch.where",
  "Assign through `torch.where",
  "Pass `output_size=",
  "Use the Python number",
  "Log the sum of `",
  "Select with `torch.where`",
  "Clamp on the device",
  "Check every `",
  "Make the tensor on the device",
];

describe("fixes: semantic equivalence (programs run before and after --unsafe-fixes)", function () {
  this.timeout(180000);
  const names = fs.readdirSync(PROGRAMS).filter((n) => n.endsWith(".py")).sort();
  const fixed = new Map<string, { before: string; after: string; titles: string[] }>();
  let reports = new Map<string, { ok?: boolean; problems?: string[]; error?: string }>();

  before(async function () {
    if (!torchAvailable()) {
      if (process.env.CI) throw new Error(`${PYTHON} cannot import torch: install it (apt-get install -y python3-torch); CI must run this suite`);
      this.skip();
    }
    await initParser();
    const config = resolveConfig({}, ROOT);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-equivalence-"));
    for (const name of names) {
      const before = fs.readFileSync(path.join(PROGRAMS, name), "utf8");
      // Linted under a plain name: files under test/ count as tests, which have no hot paths.
      const result = applyFixes(before, { unsafe: true, config, filePath: path.join(dir, name) });
      const stem = name.slice(0, -3);
      fs.writeFileSync(path.join(dir, `${stem}.before.py`), before);
      fs.writeFileSync(path.join(dir, `${stem}.after.py`), result.text);
      fixed.set(name, { before, after: result.text, titles: result.applied.map((a) => a.title) });
    }
    const run = spawnSync(PYTHON, [path.join(HERE, "run_pairs.py"), dir], { encoding: "utf8", timeout: 170000, maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`run_pairs.py failed (${run.status}):\n${run.stderr}`);
    reports = new Map(run.stdout.trim().split("\n").filter(Boolean).map((line) => {
      const report = JSON.parse(line);
      return [`${report.name}.py`, report];
    }));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`has at least 30 programs (${names.length})`, () => assert.ok(names.length >= 30));

  it("run_pairs.py compares batched logs as sums over the same steps, and nothing else (--self-test)", () => {
    const run = spawnSync(PYTHON, [path.join(HERE, "run_pairs.py"), "--self-test"], { encoding: "utf8", timeout: 60000 });
    assert.strictEqual(run.status, 0, `${run.stdout}${run.stderr}`);
  });

  for (const name of names) {
    it(`${name}: fixed, parses, idempotent, computes the same`, () => {
      const entry = fixed.get(name)!;
      assert.ok(entry.titles.length > 0, `no fix was applied to ${name}`);
      assert.notStrictEqual(entry.after, entry.before);
      assert.ok(parsesCleanly(entry.after), "the fixed program must parse without ERROR/MISSING nodes");
      const again = applyFixes(entry.after, { unsafe: true, config: resolveConfig({}, ROOT), filePath: path.join(os.tmpdir(), name) });
      assert.strictEqual(again.text, entry.after, "applying the fixes again must change nothing");
      const report = reports.get(name);
      assert.ok(report, `no report for ${name}`);
      assert.strictEqual(report!.error, undefined, report!.error);
      assert.ok(report!.ok, `${name} computes something else after the fix:\n${(report!.problems ?? []).join("\n")}\n--- fixed program ---\n${entry.after}`);
    });
  }

  it("exercises every kind of fix that synclint ships", () => {
    const titles = [...fixed.values()].flatMap((entry) => entry.titles);
    for (const kind of FIX_KINDS) assert.ok(titles.some((title) => title.startsWith(kind)), `no program exercises "${kind}…"`);
  });
});
