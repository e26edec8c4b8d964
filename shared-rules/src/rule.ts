/**
 * What a rule is: ESLint-style `meta` (everything a user or a tool needs without running the rule) beside
 * `create(context)`, which returns a visitor keyed by tree-sitter node type.
 */
import type { SyntaxNode } from "./syntax";
import type { FileAnalysis } from "./analysis/file-analysis";
import type { Evidence } from "./analysis/tensor-evidence";

export type Severity = "error" | "warning" | "info";

export interface RuleDocs {
  /** Why is this bad? (Markdown) */
  why: string;
  /** Python code that the rule reports. */
  example: string;
  /** The sync-free way to write it. */
  useInstead: string;
  /** What a fix for this rule may and may not change. */
  fixSafety: string;
  /** Sections of `pytorch-sync-facts.md` the rule rests on ("§2 op table: `nonzero`"). */
  facts: string[];
}

export interface RuleMeta {
  /** kebab-case; used in `# synclint: ignore[name]`, configuration and diagnostics. */
  name: string;
  /** Short code for `# noqa: SYNnnn`. */
  code: string;
  category: "host read" | "host-device transfer" | "compiled code";
  defaultSeverity: Severity;
  /** One sentence, shown in rule tables. */
  description: string;
  /** Report only sites that run per step (the `recommended` preset); `strict` reports every site. */
  hotPathOnly: boolean;
  /** Inside `torch.compile`, this hazard is a graph break and is reported as `sync-in-compiled-region`. */
  breaksCompiledGraph: boolean;
  /** The rule can offer safe fixes (applied by `--fix` and fix-all). */
  fixable: boolean;
  /** The rule can offer suggestions (fixes that may change behaviour; `--unsafe-fixes`, code actions). */
  hasSuggestions: boolean;
  docs: RuleDocs;
  /**
   * Messages by id. `{{where}}` and `{{frequency}}` are filled in by the engine from the hot-path
   * analysis; other placeholders come from the report's `data`.
   */
  messages: Record<string, string>;
  /** What happens, layer by layer, when this sync runs (for hovers). */
  mechanism?: string[];
}

/** A replacement of `text[start, end)` (UTF-16 offsets into the linted text). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * A rewrite offered for a finding. Safe fixes are applied by `--fix` and the editor's fix-all; the others are
 * suggestions (code actions, `--unsafe-fixes`). A fix may edit several places (before a loop, inside, after).
 */
export interface Fix {
  /** What the fix does, exactly: "Replace `.item()` accumulation with an on-device accumulator". */
  title: string;
  safe: boolean;
  edits: TextEdit[];
}

export interface ReportDescriptor {
  /** The node the finding is about; hot-path context is computed for it. */
  node: SyntaxNode;
  /** The part of the source to underline (default: the node). */
  range?: { start: number; end: number };
  messageId: string;
  data?: Record<string, string>;
  /** The evidence that the value is a (GPU) tensor, for hovers. */
  evidence?: Evidence;
  /** Rewrites that remove the sync, safest first. */
  fixes?: Fix[];
}

export interface RuleContext {
  readonly analysis: FileAnalysis;
  text(node: SyntaxNode): string;
  /** The file imports torch, so values without evidence may be assumed to be GPU tensors. */
  readonly importsTorch: boolean;
  /** The file holds tests or export code (by its path), which run once per test or export: no loop of it trains. */
  readonly runsOncePerUse: boolean;
  report(descriptor: ReportDescriptor): void;
}

export type Visitor = Partial<Record<string, (node: SyntaxNode) => void>>;

export interface Rule {
  meta: RuleMeta;
  create(context: RuleContext): Visitor;
}
