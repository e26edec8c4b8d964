/**
 * The engine: parse, analyse once, run every enabled rule's visitor in one walk per top-level statement, apply
 * hot-path policy, compiled-region re-labelling, severities and suppressions.
 */
import { SyntaxNode, SyntaxTree, parseSyntaxTree } from "./syntax";
import { SourceText } from "./source-text";
import { FileAnalysis, textFlags } from "./analysis/file-analysis";
import { attributeWrites } from "./analysis/names";
import { HotEntries, ModuleLinks, NO_LINKS, moduleLinks } from "./analysis/cross-file";
import { namesOfClasses } from "./analysis/class-names";
import type { SiteContext } from "./analysis/hot-paths";
import type { Evidence } from "./analysis/tensor-evidence";
import { rules as allRules, syncInCompiledRegion } from "./rules";
import { deviceMoveOfBatches } from "./rules/dataloader-pin-memory";
import type { Fix, ReportDescriptor, Rule, RuleContext, Severity, Visitor } from "./rule";
import { ResolvedConfig, ignoredRulesFor, resolveConfig } from "./config";
import { isSuppressed, parseSuppressions } from "./suppressions";
import { bindsTorch } from "./fixes/imports";
import { lineEnding } from "./fixes/indentation";
import { optionLines } from "./analysis/names";

export interface Finding {
  rule: string;
  code: string;
  /** The rule that detected the hazard when `rule` is `sync-in-compiled-region`. */
  detectedBy?: string;
  severity: Severity;
  message: string;
  /** UTF-16 offsets into the text. */
  start: number;
  end: number;
  /** 1-based lines; 1-based columns in UTF-16 code units (as ESLint reports them). */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  hot: boolean;
  context: SiteContext;
  evidence?: Evidence;
  /** Rewrites offered for this finding (safe fixes and suggestions); empty when there are none. */
  fixes: Fix[];
}

export interface Problem {
  kind: "parse-error" | "rule-error" | "unused-suppression";
  message: string;
  severity: Severity;
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  rule?: string;
}

export interface LintResult {
  findings: Finding[];
  /** Parse errors, rules that threw, unused suppressions (when asked for). */
  problems: Problem[];
  source: SourceText;
  /** With `linkModules`: the calls its hot paths make into the project (none from a test file). */
  links?: ModuleLinks;
}

export interface LintOptions {
  filePath?: string;
  config?: ResolvedConfig;
  reportUnusedSuppressions?: boolean;
  /** For tests of fault isolation: lint with these rules instead of the catalogue. */
  rules?: readonly Rule[];
  /** The text's lines, when the caller has them already (used only if its text is the linted text). */
  source?: SourceText;
  /** The top-level statements that mention a name, when the caller keeps such an index (the incremental linter). */
  statementsMentioning?: (name: string) => ReadonlySet<SyntaxNode> | undefined;
  /** The top-level statements that bind a name at module level (a superset will do), from the same index. */
  statementsBinding?: (name: string) => ReadonlySet<SyntaxNode> | undefined;
  /** This file's functions that other files of the project call from hot paths (`project.ts`). */
  hotEntries?: HotEntries;
  /** Also list the calls the file's hot paths make into the project (`LintResult.links`). */
  linkModules?: boolean;
}

export function lintSource(text: string, options: LintOptions = {}): LintResult {
  return lintSyntaxTree(text, parseSyntaxTree(text), options);
}

export function lintSyntaxTree(text: string, syntax: SyntaxTree, options: LintOptions = {}): LintResult {
  return lintStatements(text, syntax, options).result;
}

/** What linting one top-level statement found, before suppressions: reusable while nothing it depends on changes. */
export interface StatementLint {
  findings: Finding[];
  /** What Python rejects and tree-sitter accepts, inside the statement. */
  pythonOnly: SyntaxProblem[];
}

export interface StatementsLint {
  result: LintResult;
  /** Per top-level statement; empty when the file was not linted statement by statement (`disable-file`). */
  statements: Map<SyntaxNode, StatementLint>;
  /** The statements walked (the others' lints were kept). */
  walked: SyntaxNode[];
  /** The analysis the statements were walked with (none with `disable-file`). */
  analysis?: FileAnalysis;
  /** A rule threw: it was skipped for the rest of the walk, so later statements' results depend on the order. */
  ruleFailed: boolean;
}

