/**
 * Code actions for synclint diagnostics: disable the rule for a line (merging into an existing
 * `# synclint: ignore[...]`), disable it for the file, and show its documentation. No rewrite logic lives here.
 */
import { findRule, ruleDocsHref } from "synclint-rules";
import type { PositionEncoding } from "synclint-rules";
import { CodeAction, CodeActionKind, Command, Diagnostic, TextEdit } from "vscode-languageserver";
import type { DocumentLint } from "./linting";
import type { DiagnosticData } from "./diagnostics";
import { SOURCE } from "./diagnostics";
import { toPosition } from "./positions";

export const SHOW_DOCUMENTATION_COMMAND = "synclint.showDocumentation";

const IGNORE_WITH_RULES = /#\s*synclint:\s*ignore\[([^\]]*)\]/i;
const IGNORE_BLANKET = /#\s*synclint:\s*ignore(?!\[)/i;
const DISABLE_FILE = /#\s*synclint:\s*disable-file\b/i;

export function codeActionsFor(uri: string, lint: DocumentLint, diagnostics: readonly Diagnostic[], encoding: PositionEncoding): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== SOURCE) continue;
    const data = diagnostic.data as DiagnosticData | undefined;
    const rule = data && typeof data.rule === "string" ? findRule(data.rule) : undefined;
    if (!rule) continue;
    const name = rule.meta.name;
    const lineEdit = disableForLine(lint, diagnostic.range.start.line, name, encoding);
    if (lineEdit) actions.push({ title: `Disable \`${name}\` for this line`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: { changes: { [uri]: [lineEdit] } } });
    const fileEdit = disableForFile(lint);
    if (fileEdit) actions.push({ title: `Disable \`${name}\` for this file`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: { changes: { [uri]: [fileEdit] } } });
    const href = ruleDocsHref(rule.meta);
    actions.push({
      title: `Show documentation for \`${name}\``,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      command: Command.create(`Show documentation for \`${name}\``, SHOW_DOCUMENTATION_COMMAND, href),
    });
  }
  return actions;
}

/** `# synclint: ignore[rule]` at the end of the line, or `rule` added to the line's existing ignore list. */
export function disableForLine(lint: DocumentLint, line: number, rule: string, encoding: PositionEncoding): TextEdit | undefined {
  const { source } = lint.result;
  if (line < 0 || line >= source.lineCount) return undefined;
  const lineStart = source.lineStarts[line];
  const lineEnd = source.lineEnd(line);
  const comment = lint.syntax.comments.find((c) => c.start >= lineStart && c.start <= lineEnd);
  if (comment) {
    const text = source.text.slice(comment.start, comment.end);
    const listed = IGNORE_WITH_RULES.exec(text);
    if (listed) {
      const names = listed[1].split(",").map((s) => s.trim()).filter(Boolean);
      if (names.some((n) => findRule(n)?.meta.name === rule)) return undefined;
      const close = comment.start + listed.index + listed[0].length - 1;
      const insert = names.length > 0 ? `, ${rule}` : rule;
      const at = toPosition(source, close, encoding);
      return TextEdit.insert(at, insert);
    }
    if (IGNORE_BLANKET.test(text)) return undefined;
  }
  const end = toPosition(source, lineEnd, encoding);
  const lineText = source.lineText(line);
  const separator = lineText.trim() === "" ? "" : lineText.endsWith(" ") ? " " : "  ";
  return TextEdit.insert(end, `${separator}# synclint: ignore[${rule}]`);
}

/** `# synclint: disable-file` on the first line (after a shebang or coding line). */
export function disableForFile(lint: DocumentLint): TextEdit | undefined {
  const { source } = lint.result;
  if (lint.syntax.comments.some((c) => DISABLE_FILE.test(source.text.slice(c.start, c.end)))) return undefined;
  let line = 0;
  while (line < Math.min(2, source.lineCount - 1) && /^#(!|.*coding[:=])/.test(source.lineText(line))) line++;
  return TextEdit.insert({ line, character: 0 }, "# synclint: disable-file\n");
}
