/**
 * Layout helpers for fixes: the file's line ending, a statement's indentation (spaces or tabs, copied from
 * the file, never invented), and edits that insert whole lines before or after a statement.
 */
import type { TextEdit } from "../rule";
import type { SyntaxNode } from "../syntax";

/** The file's line ending: `\r\n` when the file uses it, else `\n`. */
export function lineEnding(text: string): string {
  const first = text.indexOf("\n");
  return first > 0 && text[first - 1] === "\r" ? "\r\n" : "\n";
}

export function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== "\n" && text[i - 1] !== "\r") i--;
  return i;
}

/** Offset of the line break ending the line that contains `offset` (or the text's length). */
export function lineEndOf(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
  return i;
}

/**
 * The indentation of a statement that starts its line (the exact spaces/tabs before it), or undefined when
 * something else precedes it on its line (`if x: y = 1`), where no line can be inserted safely.
 */
export function statementIndent(text: string, statement: SyntaxNode): string | undefined {
  const start = lineStartOf(text, statement.start);
  const prefix = text.slice(start, statement.start);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
}

/** Does only whitespace or a comment follow `offset` on its line? */
export function restOfLineIsBlank(text: string, offset: number): boolean {
  const rest = text.slice(offset, lineEndOf(text, offset));
  return /^[ \t]*(#.*)?$/.test(rest) && !/\\\s*$/.test(rest);
}

/** Inserts `lines` (without indentation) as new lines just before `statement`, at its indentation. */
export function insertLinesBefore(text: string, statement: SyntaxNode, lines: string[]): TextEdit | undefined {
  const indent = statementIndent(text, statement);
  if (indent === undefined) return undefined;
  const nl = lineEnding(text);
  return { start: lineStartOf(text, statement.start), end: lineStartOf(text, statement.start), text: lines.map((line) => `${indent}${line}${nl}`).join("") };
}

/**
 * Inserts `lines` as new lines just after `statement` (for a loop: after its whole body and `else:`), at the
 * statement's own indentation.
 */
export function insertLinesAfter(text: string, statement: SyntaxNode, lines: string[]): TextEdit | undefined {
  const indent = statementIndent(text, statement);
  if (indent === undefined || !restOfLineIsBlank(text, statement.end)) return undefined;
  const nl = lineEnding(text);
  const at = lineEndOf(text, statement.end);
  return { start: at, end: at, text: lines.map((line) => `${nl}${indent}${line}`).join("") };
}

/**
 * The whole lines of a statement that stands alone on them: from its line start through its line break,
 * with the statement's text (and any trailing comment) for moving it elsewhere.
 */
export function wholeLines(text: string, statement: SyntaxNode): { start: number; end: number; body: string } | undefined {
  if (statementIndent(text, statement) === undefined || !restOfLineIsBlank(text, statement.end)) return undefined;
  const start = lineStartOf(text, statement.start);
  const lineEnd = lineEndOf(text, statement.end);
  let end = lineEnd;
  if (text[end] === "\r" && text[end + 1] === "\n") end += 2;
  else if (end < text.length) end += 1;
  return { start, end, body: text.slice(statement.start, lineEnd).replace(/[ \t]+$/, "") };
}