/**
 * Lints the file one top-level statement at a time. `kept` holds earlier lints of statements of this tree
 * (the incremental linter's, for statements an edit cannot reach, their offsets moved): those statements are
 * not walked again. The map is filled in with the others' lints and returned as `statements` (an editor's
 * file has thousands of statements and is linted per keystroke: no new map per lint).
 */
export function lintStatements(text: string, syntax: SyntaxTree, options: LintOptions = {}, kept?: Map<SyntaxNode, StatementLint>): StatementsLint {
  const source = options.source?.text === text ? options.source : new SourceText(text);
  const config = options.config ?? resolveConfig({}, process.cwd());
  const problems: Problem[] = [];
  const statements = kept ?? new Map<SyntaxNode, StatementLint>();
  const suppressions = parseSuppressions(syntax.comments, source);
  // tree-sitter's comment token takes the `\r` of a CRLF; a range never ends inside a line break.
  const outsideLineBreak = (offset: number) => (text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10 ? offset - 1 : offset);
  const locate = (rawStart: number, rawEnd: number) => {
    const start = outsideLineBreak(rawStart);
    const end = Math.max(start, outsideLineBreak(rawEnd));
    const from = source.position(start);
    const to = source.position(end);
    return { start, end, line: from.line + 1, column: from.character + 1, endLine: to.line + 1, endColumn: to.character + 1 };
  };

  const reportSyntaxProblems = (pythonOnly: SyntaxProblem[]) => {
    const syntaxProblems = [...syntax.problems, ...pythonOnly].sort((a, b) => a.offset - b.offset);
    if (syntaxProblems.length === 0) return;
    const first = syntaxProblems[0];
    const where = source.position(first.offset);
    const near = source.lineText(where.line).trim().slice(0, 40);
    problems.push({ kind: "parse-error", message: `Parsing error: ${describeProblem(first.kind)} near \`${near}\` (findings in the rest of the file are still reported)`, severity: "error", ...locate(first.offset, first.offset) });
  };
  if (suppressions.disableFile) {
    reportSyntaxProblems(pythonOnlyProblems(syntax.root, text));
    statements.clear();
    return { result: { findings: [], problems, source, ...(options.linkModules ? { links: namingLinks(syntax, text) } : {}) }, statements, walked: [], ruleFailed: false };
  }

  const analysis = analyse(syntax, source, config, options);
  const ignoredForFile = options.filePath ? ignoredRulesFor(options.filePath, config) : new Set<string>();
  const compiledSeverity = config.severities.get(syncInCompiledRegion.meta.name);
  // sync-in-compiled-region has no detector of its own: when it is selected, the sync rules run too, and
  // their findings count only where they are re-labelled (inside compiled regions).
  const enabled = (options.rules ?? allRules).filter((rule) => options.rules || config.severities.has(rule.meta.name) || (compiledSeverity && rule.meta.hotPathOnly));
  const strict = config.preset === "strict";
  // Tests run once per test, and export code once per export, not once per training step: under `recommended`
  // they have no hot paths.
  const checksCasesOnce = inferenceScript(options.filePath, text);
  const oncePerUse = runsOncePerUse(options.filePath, checksCasesOnce);
  // Per node type: the check for what Python rejects there and tree-sitter accepted (if any), and the rules' visitors.
  // `rules`: every rule's visitor of the type; `coldRules`: those of rules that report outside hot paths too,
  // all that can report in a function that never runs hot (`coldThroughout`) unless the preset is strict.
  type Visitors = Array<{ rule: Rule; visit: (node: SyntaxNode) => void }>;
  const visitorsByType = new Map<string, { pythonOnly?: PythonOnlyCheck; rules: Visitors; coldRules: Visitors }>();
  for (const [type, check] of Object.entries(PYTHON_ONLY_CHECKS)) visitorsByType.set(type, { pythonOnly: check, rules: [], coldRules: [] });
  const failedRules = new Set<Rule>();
  /** The statement being walked: what rules report goes to its lint. */
  let current: StatementLint = { findings: [], pythonOnly: [] };

  for (const rule of enabled) {
    const context: RuleContext = {
      analysis,
      importsTorch: analysis.importsTorch,
      runsOncePerUse: oncePerUse,
      text: (node) => text.slice(node.start, node.end),
      report: (descriptor) => report(rule, descriptor),
    };
    try {
      const visitor: Visitor = rule.create(context);
      for (const [type, visit] of Object.entries(visitor)) {
        if (!visit) continue;
        const entry = visitorsByType.get(type) ?? { rules: [], coldRules: [] };
        entry.rules.push({ rule, visit });
        if (!rule.meta.hotPathOnly) entry.coldRules.push({ rule, visit });
        visitorsByType.set(type, entry);
      }
    } catch (error) {
      ruleFailed(rule, error, syntax.root);
    }
  }

  function report(rule: Rule, descriptor: ReportDescriptor): void {
    // A project that never puts anything on a GPU: every sync waits for nothing.
    if (!strict && analysis.hostOnlyProject) return;
    const site = analysis.contextOf(descriptor.node);
    if (rule.meta.hotPathOnly && !strict) {
      if (!site.hot || oncePerUse || (checksCasesOnce && site.plainLoop)) return;
      // A loop that is not a step loop (over a state dict, a list of metrics) is hot only for values known to be on a
      // GPU, or known to be tensors where autograd is off (a model's outputs being post-processed).
      if (site.plainLoop && descriptor.evidence?.kind !== "gpu" && !(site.withoutGrad && descriptor.evidence?.kind === "tensor")) return;
    }
    if (!strict && descriptor.evidence && descriptor.evidence.kind !== "gpu" && !analysis.assumesGpu(descriptor.node)) return;
    const range = descriptor.range ?? { start: descriptor.node.start, end: descriptor.node.end };
    let reporting = rule;
    let message = fill(rule.meta.messages[descriptor.messageId] ?? descriptor.messageId, descriptor.data ?? {}, site);
    const relabel = site.compiled === "cuda-graph" || (site.compiled === "torch.compile" && rule.meta.breaksCompiledGraph);
    if (relabel && compiledSeverity) {
      reporting = syncInCompiledRegion;
      const nodeText = text.slice(descriptor.node.start, descriptor.node.end).replace(/\s+/g, " ");
      const hazard = nodeText.length > 50 ? `${nodeText.slice(0, 49)}…` : nodeText;
      message = fill(syncInCompiledRegion.meta.messages[site.compiled === "cuda-graph" ? "graph" : "compiled"], { hazard, rule: rule.meta.name }, site);
    }
    const severity = reporting === syncInCompiledRegion ? compiledSeverity : options.rules ? reporting.meta.defaultSeverity : config.severities.get(reporting.meta.name);
    if (!severity) return;
    if (ignoredForFile.has(reporting.meta.name) || ignoredForFile.has(rule.meta.name)) return;
    current.findings.push({
      rule: reporting.meta.name,
      code: reporting.meta.code,
      detectedBy: reporting === rule ? undefined : rule.meta.name,
      severity,
      message,
      ...locate(range.start, range.end),
      hot: site.hot,
      // A finding outlives its syntax tree (the server keeps findings, not trees): no node references in it.
      context: withoutNodes(site),
      evidence: descriptor.evidence,
      // The metadata is the contract (ESLint enforces the same): a rule offers only the kinds of fix it declares.
      fixes: (descriptor.fixes ?? []).filter((fix) => (fix.safe ? rule.meta.fixable : rule.meta.hasSuggestions)),
    });
  }

  function ruleFailed(rule: Rule, error: unknown, node: SyntaxNode): void {
    if (failedRules.has(rule)) return;
    failedRules.add(rule);
    const detail = error instanceof Error ? error.message : String(error);
    problems.push({ kind: "rule-error", rule: rule.meta.name, message: `Rule \`${rule.meta.name}\` failed on this file and was skipped: ${detail}`, severity: "error", ...locate(node.start, node.start) });
  }

  // One iterative walk per statement, which also finds what Python rejects and tree-sitter accepts; a rule
  // that throws is reported once and skipped for the rest of the file.
  // It runs for every node of every walked statement: indexed, and no set lookup until a rule has failed.
  const visit = (node: SyntaxNode, cold: boolean) => {
    const entry = visitorsByType.get(node.type);
    if (entry === undefined) return;
    if (entry.pythonOnly) {
      const problem = entry.pythonOnly(node, text);
      if (problem) current.pythonOnly.push(problem);
    }
    const visitors = cold ? entry.coldRules : entry.rules;
    for (let i = 0; i < visitors.length; i++) {
      const { rule, visit } = visitors[i];
      if (failedRules.size > 0 && failedRules.has(rule)) continue;
      try {
        visit(node);
      } catch (error) {
        ruleFailed(rule, error, node);
      }
    }
  };
  // What `report` would drop is not looked for: under `recommended`, hot-path rules report nothing in a test (or export)
  // file or in a function that never runs hot, and asking them costs their evidence questions.
  const hotRulesEverywhereCold = !strict && oncePerUse;
  // Should the analysis fail on this function, its rules are asked anyway: each rule that fails then is reported
  // by name and the rest still report, as for a rule that throws; the file is not lost.
  const coldThroughout = (fn: SyntaxNode) => {
    try {
      return analysis.hotPaths.coldThroughout(fn);
    } catch {
      return false;
    }
  };
  const walk = (root: SyntaxNode) => {
    const stack: SyntaxNode[] = [root];
    const coldStack: boolean[] = [hotRulesEverywhereCold];
    while (stack.length > 0) {
      const node = stack.pop()!;
      let cold = coldStack.pop()!;
      visit(node, cold);
      if (!strict && !oncePerUse) {
        if (node.type === "function_definition") cold = coldThroughout(node);
        else if (node.type === "class_definition") cold = false;
      }
      for (let i = node.children.length - 1; i >= 0; i--) {
        stack.push(node.children[i]);
        coldStack.push(cold);
      }
    }
  };
  const rootLint = current;
  visit(syntax.root, hotRulesEverywhereCold);
  const findings: Finding[] = [...rootLint.findings];
  const pythonOnly: SyntaxProblem[] = [...rootLint.pythonOnly];
  const walked: SyntaxNode[] = [];
  // Indexed loops: this one runs per keystroke over every statement, often before V8 has optimised it, and
  // unoptimised for-of loops allocate an iterator per array.
  const topLevel = syntax.root.children;
  for (let i = 0; i < topLevel.length; i++) {
    const statement = topLevel[i];
    let lint = statements.get(statement);
    // A kept lint has its offsets moved with the text; its lines and columns are found again.
    if (!lint) {
      current = lint = { findings: [], pythonOnly: [] };
      walk(statement);
      walked.push(statement);
      statements.set(statement, lint);
    } else if (lint.findings.length > 0) {
      lint = { findings: lint.findings.map((finding) => ({ ...finding, ...locate(finding.start, finding.end) })), pythonOnly: lint.pythonOnly };
      statements.set(statement, lint);
    }
    for (let k = 0; k < lint.pythonOnly.length; k++) pythonOnly.push(lint.pythonOnly[k]);
    for (let k = 0; k < lint.findings.length; k++) {
      const finding = lint.findings[k];
      const names = finding.detectedBy ? [finding.rule, finding.detectedBy] : [finding.rule];
      if (!isSuppressed(suppressions, names, finding.line - 1, finding.endLine - 1)) findings.push(finding);
    }
  }
  reportSyntaxProblems(pythonOnly);

  if (options.reportUnusedSuppressions) {
    for (const suppression of suppressions.all) {
      if (suppression.used.size > 0 && suppression.unknown.length === 0) continue;
      const label = suppression.style === "noqa" ? "`# noqa`" : "`# synclint: ignore`";
      const what = suppression.unknown.length > 0 ? `names unknown rules (${suppression.unknown.join(", ")})` : "suppresses nothing on this line";
      if (suppression.used.size > 0 && suppression.unknown.length > 0) {
        problems.push({ kind: "unused-suppression", message: `Suppression ${label} ${what}`, severity: "warning", ...locate(suppression.start, suppression.end) });
        continue;
      }
      problems.push({ kind: "unused-suppression", message: `Unused suppression: ${label} ${what}`, severity: "warning", ...locate(suppression.start, suppression.end) });
    }
  }

  findings.sort((a, b) => a.start - b.start || a.rule.localeCompare(b.rule));
  problems.sort((a, b) => a.start - b.start);
  const links = options.linkModules ? linksOf(analysis, options.filePath) : undefined;
  return { result: { findings, problems, source, ...(links ? { links } : {}) }, statements, walked, analysis, ruleFailed: failedRules.size > 0 };
}

