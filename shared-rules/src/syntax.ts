/**
 * A plain JavaScript copy of the named nodes of a tree-sitter tree.
 *
 * Rules and the analysis ask many questions of the same nodes (parent chains, children by field); every
 * question asked of a web-tree-sitter node crosses into WASM, so we copy the tree once, using numeric type
 * and field ids to avoid marshalling strings, and answer everything else in JavaScript.
 * Offsets are UTF-16 code units (JavaScript string indices), as web-tree-sitter reports them.
 */
import type { Tree, TreeWalk } from "./parser";
import { parsePython, pythonLanguage, walkTree } from "./parser";

export interface SyntaxNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  /** The field this node fills in its parent (`function`, `body`, `condition`, ...), if any. */
  readonly field: string | null;
  readonly parent: SyntaxNode | null;
  /** Named children except comments, in source order. */
  readonly children: SyntaxNode[];
  /** Operator tokens in source order, kept only for operator nodes (`+`, `%`, `is not`, `and`, `+=`). */
  readonly tokens: string[];
}

export interface ParseProblem {
  offset: number;
  /** "ERROR" for a region tree-sitter could not parse, otherwise the token it expected. */
  kind: string;
}

export interface SyntaxTree {
  root: SyntaxNode;
  comments: SyntaxNode[];
  /** Where the source fails to parse, in source order; empty for valid Python. */
  problems: ParseProblem[];
  /** Tells trees apart: a tree built by `spliceSyntaxTree` names the tree it reused statements of. */
  readonly id: number;
  /** The tree whose unchanged top-level statements this one reuses (by id), and the region parsed again. */
  readonly derivedFrom?: { id: number; change: TextChange };
}

let treesBuilt = 0;

/**
 * Where a top-level statement's nodes are: their offsets are kept relative to an anchor shared by the whole
 * statement, so that moving a statement after an edit is one addition, not a walk over its nodes.
 */
interface Anchor {
  offset: number;
}

class MutableNode implements SyntaxNode {
  // Assigned in the constructor only (no class-field definitions): one hidden class, built as fast as a literal.
  declare readonly type: string;
  declare relativeStart: number;
  declare relativeEnd: number;
  declare readonly field: string | null;
  declare parent: MutableNode | null;
  declare readonly children: MutableNode[];
  declare readonly tokens: string[];
  declare readonly anchor: Anchor;

  constructor(type: string, relativeStart: number, relativeEnd: number, field: string | null, parent: MutableNode | null, tokens: string[], anchor: Anchor) {
    this.type = type;
    this.relativeStart = relativeStart;
    this.relativeEnd = relativeEnd;
    this.field = field;
    this.parent = parent;
    this.children = [];
    this.tokens = tokens;
    this.anchor = anchor;
  }

  get start(): number {
    return this.relativeStart + this.anchor.offset;
  }

  get end(): number {
    return this.relativeEnd + this.anchor.offset;
  }
}

const ERROR_TYPE_ID = 0xffff;
/** Nodes whose anonymous tokens the analysis reads; everything else shares one empty list (fewer allocations). */
const OPERATOR_TYPES = new Set(["binary_operator", "comparison_operator", "boolean_operator", "unary_operator", "augmented_assignment", "not_operator"]);
const NO_TOKENS: string[] = Object.freeze([]) as unknown as string[];

let typeNames: string[] | undefined;
let typeIsNamed: boolean[] | undefined;
let fieldNames: (string | null)[] | undefined;

function languageTables(): void {
  if (typeNames) return;
  const language = pythonLanguage();
  typeNames = [];
  typeIsNamed = [];
  for (let id = 0; id < language.nodeTypeCount; id++) {
    typeNames[id] = language.nodeTypeForId(id) ?? "";
    typeIsNamed[id] = language.nodeTypeIsNamed(id);
  }
  fieldNames = [null];
  for (let id = 1; id <= language.fieldCount; id++) fieldNames[id] = language.fieldNameForId(id);
}

interface Sinks {
  comments: SyntaxNode[];
  problems: ParseProblem[];
  /** MISSING nodes only exist in trees with errors; asking every node costs a WASM call each. */
  mayHaveMissing: boolean;
}

/**
 * Copies the children of the node under `cursor` (and all their descendants) into `parent`, with one
 * iterative walk (deep nesting is safe). Leaves the cursor on the node it started on.
 */
