/** ESLint's "stylish" layout: a header per file, aligned rows, a summary line. */
import * as path from "path";
import type { FileResult } from "../lint-file";

export function formatStylish(results: FileResult[], color: boolean): string {
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    if (result.messages.length === 0) continue;
    lines.push("", paint("4", path.relative(process.cwd(), result.filePath) || result.filePath));
    const rows = result.messages.map((m) => {
      if (m.severity === "error") errors++;
      else warnings++;
      const level = m.severity === "error" ? paint("31", "error") : m.severity === "info" ? paint("34", "info") : paint("33", "warning");
      return { position: `${m.line}:${m.column}`, level, plainLevel: m.severity, message: m.message, rule: m.ruleId ? paint("2", m.code ? `${m.ruleId} (${m.code})` : m.ruleId) : "" };
    });
    const positionWidth = Math.max(...rows.map((r) => r.position.length));
    const levelWidth = Math.max(...rows.map((r) => r.plainLevel.length));
    for (const row of rows) lines.push(`  ${row.position.padEnd(positionWidth)}  ${row.level}${" ".repeat(levelWidth - row.plainLevel.length)}  ${row.message}  ${row.rule}`);
  }
  const total = errors + warnings;
  if (total > 0) {
    lines.push("", paint(errors > 0 ? "31;1" : "33;1", `✖ ${total} problem${total === 1 ? "" : "s"} (${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"})`), "");
  }
  return lines.join("\n");
}