/**
 * What `lintSyntaxTree(..., { linkModules: true }).links` is, without running the rules: the calls the file's
 * hot paths make into the project (for the server's workspace index, which needs only these).
 */
export function projectLinks(text: string, syntax: SyntaxTree, options: LintOptions = {}): ModuleLinks {
  const source = options.source?.text === text ? options.source : new SourceText(text);
  if (parseSuppressions(syntax.comments, source).disableFile) return namingLinks(syntax, text);
  return linksOf(analyse(syntax, source, options.config ?? resolveConfig({}, process.cwd()), options), options.filePath);
}

function analyse(syntax: SyntaxTree, source: SourceText, config: ResolvedConfig, options: LintOptions): FileAnalysis {
  return new FileAnalysis(syntax, source, {
    extraStepFunctions: config.extraStepFunctions,
    statementsMentioning: options.statementsMentioning,
    statementsBinding: options.statementsBinding,
    hotEntries: options.hotEntries,
  });
}

/**
 * A test calls what it tests once per test (an export, once per export), not once per step: its calls make
 * nothing hot. Every file's names count, a test's and a disabled file's too: what they name is used.
 */
function linksOf(analysis: FileAnalysis, filePath: string | undefined): ModuleLinks {
  // Where the file moves the batches of a loader that a call returns: `dataloader-pin-memory`'s own search.
  const context: RuleContext = { analysis, importsTorch: analysis.importsTorch, runsOncePerUse: false, text: (node) => analysis.text(node), report: () => undefined };
  const links = runsOncePerUse(filePath, inferenceScript(filePath, analysis.source.text)) ? NO_LINKS : moduleLinks(analysis, (call) => deviceMoveOfBatches(call, context)?.node);
  return { ...links, ...namesOfClasses(analysis.tree.root, analysis.source.text) };
}

