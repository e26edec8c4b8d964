/**
 * Suppression comments: `# synclint: ignore`, `# synclint: ignore[rule-name, SYN102] reason`,
 * `# noqa` / `# noqa: SYN101`, and `# synclint: disable-file`.
 */
import type { SyntaxNode } from "./syntax";
import type { SourceText } from "./source-text";
import { findRule } from "./rules";

export interface Suppression {
  line: number;
  /** The comment's range, for reporting it as unused. */
  start: number;
  end: number;
  /** Rule names it names; empty means every rule. */
  rules: string[];
  /** Names in the comment that are not synclint rules. */
  unknown: string[];
  /** `synclint` or `noqa`. */
  style: "synclint" | "noqa";
  used: Set<string>;
}

export interface Suppressions {
  disableFile: boolean;
  byLine: Map<number, Suppression[]>;
  all: Suppression[];
}

const SYNCLINT_IGNORE = /#\s*synclint:\s*ignore(?:\[([^\]]*)\])?/gi;
const NOQA = /#\s*noqa(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?/gi;
const DISABLE_FILE = /#\s*synclint:\s*disable-file\b/i;
/** What each of the patterns above needs; most comments are prose, and one scan rules them out. */
const MENTIONS_SUPPRESSION = /synclint|noqa/i;

export function parseSuppressions(comments: SyntaxNode[], source: SourceText): Suppressions {
  const result: Suppressions = { disableFile: false, byLine: new Map(), all: [] };
  for (const comment of comments) {
    const text = source.text.slice(comment.start, comment.end);
    if (!MENTIONS_SUPPRESSION.test(text)) continue;
    if (DISABLE_FILE.test(text)) result.disableFile = true;
    const line = source.position(comment.start).line;
    for (const match of text.matchAll(SYNCLINT_IGNORE)) {
      const names = match[1] === undefined ? [] : match[1].split(",").map((s) => s.trim()).filter(Boolean);
      add(result, line, comment, names, "synclint");
    }
    for (const match of text.matchAll(NOQA)) {
      const codes = match[1] === undefined ? [] : match[1].split(/[\s,]+/).filter(Boolean);
      // `# noqa: E501` is for another tool; only our codes (or a blanket `# noqa`) apply.
      const ours = codes.filter((code) => /^SYN\d+$/i.test(code));
      if (codes.length > 0 && ours.length === 0) continue;
      add(result, line, comment, ours, "noqa");
    }
  }
  return result;
}

function add(result: Suppressions, line: number, comment: SyntaxNode, names: string[], style: Suppression["style"]): void {
  const rules: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const rule = findRule(name);
    if (rule) rules.push(rule.meta.name);
    else unknown.push(name);
  }
  const suppression: Suppression = { line, start: comment.start, end: comment.end, rules, unknown, style, used: new Set() };
  const list = result.byLine.get(line);
  if (list) list.push(suppression);
  else result.byLine.set(line, [suppression]);
  result.all.push(suppression);
}

/**
 * Is a finding of `ruleNames` (the rule, and the rule it was derived from) on lines `firstLine..lastLine`
 * suppressed? Marks the suppression used.
 */
export function isSuppressed(suppressions: Suppressions, ruleNames: string[], firstLine: number, lastLine: number): boolean {
  for (let line = firstLine; line <= lastLine; line++) {
    for (const suppression of suppressions.byLine.get(line) ?? []) {
      const blanket = suppression.rules.length === 0 && suppression.unknown.length === 0;
      const matched = blanket ? ruleNames[0] : ruleNames.find((name) => suppression.rules.includes(name));
      if (matched) {
        suppression.used.add(matched);
        return true;
      }
    }
  }
  return false;
}
