/**
 * Short seeded property runs (the long runs are `npm run fuzz`). Fix properties are in fix-properties.test.ts.
 */
import * as assert from "assert";
import { initParser, lintSource, resolveConfig, rules } from "synclint-rules";
import type { Finding, Rule, SyntaxNode } from "synclint-rules";
import { fileSpecArbitrary, renderFile } from "../analysis/training-files";
import { anyTextArbitrary, checkEngineOn, checkIncrementalParse, checkTreeWalk, checkServerDocument, editArbitrary, fc, programArbitrary } from "./properties";

const SEED = 20261129;
const RUNS = 150;
const params = (numRuns = RUNS) => ({ seed: SEED, numRuns, endOnFailure: true });

describe("hardening: properties (seeded)", function () {
  this.timeout(60000);
  before(async () => {
    await initParser();
  });

  it("the grammar produces programs with findings, parse errors, CRLF, tabs and astral characters (not vacuous)", () => {
    const samples = fc.sample(programArbitrary, { seed: SEED, numRuns: 300 });
    const results = samples.map((text) => lintSource(text, {}));
    assert.ok(results.filter((r) => r.findings.length > 0).length > 20, "some programs have findings");
    assert.ok(results.filter((r) => r.problems.some((p) => p.kind === "parse-error")).length > 5, "some programs do not parse");
    assert.ok(samples.some((t) => t.includes("\r\n")) && samples.some((t) => /\r(?!\n)/.test(t)) && samples.some((t) => t.includes("\t")));
    assert.ok(samples.some((t) => /[\uD800-\uDBFF]/.test(t)), "astral characters");
    assert.ok(samples.some((t) => t.includes("@torch.compile")));
  });

  it("(a) grammar programs: lintSource never throws, ranges lie inside the document, output is deterministic", () => {
    fc.assert(fc.property(programArbitrary, (text) => checkEngineOn(text)), params());
  });

  it("(b) arbitrary strings (Unicode, lone surrogates, decoded random bytes): lintSource never throws", () => {
    fc.assert(fc.property(anyTextArbitrary, (text) => checkEngineOn(text)), params(200));
  });

  it("(a, b) the syntax copy's walk in the runtime's memory visits what web-tree-sitter's TreeCursor visits, on programs and arbitrary strings", () => {
    fc.assert(fc.property(fc.oneof(programArbitrary, anyTextArbitrary), (text) => void checkTreeWalk(text)), params(300));
  });

  it("(c) in process: the spliced syntax tree (spliceSyntaxTree, what OpenDocument does on each keystroke) equals a fresh parse whenever it has no syntax errors", () => {
    fc.assert(fc.property(programArbitrary, fc.array(editArbitrary, { minLength: 1, maxLength: 12 }), (text, edits) => checkIncrementalParse(text, edits)), params(100));
  });

  for (const encoding of ["utf-16", "utf-8", "utf-32"] as const) {
    it(`(c) the server's OpenDocument (${encoding}): text, incremental tree and lint equal a fresh parse and lint`, () => {
      fc.assert(fc.property(programArbitrary, fc.array(editArbitrary, { minLength: 1, maxLength: 12 }), (text, edits) => checkServerDocument(text, edits, encoding)), params(60));
    });
  }
});

describe("hardening: the walk skips only what the hot-path policy would drop", function () {
  this.timeout(60000);
  before(async () => {
    await initParser();
  });

  // A hot-path rule that reports every call and subscript as a GPU value: under `recommended`, what it reports
  // must be exactly the strict preset's sites that are hot, although the engine no longer asks hot-path rules
  // about functions that never run hot (`HotPaths.coldThroughout`) or about test files.
  const everySite: Rule = {
    meta: { ...rules[0].meta, name: "every-site", code: "SYN998", hotPathOnly: true, fixable: false, hasSuggestions: false },
    create: (context) => {
      const report = (node: SyntaxNode) => context.report({ node, messageId: "item", evidence: { kind: "gpu", reason: "a probe" } });
      return { call: report, subscript: report };
    },
  };
  const RECOMMENDED = resolveConfig({}, process.cwd());
  const STRICT = resolveConfig({ preset: "strict" }, process.cwd());
  const sites = (findings: readonly Finding[]) => findings.map((f) => `${f.start}-${f.end}`).sort();

  function checkHotSites(text: string): void {
    const recommended = lintSource(text, { rules: [everySite], config: RECOMMENDED, filePath: "/project/train.py" });
    const strict = lintSource(text, { rules: [everySite], config: STRICT, filePath: "/project/train.py" });
    assert.deepStrictEqual(sites(recommended.findings), sites(strict.findings.filter((f) => f.hot)), text);
    assert.deepStrictEqual(lintSource(text, { rules: [everySite], config: RECOMMENDED, filePath: "/project/tests/test_train.py" }).findings, []);
  }

  it("on grammar programs", () => {
    fc.assert(fc.property(programArbitrary, (text) => checkHotSites(text)), params());
  });

  it("on generated training files (helpers called from step loops, periodic guards, nested functions)", () => {
    const samples = fc.sample(fileSpecArbitrary, { seed: SEED, numRuns: 150 }).map(renderFile);
    let hot = 0;
    for (const text of samples) {
      checkHotSites(text);
      hot += lintSource(text, { rules: [everySite], config: RECOMMENDED, filePath: "/project/train.py" }).findings.length;
    }
    assert.ok(hot > 100, `the probe reports hot sites (${hot})`);
  });
});