function namingLinks(syntax: SyntaxTree, text: string): ModuleLinks {
  return { ...NO_LINKS, ...namesOfClasses(syntax.root, text) };
}

/** A test, or export code (`inference`: the file is an inference script named for a test run, so no test). */
function runsOncePerUse(filePath: string | undefined, inference: boolean): boolean {
  if (!filePath) return false;
  const path = filePath.split(/[\\/]/).join("/");
  if (EXPORT_FILE.test(path) || TEST_DIRECTORY.test(path)) return true;
  return TEST_FILE.test(path) && !inference;
}

/**
 * A script named for a test run (`test_inference_gnn.py`, KAIR's `main_test_swinir.py`, SlowFast's
 * `tools/test_net.py`, which its `run_net.py` calls; not `*_tests.py`) that holds no test (no pytest, unittest or
 * absltest, no `test_` function, no `Test` class): an inference or evaluation script. Its step loops over the
 * data run per batch; its other loops check a few cases once.
 */
function inferenceScript(filePath: string | undefined, text: string): boolean {
  return !!filePath && TEST_SCRIPT_NAME.test(filePath.split(/[\\/]/).join("/")) && !TEST_FRAMEWORK.test(text);
}

/**
 * The facts about the whole text that any statement's lint may read: flags drawn from the text, the line
 * ending fixes copy, whether fixes must add `import torch`, whether a file named for a test run is an inference
 * script (asked of the text only for such names). When one changes, every statement is linted again.
 */
