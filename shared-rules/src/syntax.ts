/**
 * A plain JavaScript copy of the named nodes of a tree-sitter tree.
 *
 * Rules and the analysis ask many questions of the same nodes (parent chains, children by field); every
 * question asked of a web-tree-sitter node crosses into WASM, so we copy the tree once, using numeric type
 * and field ids to avoid marshalling strings, and answer everything else in JavaScript.
 * Offsets are UTF-16 code units (JavaScript string indices), as web-tree-sitter reports them.
 */
import type { Tree } from "./parser";
import { pythonLanguage } from "./parser";

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
}

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

/** Copies a tree-sitter tree into plain objects with one iterative cursor walk (deep nesting is safe). */
export function buildSyntaxTree(tree: Tree): SyntaxTree {
  languageTables();
  const names = typeNames!;
  const named = typeIsNamed!;
  const fields = fieldNames!;
  // MISSING nodes only exist in trees with errors; asking every node costs a WASM call each.
  const mayHaveMissing = tree.rootNode.hasError;
  const cursor = tree.walk();
  const comments: SyntaxNode[] = [];
  const problems: ParseProblem[] = [];
  const root: MutableNode = {
    type: cursor.nodeTypeId === ERROR_TYPE_ID ? "ERROR" : names[cursor.nodeTypeId],
    start: cursor.startIndex,
    end: cursor.endIndex,
    field: null,
    parent: null,
    children: [],
    tokens: [],
  };
  try {
    const stack: MutableNode[] = [root];
    if (cursor.gotoFirstChild()) {
      for (;;) {
        const typeId = cursor.nodeTypeId;
        const parent = stack[stack.length - 1];
        let node: MutableNode | null = null;
        // ERROR nodes carry tree-sitter's reserved symbol id, outside the language's type table.
        const isError = typeId === ERROR_TYPE_ID;
        const type = isError ? "ERROR" : names[typeId];
        if (mayHaveMissing && cursor.nodeIsMissing) {
          problems.push({ offset: cursor.startIndex, kind: type });
        } else if (isError || named[typeId]) {
          node = {
            type,
            start: cursor.startIndex,
            end: cursor.endIndex,
            field: fields[cursor.currentFieldId] ?? null,
            parent,
            children: [],
            tokens: OPERATOR_TYPES.has(type) ? [] : NO_TOKENS,
          };
          if (type === "comment") comments.push(node);
          else parent.children.push(node);
          if (type === "ERROR") problems.push({ offset: node.start, kind: "ERROR" });
        } else if (parent.tokens !== NO_TOKENS) {
          parent.tokens.push(type);
        }
        if (node && cursor.gotoFirstChild()) {
          stack.push(node);
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          cursor.gotoParent();
          stack.pop();
          if (stack.length === 0) break;
        }
        if (stack.length === 0) break;
      }
    }
  } finally {
    cursor.delete();
  }
  if (root.type === "ERROR" && problems.length === 0) problems.push({ offset: root.start, kind: "ERROR" });
  problems.sort((a, b) => a.offset - b.offset);
  return { root, comments, problems };
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