function copyChildren(cursor: TreeWalk, parent: MutableNode, sinks: Sinks): void {
  const names = typeNames!;
  const named = typeIsNamed!;
  const fields = fieldNames!;
  if (!cursor.gotoFirstChild()) return;
  const stack: MutableNode[] = [parent];
  for (;;) {
    const typeId = cursor.nodeTypeId;
    const owner = stack[stack.length - 1];
    let node: MutableNode | null = null;
    // ERROR nodes carry tree-sitter's reserved symbol id, outside the language's type table.
    const isError = typeId === ERROR_TYPE_ID;
    const type = isError ? "ERROR" : names[typeId];
    const missing = sinks.mayHaveMissing && cursor.nodeIsMissing;
    // A missing token is a problem; a missing named node (the `attribute` of `x.()`) is also kept, empty, so
    // that every node has the fields its type promises.
    if (missing) sinks.problems.push({ offset: cursor.startIndex, kind: type });
    if (missing && !named[typeId]) {
      // nothing to keep
    } else if (isError || named[typeId]) {
      // Each top-level statement and each comment moves on its own anchor; other nodes share their owner's.
      const anchor = type === "comment" || owner.parent === null ? { offset: 0 } : owner.anchor;
      node = new MutableNode(type, cursor.startIndex, cursor.endIndex, fields[cursor.currentFieldId] ?? null, owner, OPERATOR_TYPES.has(type) ? [] : NO_TOKENS, anchor);
      if (type === "comment") sinks.comments.push(node);
      else owner.children.push(node);
      if (isError) sinks.problems.push({ offset: node.start, kind: "ERROR" });
    } else if (owner.tokens !== NO_TOKENS) {
      owner.tokens.push(type);
    }
    if (node && cursor.gotoFirstChild()) {
      stack.push(node);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      cursor.gotoParent();
      stack.pop();
      if (stack.length === 0) return;
    }
  }
}

function rootOf(cursor: TreeWalk): MutableNode {
  return new MutableNode(cursor.nodeTypeId === ERROR_TYPE_ID ? "ERROR" : typeNames![cursor.nodeTypeId], cursor.startIndex, cursor.endIndex, null, null, NO_TOKENS, { offset: 0 });
}

function finish(root: MutableNode, comments: SyntaxNode[], problems: ParseProblem[], derivedFrom?: SyntaxTree["derivedFrom"]): SyntaxTree {
  if (root.type === "ERROR" && problems.length === 0) problems.push({ offset: root.start, kind: "ERROR" });
  problems.sort((a, b) => a.offset - b.offset);
  comments.sort((a, b) => a.start - b.start);
  return { root, comments, problems, id: ++treesBuilt, derivedFrom };
}

/** Copies a tree-sitter tree into plain objects. */
export function buildSyntaxTree(tree: Tree): SyntaxTree {
  languageTables();
  // Asked before the walk starts: no other tree-sitter call may run during it.
  const sinks: Sinks = { comments: [], problems: [], mayHaveMissing: tree.rootNode.hasError };
  const cursor = walkTree(tree);
  try {
    const root = rootOf(cursor);
    copyChildren(cursor, root, sinks);
    return finish(root, sinks.comments, sinks.problems);
  } finally {
    cursor.delete();
  }
}

/** Parses `text` and copies its tree (the tree-sitter tree is freed at once). */
export function parseSyntaxTree(text: string): SyntaxTree {
  const tree = parsePython(text);
  try {
    return buildSyntaxTree(tree);
  } finally {
    tree.delete();
  }
}

