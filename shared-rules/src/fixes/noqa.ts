/**
 * `--add-noqa`: a `# synclint: ignore[rule]` comment on the line of every current finding, merged into an
 * existing `# synclint: ignore[...]` comment on that line, so that a large codebase can adopt synclint
 * before it fixes anything.
 */
import type { Finding } from "../lint";
import type { SyntaxNode } from "../syntax";
import type { TextEdit } from "../rule";
import { lineEndOf, lineStartOf } from "./indentation";

const EXISTING = /#\s*synclint:\s*ignore(\[([^\]]*)\])?/i;

/** Offsets where a line break lies inside a string (a comment cannot be added to that line's end). */
function insideString(root: SyntaxNode, offset: number): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.end <= offset || node.start > offset) continue;
    if ((node.type === "string" || node.type === "concatenated_string") && node.start < offset && offset < node.end) return true;
    stack.push(...node.children);
  }
  return false;
}

export function noqaEdits(text: string, root: SyntaxNode, findings: readonly Finding[]): TextEdit[] {
  // Rule names to add, by the offset of the line end that receives the comment.
  const byLine = new Map<number, Set<string>>();
  for (const finding of findings) {
    let end = lineEndOf(text, finding.start);
    if (insideString(root, end)) end = lineEndOf(text, finding.end);
    if (insideString(root, end)) continue;
    const names = byLine.get(end) ?? new Set<string>();
    names.add(finding.rule);
    byLine.set(end, names);
  }
  const edits: TextEdit[] = [];
  for (const [end, names] of byLine) {
    const start = lineStartOf(text, end);
    const line = text.slice(start, end);
    const hash = commentStart(line);
    const existing = hash >= 0 ? EXISTING.exec(line.slice(hash)) : null;
    if (existing && hash >= 0) {
      if (existing[1] === undefined) continue; // `# synclint: ignore` already covers every rule
      const listed = existing[2].split(",").map((s) => s.trim()).filter(Boolean);
      const missing = [...names].filter((name) => !listed.includes(name));
      if (missing.length === 0) continue;
      const at = start + hash + existing.index + existing[0].length - 1; // before `]`
      const separator = listed.length > 0 ? ", " : "";
      edits.push({ start: at, end: at, text: `${separator}${missing.join(", ")}` });
      continue;
    }
    const trimmed = line.replace(/[ \t]+$/, "");
    edits.push({ start: start + trimmed.length, end, text: `  # synclint: ignore[${[...names].join(", ")}]` });
  }
  return edits;
}

/** Index of the `#` starting a comment on this line, ignoring `#` inside simple string literals. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#") return i;
  }
  return -1;
}
