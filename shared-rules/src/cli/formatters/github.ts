/** GitHub Actions workflow commands: each finding becomes an annotation on the pull request. */
import * as path from "path";
import type { FileResult } from "../lint-file";

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function formatGithub(results: FileResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const file = path.relative(process.cwd(), result.filePath).split(path.sep).join("/") || result.filePath;
    for (const m of result.messages) {
      const level = m.severity === "error" ? "error" : m.severity === "info" ? "notice" : "warning";
      const title = m.ruleId ? `synclint ${m.ruleId}${m.code ? ` (${m.code})` : ""}` : "synclint";
      lines.push(`::${level} file=${escapeProperty(file)},line=${m.line},col=${m.column},endLine=${m.endLine},endColumn=${m.endColumn},title=${escapeProperty(title)}::${escapeData(m.message)}`);
    }
  }
  return lines.join("\n");
}
