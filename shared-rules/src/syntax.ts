/**
 * A plain JavaScript copy of the named nodes of a tree-sitter tree.
 *
 * Rules and the analysis ask many questions of the same nodes (parent chains, children by field); every
 * question asked of a web-tree-sitter node crosses into WASM, so we copy the tree once, using numeric type
 * and field ids to avoid marshalling strings, and answer everything else in JavaScript.
 * Offsets are UTF-16 code units (JavaScript string indices), as web-tree-sitter reports them.
 */
import type { Tree, TreeWalk } from "./parser";
import { pythonLanguage, walkTree } from "./parser";

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
  /** Tells trees apart: a tree built by `updateSyntaxTree` names the tree it reused statements of. */
  readonly id: number;
  /** The tree whose unchanged top-level statements this one reuses (by id), and where the text changed. */
  readonly derivedFrom?: { id: number; change: SyntaxChange };
}

let treesBuilt = 0;

interface MutableNode {
  type: string;
  start: number;
  end: number;
  field: string | null;
  parent: MutableNode | null;
  children: MutableNode[];
  tokens: string[];
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
    if (sinks.mayHaveMissing && cursor.nodeIsMissing) {
      sinks.problems.push({ offset: cursor.startIndex, kind: type });
    } else if (isError || named[typeId]) {
      node = {
        type,
        start: cursor.startIndex,
        end: cursor.endIndex,
        field: fields[cursor.currentFieldId] ?? null,
        parent: owner,
        children: [],
        tokens: OPERATOR_TYPES.has(type) ? [] : NO_TOKENS,
      };
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
  return {
    type: cursor.nodeTypeId === ERROR_TYPE_ID ? "ERROR" : typeNames![cursor.nodeTypeId],
    start: cursor.startIndex,
    end: cursor.endIndex,
    field: null,
    parent: null,
    children: [],
    tokens: NO_TOKENS,
  };
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

/** Where the text changed since `previous` was built: the new text's `[start, end)` and the length change. */
export interface SyntaxChange {
  start: number;
  end: number;
  delta: number;
}

/**
 * The syntax tree of an incrementally re-parsed text, reusing the top-level statements of `previous` that lie
 * outside the change (shifted by `delta` when after it) and copying only the ones that changed. A statement is
 * reused only when tree-sitter reports the same type and the same (shifted) range for it.
 */
export function updateSyntaxTree(tree: Tree, previous: SyntaxTree, change: SyntaxChange): SyntaxTree {
  languageTables();
  const names = typeNames!;
  const oldByStart = new Map<number, SyntaxNode>();
  for (const child of previous.root.children) oldByStart.set(child.start, child);
  // Asked before the walk starts: no other tree-sitter call may run during it.
  const sinks: Sinks = { comments: [], problems: [], mayHaveMissing: tree.rootNode.hasError };
  const cursor = walkTree(tree);
  const reused: Array<{ node: SyntaxNode; shift: number }> = [];
  try {
    const root = rootOf(cursor);
    if (root.type !== "module" || !cursor.gotoFirstChild()) {
      cursor.delete();
      return buildSyntaxTree(tree);
    }
    do {
      const typeId = cursor.nodeTypeId;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      const type = typeId === ERROR_TYPE_ID ? "ERROR" : names[typeId];
      const before = end < change.start;
      const after = start > change.end;
      const shift = after ? change.delta : 0;
      const old = before || after ? oldByStart.get(start - shift) : undefined;
      if (old && old.type === type && old.end === end - shift && type !== "comment" && type !== "ERROR") {
        shiftSubtree(old as MutableNode, shift);
        (old as MutableNode).parent = root;
        root.children.push(old as MutableNode);
        reused.push({ node: old, shift });
        continue;
      }
      const node = cursorNode(cursor, root);
      if (!node) {
        if (sinks.mayHaveMissing && cursor.nodeIsMissing) sinks.problems.push({ offset: start, kind: type });
        else if (root.tokens !== NO_TOKENS) root.tokens.push(type);
        continue;
      }
      if (node.type === "comment") sinks.comments.push(node);
      else root.children.push(node);
      if (node.type === "ERROR") sinks.problems.push({ offset: node.start, kind: "ERROR" });
      copyChildren(cursor, node, sinks);
    } while (cursor.gotoNextSibling());
    // Comments and parse problems inside reused statements move with them.
    carryOver(previous, reused, sinks);
    return finish(root, sinks.comments, sinks.problems, { id: previous.id, change: { ...change } });
  } finally {
    cursor.delete();
  }
}

interface MutableNodeShift {
  start: number;
  end: number;
  children: MutableNodeShift[];
}

function shiftSubtree(root: MutableNodeShift, delta: number): void {
  if (delta === 0) return;
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.start += delta;
    node.end += delta;
    for (const child of node.children) stack.push(child);
  }
}

function cursorNode(cursor: TreeWalk, parent: MutableNode): MutableNode | null {
  const typeId = cursor.nodeTypeId;
  const isError = typeId === ERROR_TYPE_ID;
  if (!isError && !typeIsNamed![typeId]) return null;
  if (cursor.nodeIsMissing) return null;
  const type = isError ? "ERROR" : typeNames![typeId];
  return { type, start: cursor.startIndex, end: cursor.endIndex, field: fieldNames![cursor.currentFieldId] ?? null, parent, children: [], tokens: OPERATOR_TYPES.has(type) ? [] : NO_TOKENS };
}

/** Comments and problems of `previous` that lie inside reused statements, shifted like them. */
function carryOver(previous: SyntaxTree, reused: Array<{ node: SyntaxNode; shift: number }>, sinks: Sinks): void {
  // Old ranges of the reused statements, in source order, to find what each old offset belonged to.
  const ranges = reused.map(({ node, shift }) => ({ start: node.start - shift, end: node.end - shift, shift }));
  const shiftAt = (offset: number): number | undefined => {
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const range = ranges[middle];
      if (offset < range.start) high = middle - 1;
      else if (offset >= range.end) low = middle + 1;
      else return range.shift;
    }
    return undefined;
  };
  for (const comment of previous.comments) {
    const shift = shiftAt(comment.start);
    if (shift === undefined) continue;
    shiftSubtree(comment as unknown as MutableNodeShift, shift);
    sinks.comments.push(comment);
  }
  for (const problem of previous.problems) {
    const shift = shiftAt(problem.offset);
    if (shift !== undefined) sinks.problems.push({ offset: problem.offset + shift, kind: problem.kind });
  }
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
