/** Findings and problems of the engine as LSP diagnostics, in the negotiated position encoding. */
import { findRule, ruleDocsHref } from "synclint-rules";
import type { Finding, LintResult, PositionEncoding, Problem, Severity } from "synclint-rules";
import { Diagnostic, DiagnosticSeverity } from "vscode-languageserver";
import { toRange } from "./positions";

/** What code actions need back from a diagnostic. */
export interface DiagnosticData {
  rule: string;
  detectedBy?: string;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

export const SOURCE = "synclint";

export function findingDiagnostic(finding: Finding, result: LintResult, encoding: PositionEncoding): Diagnostic {
  const rule = findRule(finding.rule);
  const data: DiagnosticData = { rule: finding.rule, ...(finding.detectedBy ? { detectedBy: finding.detectedBy } : {}) };
  return {
    range: toRange(result.source, finding.start, finding.end, encoding),
    severity: SEVERITY[finding.severity],
    code: finding.rule,
    ...(rule ? { codeDescription: { href: ruleDocsHref(rule.meta) } } : {}),
    source: SOURCE,
    message: finding.message,
    data,
  };
}

export function problemDiagnostic(problem: Problem, result: LintResult, encoding: PositionEncoding): Diagnostic {
  return {
    range: toRange(result.source, problem.start, problem.end, encoding),
    severity: SEVERITY[problem.severity],
    code: problem.kind,
    source: SOURCE,
    message: problem.message,
  };
}

export function toDiagnostics(result: LintResult, encoding: PositionEncoding): Diagnostic[] {
  return [...result.findings.map((f) => findingDiagnostic(f, result, encoding)), ...result.problems.map((p) => problemDiagnostic(p, result, encoding))];
}