/** One text edit: the old text's `[start, oldEnd)` became the new text's `[start, newEnd)`. */
export interface TextChange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * The syntax tree of `text` after `edit`, built by parsing only the top-level statements around the edit
 * (with one more on each side) as a text of their own, and keeping every other statement of `previous`
 * (shifted by the edit's length change when after it). Top-level statements start at column 0 with nothing
 * open, so a region that parses cleanly parses the same inside the file; when the region does not parse
 * cleanly, the result has problems (a fresh parse of the whole text may recover from them differently). Gives
 * undefined when the region cannot be cut at statement starts; then parse the whole text.
 */
export function spliceSyntaxTree(previous: SyntaxTree, text: string, edit: TextChange): SyntaxTree | undefined {
  const root = previous.root;
  const statements = root.children;
  const delta = edit.newEnd - edit.oldEnd;
  const oldLength = text.length - delta;
  if (root.type !== "module" || root.end !== oldLength) return undefined;
  // Statements touching the edit, then one more on each side: comments and blank lines after a statement
  // can belong to it, and an edit between two statements may join them.
  let first = 0;
  while (first < statements.length && statements[first].end < edit.start) first++;
  let last = statements.length - 1;
  while (last >= 0 && statements[last].start > edit.oldEnd) last--;
  let from = Math.max(0, Math.min(first, last + 1) - 1);
  let to = Math.min(statements.length - 1, Math.max(last, first - 1) + 1);
  // The region's ends must be statements that start a line (an ERROR may start mid-line).
  const oldCode = (offset: number) => (offset < edit.start ? text.charCodeAt(offset) : text.charCodeAt(offset + delta));
  const startsLine = (statement: SyntaxNode) => startsLogicalLine(oldCode, statement.start);
  while (from > 0 && !startsLine(statements[from])) from--;
  while (to + 1 < statements.length && !startsLine(statements[to + 1])) to++;
  const regionStart = from === 0 ? 0 : statements[from].start;
  const oldRegionEnd = to + 1 < statements.length ? statements[to + 1].start : oldLength;
  const regionEnd = oldRegionEnd + delta;
  if (regionStart > edit.start || oldRegionEnd < edit.oldEnd || regionEnd < regionStart) return undefined;
  const newCode = (offset: number) => text.charCodeAt(offset);
  if (!startsLogicalLine(newCode, regionStart) || (regionEnd < text.length && !startsLogicalLine(newCode, regionEnd))) return undefined;

  const region = parseSyntaxTree(text.slice(regionStart, regionEnd));
  if (region.root.type !== "module") return undefined;

  const spliced = new MutableNode("module", 0, text.length, null, null, NO_TOKENS, { offset: 0 });
  const comments: SyntaxNode[] = [];
  const problems: ParseProblem[] = [];
  for (let i = 0; i < from; i++) keep(statements[i], 0);
  for (const statement of region.root.children) keep(statement, regionStart);
  for (let i = to + 1; i < statements.length; i++) keep(statements[i], delta);
  for (const comment of previous.comments) {
    if (comment.end <= regionStart) comments.push(comment);
    else if (comment.start >= oldRegionEnd) comments.push(shifted(comment, delta));
  }
  for (const comment of region.comments) comments.push(shifted(comment, regionStart));
  for (const problem of previous.problems) {
    if (problem.offset < regionStart) problems.push(problem);
    // At the region's end is the next statement's start, unless the region reached the end of the text.
    else if (problem.offset > oldRegionEnd || (problem.offset === oldRegionEnd && oldRegionEnd < oldLength)) problems.push({ offset: problem.offset + delta, kind: problem.kind });
  }
  for (const problem of region.problems) problems.push({ offset: problem.offset + regionStart, kind: problem.kind });
  // The module starts at its first token, as tree-sitter reports it.
  let firstToken = spliced.children[0]?.start ?? text.length;
  for (const comment of comments) firstToken = Math.min(firstToken, comment.start);
  spliced.relativeStart = spliced.children.length === 0 && comments.length === 0 ? region.root.start + regionStart : firstToken;
  return finish(spliced, comments, problems, { id: previous.id, change: { start: regionStart, oldEnd: oldRegionEnd, newEnd: regionEnd } });

  function keep(statement: SyntaxNode, shift: number): void {
    (statement as MutableNode).anchor.offset += shift;
    (statement as MutableNode).parent = spliced;
    spliced.children.push(statement as MutableNode);
  }
}

/** A top-level statement or a comment, moved by `shift` (its anchor is its own). */
function shifted(node: SyntaxNode, shift: number): SyntaxNode {
  (node as MutableNode).anchor.offset += shift;
  return node;
}

/** Does a logical line start at `offset`: after a line break (a lone `\r` too) that no backslash escapes? */
function startsLogicalLine(code: (offset: number) => number, offset: number): boolean {
  if (offset === 0) return true;
  const before = code(offset - 1);
  let lineBreak = offset - 1;
  if (before === 10) {
    if (offset >= 2 && code(offset - 2) === 13) lineBreak = offset - 2;
  } else if (before !== 13 || code(offset) === 10) return false;
  // `\` before the line break joins the next line to this one.
  return lineBreak === 0 || code(lineBreak - 1) !== 92;
}

export function childByField(node: SyntaxNode, field: string): SyntaxNode | undefined {
  for (const child of node.children) if (child.field === field) return child;
  return undefined;
}

export function childrenByField(node: SyntaxNode, field: string): SyntaxNode[] {
  return node.children.filter((child) => child.field === field);
}

export function childOfType(node: SyntaxNode, type: string): SyntaxNode | undefined {
  for (const child of node.children) if (child.type === type) return child;
  return undefined;
}

/** True when `inner` lies within `outer` (or is it). */
export function contains(outer: SyntaxNode, inner: SyntaxNode): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** Visits every node depth-first in source order without recursion. */
export function forEachNode(root: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

/** Strips redundant parentheses: `((x))` is `x`. */
export function unparenthesized(node: SyntaxNode): SyntaxNode {
  let current = node;
  while (current.type === "parenthesized_expression" && current.children.length === 1) current = current.children[0];
  return current;
}
