/** ESLint's JSON result format, so that tools which read `eslint --format json` read ours. */
import type { FileResult } from "../lint-file";

export function formatJson(results: FileResult[]): string {
  return JSON.stringify(
    results.map((result) => {
      const errorCount = result.messages.filter((m) => m.severity === "error").length;
      const fatalErrorCount = result.messages.filter((m) => m.fatal).length;
      return {
        filePath: result.filePath,
        messages: result.messages.map((m) => ({
          ruleId: m.ruleId,
          severity: m.severity === "error" ? 2 : 1,
          message: m.message,
          line: m.line,
          column: m.column,
          endLine: m.endLine,
          endColumn: m.endColumn,
          ...(m.fatal ? { fatal: true } : {}),
          ...(m.fix ? { fix: m.fix } : {}),
          ...(m.suggestions && m.suggestions.length > 0 ? { suggestions: m.suggestions } : {}),
        })),
        suppressedMessages: [],
        errorCount,
        fatalErrorCount,
        warningCount: result.messages.length - errorCount,
        fixableErrorCount: result.messages.filter((m) => m.fix && m.severity === "error").length,
        fixableWarningCount: result.messages.filter((m) => m.fix && m.severity !== "error").length,
        usedDeprecatedRules: [],
      };
    }),
  );
}
