/** Linting one file from disk into a serialisable result (what workers send back). */
import { ConfigError, ConfigResolver, isExcluded } from "../config";
import { lintSource, projectLinks, Finding, Problem } from "../lint";
import { parseSyntaxTree } from "../syntax";
import { readSourceFile } from "../read-source";
import type { Fix, Severity, TextEdit } from "../rule";
import type { HotEntries, ModuleLinks } from "../analysis/cross-file";

/** ESLint's fix shape: one replacement of `text[range[0], range[1])`. */
export interface EslintFix {
  range: [number, number];
  text: string;
}

export interface Message {
  ruleId: string | null;
  code?: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** A parse error or a file that could not be read. */
  fatal?: boolean;
  hot?: boolean;
  /** Why the site is considered hot (or not). */
  reason?: string;
  /** Rewrites offered for the finding (safe fixes and suggestions), edits in UTF-16 offsets into the file's text. */
  fixes?: Fix[];
  /** The first safe fix as one ESLint replacement (several edits merged with the text between them). */
  fix?: EslintFix;
  /** Every fix as an ESLint suggestion. */
  suggestions?: Array<{ desc: string; fix: EslintFix }>;
}

export interface FileResult {
  filePath: string;
  messages: Message[];
  source?: string;
  /** The file's hot calls into the project, for the next round of `lintProject` (not part of any output). */
  links?: ModuleLinks;
}

export interface LintFileOptions {
  reportUnusedSuppressions?: boolean;
  /** Only the file's links (`projectLinks`), no messages: the server's workspace index needs no more. */
  linksOnly?: boolean;
}

/** `entries`: the file's functions that other files call from hot paths; `links`: also list its own such calls. */
export function lintFileText(filePath: string, text: string, resolver: ConfigResolver, options: LintFileOptions, entries?: HotEntries, links = false): FileResult {
  const config = resolver.forFile(filePath);
  const result = lintSource(text, { filePath, config, reportUnusedSuppressions: options.reportUnusedSuppressions, hotEntries: entries, linkModules: links });
  const messages: Message[] = [...result.findings.map((finding) => fromFinding(finding, text)), ...result.problems.map(fromProblem)];
  messages.sort((a, b) => a.line - b.line || a.column - b.column);
  return { filePath, messages, ...(result.links ? { links: result.links } : {}) };
}

/** A file of a project (`lintProject`): linted with its hot entries, listing its own hot calls into the project. */
export function lintFile(filePath: string, resolver: ConfigResolver, options: LintFileOptions, entries?: HotEntries): FileResult | undefined {
  if (isExcluded(filePath, resolver.forFile(filePath))) return undefined;
  const source = readSourceFile(filePath);
  if (!source.ok) {
    return { filePath, messages: [{ ruleId: null, severity: "error", fatal: true, message: source.reason, line: source.line ?? 1, column: source.column ?? 1, endLine: source.line ?? 1, endColumn: source.column ?? 1 }] };
  }
  try {
    if (options.linksOnly) return { filePath, messages: [], links: projectLinks(source.text, parseSyntaxTree(source.text), { filePath, config: resolver.forFile(filePath), hotEntries: entries }) };
    return lintFileText(filePath, source.text, resolver, options, entries, true);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // The engine isolates rule failures; anything else is a bug, reported on the file instead of crashing the run.
    return { filePath, messages: [{ ruleId: null, severity: "error", fatal: true, message: `synclint internal error: ${(error as Error).message}`, line: 1, column: 1, endLine: 1, endColumn: 1 }] };
  }
}

/** Several edits as one ESLint replacement: from the first edit's start to the last one's end. */
export function mergeEdits(text: string, edits: readonly TextEdit[]): EslintFix {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const start = sorted[0].start;
  const end = Math.max(...sorted.map((e) => e.end));
  let out = "";
  let position = start;
  for (const edit of sorted) {
    out += text.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  return { range: [start, end], text: out + text.slice(position, end) };
}

function fromFinding(finding: Finding, text: string): Message {
  const safe = finding.fixes.find((fix) => fix.safe);
  return {
    ruleId: finding.rule,
    code: finding.code,
    severity: finding.severity,
    message: finding.message,
    line: finding.line,
    column: finding.column,
    endLine: finding.endLine,
    endColumn: finding.endColumn,
    hot: finding.hot,
    reason: finding.context.reason,
    ...(finding.fixes.length > 0
      ? {
          fixes: finding.fixes,
          ...(safe ? { fix: mergeEdits(text, safe.edits) } : {}),
          suggestions: finding.fixes.map((fix) => ({ desc: `${fix.title}${fix.safe ? "" : " (suggestion: may change behaviour, review it)"}`, fix: mergeEdits(text, fix.edits) })),
        }
      : {}),
  };
}

function fromProblem(problem: Problem): Message {
  return {
    ruleId: problem.kind === "unused-suppression" ? "unused-suppression" : null,
    severity: problem.severity,
    message: problem.message,
    line: problem.line,
    column: problem.column,
    endLine: problem.endLine,
    endColumn: problem.endColumn,
    fatal: problem.kind === "parse-error" ? true : undefined,
  };
}
