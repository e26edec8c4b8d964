/**
 * A small ESLint-RuleTester-like helper for synclint rules.
 *
 *   ruleTester.run("item-in-hot-path", {
 *     valid: [py`...`, { code: py`...`, options: { preset: "strict" } }],
 *     invalid: [{ code: py`...`, errors: [{ line: 5, column: 18, messageIncludes: "step loop of `train()`" }] }],
 *   });
 *
 * Each case is linted with only the rule under test selected (plus `options.alsoSelect`). A valid case must
 * produce no finding; an invalid case must produce exactly the listed findings, in source order. Every case
 * must also parse cleanly and lint without a rule error, so a typo in a snippet cannot pass silently.
 */
import * as assert from "assert";
import { findRule, initParser, lintSource, resolveConfig } from "synclint-rules";
import type { Finding, LintResult, Severity, UserConfig } from "synclint-rules";

export interface CaseOptions {
  preset?: "recommended" | "strict";
  /** Rules selected besides the rule under test (e.g. `sync-in-compiled-region` with the rule it relabels). */
  alsoSelect?: string[];
  severity?: UserConfig["severity"];
  extraStepFunctions?: string[];
  filePath?: string;
}

export interface ValidCase {
  code: string;
  name?: string;
  options?: CaseOptions;
  preset?: "recommended" | "strict";
}

export interface ExpectedError {
  line: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  /** Substrings the message must contain. */
  messageIncludes?: string | string[];
  /** Substrings the message must not contain. */
  messageExcludes?: string | string[];
  /** The reported rule; defaults to the rule under test. */
  rule?: string;
  /** For `sync-in-compiled-region`: the rule that detected the hazard. */
  detectedBy?: string;
  hot?: boolean;
  severity?: Severity;
}

export interface InvalidCase {
  code: string;
  name?: string;
  errors: ExpectedError[];
  preset?: "recommended" | "strict";
  options?: CaseOptions;
}

export interface RuleTests {
  valid: Array<string | ValidCase>;
  invalid: InvalidCase[];
}

/** Lints `code` with `ruleName` (and `options.alsoSelect`) selected. */
export function lintWithRule(ruleName: string, code: string, options: CaseOptions = {}): LintResult {
  const config = resolveConfig(
    {
      select: [ruleName, ...(options.alsoSelect ?? [])],
      preset: options.preset,
      severity: options.severity,
      "extra-step-functions": options.extraStepFunctions,
    },
    process.cwd(),
  );
  return lintSource(code, { config, filePath: options.filePath });
}

function describeFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return "  (none)";
  return findings
    .map((f) => `  ${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.rule}${f.detectedBy ? ` (via ${f.detectedBy})` : ""} hot=${f.hot}: ${f.message}`)
    .join("\n");
}

function title(code: string, name?: string): string {
  if (name) return name;
  const lines = code.split("\n").map((line) => line.trim()).filter((line) => line && !/^(import|from) /.test(line));
  const text = lines.slice(-2).join(" ⏎ ");
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function assertClean(result: LintResult, code: string): void {
  assert.deepStrictEqual(
    result.problems.map((p) => `${p.kind} ${p.line}:${p.column} ${p.message}`),
    [],
    `the snippet must parse and lint without problems:\n${code}`,
  );
}

export const ruleTester = {
  run(ruleName: string, tests: RuleTests): void {
    if (!findRule(ruleName)) throw new Error(`unknown rule ${ruleName}`);
    describe(ruleName, () => {
      before(() => initParser());

      describe("valid", () => {
        for (const raw of tests.valid) {
          const test: ValidCase = typeof raw === "string" ? { code: raw } : raw;
          it(title(test.code, test.name), () => {
            const options = { ...test.options, preset: test.preset ?? test.options?.preset };
            const result = lintWithRule(ruleName, test.code, options);
            assertClean(result, test.code);
            assert.strictEqual(result.findings.length, 0, `expected no findings, got:\n${describeFindings(result.findings)}\nin:\n${test.code}`);
          });
        }
      });

      describe("invalid", () => {
        for (const test of tests.invalid) {
          it(title(test.code, test.name), () => {
            const options = { ...test.options, preset: test.preset ?? test.options?.preset };
            const result = lintWithRule(ruleName, test.code, options);
            assertClean(result, test.code);
            const found = describeFindings(result.findings);
            assert.strictEqual(result.findings.length, test.errors.length, `expected ${test.errors.length} finding(s), got:\n${found}\nin:\n${test.code}`);
            test.errors.forEach((expected, index) => {
              const actual = result.findings[index];
              const where = `finding #${index + 1} of:\n${found}`;
              assert.strictEqual(actual.line, expected.line, `line of ${where}`);
              if (expected.column !== undefined) assert.strictEqual(actual.column, expected.column, `column of ${where}`);
              if (expected.endLine !== undefined) assert.strictEqual(actual.endLine, expected.endLine, `endLine of ${where}`);
              if (expected.endColumn !== undefined) assert.strictEqual(actual.endColumn, expected.endColumn, `endColumn of ${where}`);
              assert.strictEqual(actual.rule, expected.rule ?? ruleName, `rule of ${where}`);
              if (expected.detectedBy !== undefined) assert.strictEqual(actual.detectedBy, expected.detectedBy, `detectedBy of ${where}`);
              if (expected.hot !== undefined) assert.strictEqual(actual.hot, expected.hot, `hot of ${where}`);
              if (expected.severity !== undefined) assert.strictEqual(actual.severity, expected.severity, `severity of ${where}`);
              for (const part of asList(expected.messageIncludes)) assert.ok(actual.message.includes(part), `message of ${where}\nshould include ${JSON.stringify(part)}`);
              for (const part of asList(expected.messageExcludes)) assert.ok(!actual.message.includes(part), `message of ${where}\nshould not include ${JSON.stringify(part)}`);
            });
          });
        }
      });
    });
  },
};
