/**
 * Applying fixes: in passes, each pass applying the fixes of the current findings whose edits do not
 * overlap, until nothing changes (at most `maxPasses`). Every fix is checked before it is kept: the
 * result must parse without ERROR or MISSING nodes, otherwise the fix is rejected. A fix removes the
 * finding it fixes, so applying the fixes of a fixed file again changes nothing.
 */
import { parseSyntaxTree } from "../syntax";
import { lintSource, Finding, LintOptions } from "../lint";
import type { Fix, TextEdit } from "../rule";

export interface ApplyFixesOptions extends Omit<LintOptions, "tree" | "reportUnusedSuppressions"> {
  /** Also apply suggestions (`--unsafe-fixes`); by default only safe fixes. */
  unsafe?: boolean;
  /** At most this many passes (default 10). */
  maxPasses?: number;
}

export interface AppliedFix {
  rule: string;
  title: string;
  safe: boolean;
  /** 1-based line of the finding in the text the pass started from. */
  line: number;
}

export interface ApplyFixesResult {
  text: string;
  changed: boolean;
  applied: AppliedFix[];
  /** Fixes that were not applied because their result did not parse. */
  rejected: AppliedFix[];
  passes: number;
  /** The findings left in the fixed text. */
  findings: Finding[];
}

/** Applies non-overlapping edits (sorted here) to `text`. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let position = 0;
  for (const edit of sorted) {
    if (edit.start < position) throw new Error("synclint: overlapping edits");
    out += text.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  return out + text.slice(position);
}

/** Two edits conflict when their ranges overlap, or when both start at the same offset (their order would be arbitrary). */
export function editsConflict(a: TextEdit, b: TextEdit): boolean {
  return a.start === b.start || (a.start < b.end && b.start < a.end);
}

function fixesConflict(a: Fix, b: Fix): boolean {
  return a.edits.some((x) => b.edits.some((y) => editsConflict(x, y)));
}

function selfConsistent(fix: Fix): boolean {
  for (let i = 0; i < fix.edits.length; i++) for (let j = i + 1; j < fix.edits.length; j++) if (editsConflict(fix.edits[i], fix.edits[j])) return false;
  return fix.edits.length > 0;
}

/** Does `text` parse without ERROR or MISSING nodes? */
export function parsesCleanly(text: string): boolean {
  return parseSyntaxTree(text).problems.length === 0;
}

/** The fix `--fix` (or, with `unsafe`, `--unsafe-fixes`) would apply for a finding: the first allowed one. */
export function chosenFix(finding: Finding, unsafe: boolean): Fix | undefined {
  return finding.fixes.find((fix) => fix.safe || unsafe);
}

function fixKey(text: string, rule: string, fix: Fix): string {
  return `${rule}\u0000${fix.title}\u0000${fix.edits.map((e) => `${e.start}:${e.end}:${text.slice(e.start, e.end)}\u0001${e.text}`).join("\u0002")}`;
}

export function applyFixes(text: string, options: ApplyFixesOptions = {}): ApplyFixesResult {
  const { unsafe = false, maxPasses = 10, ...lintOptions } = options;
  const applied: AppliedFix[] = [];
  const rejected: AppliedFix[] = [];
  const rejectedKeys = new Set<string>();
  let current = text;
  let passes = 0;
  let findings = lintSource(current, lintOptions).findings;
  // A file that does not parse cannot be checked after fixing: leave it alone.
  if (!parsesCleanly(current)) return { text, changed: false, applied, rejected, passes, findings };
  while (passes < maxPasses) {
    const chosen: Array<{ fix: Fix; finding: Finding }> = [];
    const seen = new Set<string>();
    for (const finding of findings) {
      const fix = chosenFix(finding, unsafe);
      if (!fix || !selfConsistent(fix)) continue;
      const key = fixKey(current, finding.rule, fix);
      if (seen.has(key) || rejectedKeys.has(key)) continue;
      seen.add(key);
      if (chosen.some((c) => fixesConflict(c.fix, fix))) continue; // next pass
      const alone = applyEdits(current, fix.edits);
      if (alone === current) continue;
      if (!parsesCleanly(alone)) {
        rejectedKeys.add(key);
        if (!rejected.some((r) => r.rule === finding.rule && r.title === fix.title && r.line === finding.line)) rejected.push({ rule: finding.rule, title: fix.title, safe: fix.safe, line: finding.line });
        continue;
      }
      chosen.push({ fix, finding });
    }
    if (chosen.length === 0) break;
    passes++;
    let next = applyEdits(current, chosen.flatMap((c) => c.fix.edits));
    let kept = chosen;
    if (!parsesCleanly(next)) {
      // Fixes that parse alone but not together: keep the first, the others get another pass.
      kept = chosen.slice(0, 1);
      next = applyEdits(current, kept[0].fix.edits);
    }
    for (const { fix, finding } of kept) applied.push({ rule: finding.rule, title: fix.title, safe: fix.safe, line: finding.line });
    if (next === current) break;
    current = next;
    findings = lintSource(current, lintOptions).findings;
  }
  return { text: current, changed: current !== text, applied, rejected, passes, findings };
}
