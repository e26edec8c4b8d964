/**
 * Code actions for synclint diagnostics: the engine's fixes for the finding (one quick fix each), disable the
 * rule for a line (merging into an existing `# synclint: ignore[...]`), disable it for the file, and show its
 * documentation; and `source.fixAll.synclint`, which applies the engine's safe fixes. No rewrite logic lives
 * here: fixes come from the engine's findings (`finding.fixes`), and nothing is offered while findings have none.
 */
import { findRule, ruleDocsHref } from "synclint-rules";
import type { Finding, PositionEncoding } from "synclint-rules";
import { CodeAction, CodeActionKind, Command, Diagnostic, TextEdit } from "vscode-languageserver";
import type { DocumentLint } from "./linting";
import type { DiagnosticData } from "./diagnostics";
import { SOURCE } from "./diagnostics";
import { toPosition, toRange } from "./positions";

export const SHOW_DOCUMENTATION_COMMAND = "synclint.showDocumentation";
export const FIX_ALL_KIND = "source.fixAll.synclint";

/** The shape of the engine's fixes (UTF-16 offsets into the linted text). */
export interface EngineFix {
  title: string;
  safe: boolean;
  edits: Array<{ start: number; end: number; text: string }>;
}

/** A finding's fixes, if the engine attached well-formed ones. */
export function fixesOf(finding: Finding): EngineFix[] {
  const fixes = (finding as Finding & { fixes?: unknown }).fixes;
  if (!Array.isArray(fixes)) return [];
  return fixes.filter(
    (fix): fix is EngineFix =>
      typeof fix === "object" && fix !== null && typeof fix.title === "string" && typeof fix.safe === "boolean" && Array.isArray(fix.edits) &&
      fix.edits.length > 0 && fix.edits.every((e: unknown) => typeof e === "object" && e !== null && Number.isInteger((e as { start: unknown }).start) && Number.isInteger((e as { end: unknown }).end) && typeof (e as { text: unknown }).text === "string"),
  );
}

/** Whether the client asked for (or allows) actions of `kind` through `context.only`. */
export function wants(only: readonly string[] | undefined, kind: string): boolean {
  if (!only) return kind.startsWith(CodeActionKind.QuickFix);
  return only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

function fixEdits(lint: DocumentLint, fix: EngineFix, encoding: PositionEncoding): TextEdit[] {
  const { source } = lint.result;
  const length = source.text.length;
  return fix.edits.map((e) => {
    const start = Math.max(0, Math.min(length, e.start));
    const end = Math.max(start, Math.min(length, e.end));
    return TextEdit.replace(toRange(source, start, end, encoding), e.text);
  });
}

/** The finding a diagnostic was made from: same rule and same range. */
function findingOf(lint: DocumentLint, diagnostic: Diagnostic, rule: string, encoding: PositionEncoding): Finding | undefined {
  const { source } = lint.result;
  return lint.result.findings.find((f) => {
    if (f.rule !== rule) return false;
    const range = toRange(source, f.start, f.end, encoding);
    return range.start.line === diagnostic.range.start.line && range.start.character === diagnostic.range.start.character && range.end.line === diagnostic.range.end.line && range.end.character === diagnostic.range.end.character;
  });
}

/** Two edits that touch the same text, or insert at the same place (their order would be ambiguous). */
function conflict(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return (a.start < b.end && b.start < a.end) || a.start === b.start;
}

/**
 * `source.fixAll.synclint`: every safe fix of the current lint that does not overlap an earlier one (by start
 * offset), in one edit. One pass; fixes uncovered by applying these appear in the next lint.
 */
export function fixAllAction(uri: string, lint: DocumentLint, encoding: PositionEncoding): CodeAction | undefined {
  const candidates = lint.result.findings.flatMap((finding) => fixesOf(finding).filter((fix) => fix.safe));
  candidates.sort((a, b) => Math.min(...a.edits.map((e) => e.start)) - Math.min(...b.edits.map((e) => e.start)));
  const taken: Array<{ start: number; end: number }> = [];
  const edits: TextEdit[] = [];
  for (const fix of candidates) {
    const overlaps = fix.edits.some((e) => taken.some((t) => conflict(e, t)));
    const selfOverlaps = fix.edits.some((e, i) => fix.edits.some((o, j) => i !== j && conflict(e, o)));
    if (overlaps || selfOverlaps) continue;
    taken.push(...fix.edits.map((e) => ({ start: e.start, end: e.end })));
    edits.push(...fixEdits(lint, fix, encoding));
  }
  if (edits.length === 0) return undefined;
  return { title: "Fix all safe synclint findings", kind: FIX_ALL_KIND, edit: { changes: { [uri]: edits } } };
}

const IGNORE_WITH_RULES = /#\s*synclint:\s*ignore\[([^\]]*)\]/i;
const IGNORE_BLANKET = /#\s*synclint:\s*ignore(?!\[)/i;
const DISABLE_FILE = /#\s*synclint:\s*disable-file\b/i;

export function codeActionsFor(uri: string, lint: DocumentLint, diagnostics: readonly Diagnostic[], encoding: PositionEncoding, only?: readonly string[]): CodeAction[] {
  const actions: CodeAction[] = [];
  if (only && wants(only, FIX_ALL_KIND)) {
    const fixAll = fixAllAction(uri, lint, encoding);
    if (fixAll) actions.push(fixAll);
  }
  if (!wants(only, CodeActionKind.QuickFix)) return actions;
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== SOURCE) continue;
    const data = diagnostic.data as DiagnosticData | undefined;
    const rule = data && typeof data.rule === "string" ? findRule(data.rule) : undefined;
    if (!rule) continue;
    const name = rule.meta.name;
    const finding = findingOf(lint, diagnostic, name, encoding);
    const fixes = finding ? fixesOf(finding) : [];
    fixes.forEach((fix, index) => {
      actions.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: fix.safe && index === fixes.findIndex((f) => f.safe), edit: { changes: { [uri]: fixEdits(lint, fix, encoding) } } });
    });
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