export function fileFacts(text: string, filePath?: string): string {
  const flags = textFlags(text);
  // Option defaults (`add_argument("--save-txt", action="store_true")`) decide branches of other statements; so
  // may a write to an attribute of another object, or a `setattr`, which unsettles an object's options.
  return [flags.importsTorch, flags.mentionsDevice, flags.defaultDeviceChanged, flags.mayUseGpu, bindsTorch(text), lineEnding(text), optionLines(text), inferenceScript(filePath, text), otherObjectsWrites(text)].join(",");
}

/** The attributes written on objects other than `self` (`loss.autobalance = True`), and how many `setattr` calls. */
function otherObjectsWrites(text: string): string {
  const names = new Set<string>();
  for (const write of attributeWrites(text)) if (write.owner !== "self") names.add(write.attribute);
  return `${[...names].sort().join(" ")};${text.split("setattr(").length - 1}`;
}

export interface SyntaxProblem {
  offset: number;
  kind: string;
}

function pythonOnlyProblems(root: SyntaxNode, text: string): SyntaxProblem[] {
  const found: SyntaxProblem[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const problem = pythonOnlyProblem(node, text);
    if (problem) found.push(problem);
    for (const child of node.children) stack.push(child);
  }
  return found;
}

type PythonOnlyCheck = (node: SyntaxNode, text: string) => SyntaxProblem | undefined;

/** What tree-sitter's error-tolerant grammar accepts and Python 3 rejects, by node type: empty blocks and Python 2 statements. */
const PYTHON_ONLY_CHECKS: Record<string, PythonOnlyCheck> = {
  block: (node) => (node.children.length === 0 ? { offset: node.start, kind: "empty-block" } : undefined),
  print_statement: (node) => ({ offset: node.start, kind: "python2" }),
  exec_statement: (node) => ({ offset: node.start, kind: "python2" }),
  except_clause: (node) => (node.children.filter((c) => c.field === "value").length > 1 ? { offset: node.start, kind: "python2" } : undefined),
  // `x` (repr)
  string: (node, text) => (text.charCodeAt(node.start) === 96 ? { offset: node.start, kind: "python2" } : undefined),
};

function pythonOnlyProblem(node: SyntaxNode, text: string): SyntaxProblem | undefined {
  return Object.prototype.hasOwnProperty.call(PYTHON_ONLY_CHECKS, node.type) ? PYTHON_ONLY_CHECKS[node.type](node, text) : undefined;
}

function describeProblem(kind: string): string {
  if (kind === "ERROR") return "invalid syntax";
  if (kind === "empty-block") return "expected an indented block";
  if (kind === "python2") return "Python 2 syntax (synclint reads Python 3)";
  if (kind === "_dedent" || kind === "_indent" || kind === "_newline") return "unexpected indentation";
  return `expected \`${kind.replace(/^_/, "")}\``;
}

function withoutNodes(site: SiteContext): SiteContext {
  if (!site.loop) return site;
  const { loop: _loop, ...rest } = site;
  return rest;
}

const TEST_DIRECTORY = /(^|\/)(tests?|testing)\/|(^|\/)conftest\.py$/;
const TEST_FILE = /(^|\/)test_[^/]*\.py$|_tests?(_[^/]*)?\.py$/;
const TEST_SCRIPT_NAME = /(^|\/)test_[^/]*\.py$|_test(_[^/]*)?\.py$/;
const TEST_FRAMEWORK = /^\s*(import\s+(pytest|unittest)\b|from\s+(pytest|unittest|absl\.testing|torch\.testing\._internal)\b)|^\s*def\s+test_|^\s*class\s+Test/m;
/** Code that traces or converts a model for export (ONNX, TorchScript, ExecuTorch, Caffe2): run once per export. */
const EXPORT_FILE = /(^|\/)_?(export|onnx)\/|(^|\/)[^/]*onnx[^/]*\.py$|(^|\/)_?export[^/]*\.py$/i;

function fill(template: string, data: Record<string, string>, site: SiteContext): string {
  const values: Record<string, string> = { where: site.where, frequency: site.frequency, ...data };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? "");
}
