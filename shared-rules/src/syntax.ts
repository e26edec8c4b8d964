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
  /** Set once by the copy (exact-size arrays), or filled in by the splice (`children` given). */
  declare children: MutableNode[];
  declare readonly tokens: string[];
  declare anchor: Anchor;

  constructor(type: string, relativeStart: number, relativeEnd: number, field: string | null, parent: MutableNode | null, tokens: string[], anchor: Anchor, children: MutableNode[] = []) {
    this.type = type;
    this.relativeStart = relativeStart;
    this.relativeEnd = relativeEnd;
    this.field = field;
    this.parent = parent;
    this.children = children;
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
/** The children of every copied leaf (most nodes): frozen, so that a push into it fails loudly. */
const NO_CHILDREN: MutableNode[] = Object.freeze([]) as unknown as MutableNode[];

let typeNames: string[] | undefined;
let typeIsNamed: boolean[] | undefined;
let fieldNames: (string | null)[] | undefined;

function languageTables(): void {
  if (typeNames) return;
  const language = pythonLanguage();
  typeNames = [];
  typeIsNamed = [];
  for (let id = 0; id < language.nodeTypeCount; id++) {
    typeNames[id] = internalized(language.nodeTypeForId(id) ?? "");
    typeIsNamed[id] = language.nodeTypeIsNamed(id);
  }
  fieldNames = [null];
  for (let id = 1; id <= language.fieldCount; id++) fieldNames[id] = internalized(language.fieldNameForId(id) ?? "");
}

/**
 * The same string, as V8 keeps its literals: web-tree-sitter decodes names from WASM memory into fresh strings,
 * and the analysis compares every node's `type` and `field` with literals (`node.type === "call"`), which for a
 * fresh string means comparing characters; for two internalized strings it is one pointer comparison. V8
 * internalizes the names of an object's properties.
 */
function internalized(name: string): string {
  return Object.keys({ [name]: 0 })[0] ?? name;
}

interface Sinks {
  comments: SyntaxNode[];
  problems: ParseProblem[];
  /** MISSING nodes only exist in trees with errors; asking every node costs a WASM call each. */
  mayHaveMissing: boolean;
}

/**
 * Copies the children of the node under `cursor` (and all their descendants) into `parent`, with one
 * iterative walk (deep nesting is safe). Leaves the cursor on the node it started on. Each node's children are
 * gathered in one shared list and copied out, at their exact count, when the walk leaves the node: an array
 * grown by pushes reserves room for 16, and most nodes have one to three children or none.
 */
function copyChildren(cursor: TreeWalk, parent: MutableNode, sinks: Sinks): void {
  const names = typeNames!;
  const named = typeIsNamed!;
  const fields = fieldNames!;
  parent.children = NO_CHILDREN;
  if (!cursor.gotoFirstChild()) return;
  const stack: MutableNode[] = [parent];
  const gathered: MutableNode[] = [];
  // Where each node of `stack` starts its children in `gathered`.
  const firstChild: number[] = [0];
  const close = () => {
    const owner = stack.pop()!;
    const from = firstChild.pop()!;
    if (gathered.length > from) {
      owner.children = gathered.slice(from);
      gathered.length = from;
    }
  };
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
      node = new MutableNode(type, cursor.startIndex, cursor.endIndex, fields[cursor.currentFieldId] ?? null, owner, OPERATOR_TYPES.has(type) ? [] : NO_TOKENS, anchor, NO_CHILDREN);
      if (type === "comment") sinks.comments.push(node);
      else gathered.push(node);
      if (isError) sinks.problems.push({ offset: node.start, kind: "ERROR" });
    } else {
      if (owner.tokens !== NO_TOKENS) owner.tokens.push(type);
      // A two-word operator (`not in`, `is not`) is one token made of two: either may be missing.
      if (sinks.mayHaveMissing && !missing && cursor.gotoFirstChild()) {
        do {
          if (cursor.nodeIsMissing) sinks.problems.push({ offset: cursor.startIndex, kind: names[cursor.nodeTypeId] });
        } while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
    }
    if (node && cursor.gotoFirstChild()) {
      stack.push(node);
      firstChild.push(gathered.length);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      cursor.gotoParent();
      close();
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

/**
 * Copies a tree-sitter tree into plain objects. `text`, the parsed text, locates the problems that no cursor
 * visits, missing hidden tokens: `x.item()y` parses as two statements with a MISSING `_newline` between them.
 */
export function buildSyntaxTree(tree: Tree, text: string): SyntaxTree {
  languageTables();
  // Asked before the walk starts: no other tree-sitter call may run during it.
  const sinks: Sinks = { comments: [], problems: [], mayHaveMissing: tree.rootNode.hasError };
  const cursor = walkTree(tree);
  try {
    const root = rootOf(cursor);
    copyChildren(cursor, root, sinks);
    if (sinks.mayHaveMissing) {
      for (const offset of missingLineBreaks(root, text)) sinks.problems.push({ offset, kind: "ERROR" });
      // Some other hidden token is missing (an indentation): the error is somewhere, say so at the start.
      if (sinks.problems.length === 0) sinks.problems.push({ offset: root.start, kind: "ERROR" });
    }
    return finish(root, sinks.comments, sinks.problems);
  } finally {
    cursor.delete();
  }
}

/** Where two statements of a module or a block share a line with no `;` between them (the second's start). */
function missingLineBreaks(root: SyntaxNode, text: string): number[] {
  const found: number[] = [];
  forEachNode(root, (node) => {
    if (node.type !== "module" && node.type !== "block") return;
    for (let i = 1; i < node.children.length; i++) {
      if (!/[\n\r;]/.test(text.slice(node.children[i - 1].end, node.children[i].start))) found.push(node.children[i].start);
    }
  });
  return found;
}

/** Parses `text` and copies its tree (the tree-sitter tree is freed at once). */
export function parseSyntaxTree(text: string): SyntaxTree {
  const tree = parsePython(text);
  try {
    return buildSyntaxTree(tree, text);
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
  const inside = spliceInsideElement(previous, text, edit) ?? spliceInsideStatement(previous, text, edit);
  if (inside) return inside;
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
  reparentComments(comments, (parent) => (parent === root || parent === region.root ? spliced : undefined));
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

/** Blocks whose statements may be re-parsed on their own (a `match` body holds `case` clauses, not statements). */
const STATEMENT_BLOCK_OWNERS = new Set(["function_definition", "class_definition", "if_statement", "elif_clause", "else_clause", "for_statement", "while_statement", "try_statement", "except_clause", "except_group_clause", "finally_clause", "with_statement", "case_clause"]);

/**
 * The edit lies inside one statement of a block (a method of a class, a line of a long function): re-parse
 * only that statement and the one before it, not the whole top-level statement, which can be a thousand-line
 * class. They are parsed at their own indentation under one `if 1:` line per enclosing block, so that the
 * parser sees the same indentation levels as in the file. Used only when that
 * parse is clean and gives exactly the region's statements back in the innermost block (an edit that changes
 * indentation, opens a bracket or a string, does not), and when the top-level statement had no syntax
 * problems; otherwise undefined, and the top-level statements around the edit are parsed again.
 *
 * The result has a new node for the top-level statement and for each block and statement on the way down to
 * the re-parsed ones (the incremental linter sees the top-level statement as changed); the other nodes of the
 * statement are kept, those after the edit moved by its length change.
 */
function spliceInsideStatement(previous: SyntaxTree, text: string, edit: TextChange): SyntaxTree | undefined {
  const statements = previous.root.children;
  const delta = edit.newEnd - edit.oldEnd;
  const top = innermostContaining(statements, edit);
  if (!top || previous.problems.some((problem) => problem.offset >= top.start && problem.offset <= top.end)) return undefined;
  // The way down: the deepest block statement that strictly contains the edit, and the blocks above it.
  const path: MutableNode[] = [top as MutableNode];
  let region: { block: MutableNode; index: number } | undefined;
  for (let node: SyntaxNode = top; ; ) {
    const child = node.children.find((c) => c.start <= edit.start && edit.oldEnd <= c.end);
    if (!child) break;
    if (child.type === "block") {
      if (!STATEMENT_BLOCK_OWNERS.has(node.type)) break;
      const statement = innermostContaining(child.children, edit);
      if (!statement) break;
      path.push(child as MutableNode);
      const index = child.children.indexOf(statement);
      // A block's end is where the dedent after it comes, past any comments: only a statement that is not
      // its block's last one can be cut out without it.
      if (index + 1 < child.children.length) region = { block: child as MutableNode, index };
      node = statement;
      path.push(statement as MutableNode);
      continue;
    }
    node = child;
    path.push(child as MutableNode);
  }
  if (!region) return undefined;
  path.length = path.indexOf(region.block) + 1;

  // The old text, as offsets before the edit see it.
  const oldCode = (offset: number) => (offset < edit.start ? text.charCodeAt(offset) : text.charCodeAt(offset + delta));
  // The statement and the one before it, up to the line of the next one (comments between them included).
  const siblings = region.block.children;
  const from = Math.max(0, region.index - 1);
  const to = region.index;
  const regionStart = lineStartBefore(oldCode, siblings[from].start);
  const oldRegionEnd = lineStartBefore(oldCode, siblings[to + 1].start);
  if (regionStart === undefined || oldRegionEnd === undefined || regionStart >= edit.start || oldRegionEnd <= edit.oldEnd) return undefined;
  const regionEnd = oldRegionEnd + delta;
  // The edit may have joined the next line to the region (a backslash at the end of its last line).
  const newCode = (offset: number) => text.charCodeAt(offset);
  if (!startsLogicalLine(oldCode, regionStart) || !startsLogicalLine(oldCode, oldRegionEnd) || !startsLogicalLine(newCode, regionEnd)) return undefined;
  // One `if 1:` per enclosing block, at the indentation of that block's statements.
  let prefix = "";
  for (const node of path) {
    if (node.type !== "block" || node === region.block) continue;
    const first = node.children[0];
    const indentation = first && indentationBefore(oldCode, first.start);
    if (indentation === undefined) return undefined;
    prefix += `${indentation}if 1:\n`;
  }
  prefix = `if 1:\n${prefix}`;
  const parsed = parseSyntaxTree(prefix + text.slice(regionStart, regionEnd));
  if (parsed.problems.length > 0) return undefined;
  let body: SyntaxNode = parsed.root;
  const depth = path.filter((node) => node.type === "block").length;
  for (let level = 0; level < depth; level++) {
    // Exactly `if 1:` and its block: a line dedented below the region's block would have joined a wrapper (as
    // a statement, or as an `else:` of its `if`), where in the file it joins the statements around the region.
    const wrapper = body.children;
    if (wrapper.length !== 1 || wrapper[0].type !== "if_statement" || wrapper[0].children.length !== 2 || wrapper[0].children[1].type !== "block") return undefined;
    body = wrapper[0].children[1];
  }
  const reparsed = body.children as MutableNode[];
  if (reparsed.length === 0 || reparsed[0].start < prefix.length) return undefined;
  // An empty block (Python rejects it) ends where the comments after it do, which only the whole text decides.
  for (const statement of reparsed) if (hasEmptyBlock(statement)) return undefined;

  // Every node on the way down ends after the next statement of the innermost block, which the edit left alone.
  const replaced = { container: region.block, from, to, nodes: reparsed, moveBy: regionStart - prefix.length - (top as MutableNode).anchor.offset };
  const comments = { from: regionStart, to: oldRegionEnd, parsed: parsed.comments, shift: regionStart - prefix.length };
  return rebuildStatement(previous, text, edit, path, replaced, comments);
}

/**
 * The tree after an edit inside the top-level statement `path[0]`: `replaced.nodes`, re-parsed, take the place
 * of `replaced.container`'s children `from` to `to`. Each node on `path` (the top-level statement down to the
 * container) is copied; the other nodes are kept, those after the edit moved by its length change. The
 * comments of the old text in `[comments.from, comments.to)` give way to the re-parsed ones.
 */
function rebuildStatement(
  previous: SyntaxTree,
  text: string,
  edit: TextChange,
  path: MutableNode[],
  replaced: { container: MutableNode; from: number; to: number; nodes: MutableNode[]; moveBy: number },
  comments: { from: number; to: number; parsed: readonly SyntaxNode[]; shift: number },
  reparsedProblems: { from: number; to: number; parsed: readonly ParseProblem[] } = { from: 0, to: 0, parsed: [] },
): SyntaxTree {
  const statements = previous.root.children;
  const delta = edit.newEnd - edit.oldEnd;
  const top = path[0];
  const anchor = top.anchor;
  const siblings = replaced.container.children;
  let parent: MutableNode | null = null;
  let newTop: MutableNode | undefined;
  const copies = new Map<SyntaxNode, MutableNode>();
  for (let level = 0; level < path.length; level++) {
    const old = path[level];
    const copy: MutableNode = new MutableNode(old.type, old.relativeStart, old.relativeEnd + delta, old.field, parent, old.tokens, anchor);
    copies.set(old, copy);
    newTop ??= copy;
    if (parent) parent.children[parent.children.indexOf(old)] = copy;
    const next = path[level + 1];
    if (old === replaced.container) {
      for (let i = 0; i < replaced.from; i++) copy.children.push(adopt(siblings[i], copy, 0));
      for (const node of replaced.nodes) copy.children.push(reanchor(node, copy, anchor, replaced.moveBy));
      for (let i = replaced.to + 1; i < siblings.length; i++) copy.children.push(adopt(siblings[i], copy, delta));
    } else {
      for (const child of old.children) copy.children.push(child === next ? child : adopt(child, copy, child.start >= edit.oldEnd ? delta : 0));
    }
    parent = copy;
  }

  const root = new MutableNode("module", (previous.root as MutableNode).relativeStart, text.length, null, null, NO_TOKENS, { offset: 0 });
  for (const statement of statements) {
    const kept = statement === top ? newTop! : (statement as MutableNode);
    if (kept !== newTop && statement.start > top.start) kept.anchor.offset += delta;
    kept.parent = root;
    root.children.push(kept);
  }
  const keptComments: SyntaxNode[] = [];
  for (const comment of previous.comments) {
    if (comment.end <= comments.from) keptComments.push(comment);
    else if (comment.start >= comments.to) keptComments.push(shifted(comment, delta));
  }
  const reparsed = new Set<SyntaxNode>(replaced.nodes);
  const inReparsed = (node: SyntaxNode | null) => {
    for (let current = node; current; current = current.parent) if (reparsed.has(current)) return true;
    return false;
  };
  // A re-parsed comment outside the re-parsed nodes lay in the wrapper written around them: in the container.
  reparentComments(keptComments, (parent) => (parent === previous.root ? root : copies.get(parent)));
  for (const comment of comments.parsed) keptComments.push(shifted(comment, comments.shift));
  reparentComments(comments.parsed, (parent) => (inReparsed(parent) ? undefined : copies.get(replaced.container)));
  // The problems of the old text in `[reparsedProblems.from, reparsedProblems.to)` give way to the re-parsed ones.
  const problems: ParseProblem[] = [...reparsedProblems.parsed];
  for (const problem of previous.problems) {
    if (problem.offset >= reparsedProblems.from && problem.offset < reparsedProblems.to) continue;
    problems.push(problem.offset > top.end ? { offset: problem.offset + delta, kind: problem.kind } : problem);
  }
  const index = statements.indexOf(top);
  const oldEnd = index + 1 < statements.length ? statements[index + 1].start - delta : text.length - delta;
  return finish(root, keptComments, problems, { id: previous.id, change: { start: top.start, oldEnd, newEnd: oldEnd + delta } });
}

/** Collections whose elements parse the same on their own: how to write one element as a whole collection. */
const ELEMENT_WRAPPERS: ReadonlyMap<string, { open: string; close: string; parsed: string }> = new Map([
  ["dictionary", { open: "{", close: "}", parsed: "dictionary" }],
  ["set", { open: "{", close: "}", parsed: "set" }],
  ["list", { open: "[", close: "]", parsed: "list" }],
  ["tuple", { open: "(", close: ",)", parsed: "tuple" }],
  ["argument_list", { open: "f(", close: ")", parsed: "call" }],
]);

/**
 * The edit lies strictly inside one element of a collection written over lines (a dictionary entry of a
 * thousand-line table of model configurations, an argument of a long call), or in the space between two
 * elements (an indentation, a comment between entries): re-parse that element alone, or the two elements with
 * what lies between them (and any the edit spans), written as a collection of its own (`{` entry `}`, `f(`
 * argument `)`). Inside brackets Python ignores line breaks and indentation, so elements parse the same alone
 * as in the file, and the separators around them are unchanged. Used when that parse is clean and gives back elements from the first
 * re-parsed character to the last (an edit that closes a bracket, opens a string or turns the entry into a
 * comprehension does not; a comma typed or deleted splits or joins elements); the deepest such collection is
 * taken. The top-level statement may have syntax problems only inside the text re-parsed. When that text does
 * not parse cleanly but the parse is still that collection, with its nodes inside the text, the result has
 * problems: like any tree spliced from a region with errors it is provisional (a fresh parse of the whole text
 * could recover differently), and the next edit that makes the text parse cleanly gives back the tree of a
 * fresh parse. Otherwise undefined.
 */
function spliceInsideElement(previous: SyntaxTree, text: string, edit: TextChange): SyntaxTree | undefined {
  const top = innermostContaining(previous.root.children, edit);
  if (!top) return undefined;
  const path: MutableNode[] = [top as MutableNode];
  let found: { depth: number; from: number; to: number } | undefined;
  for (let node: SyntaxNode = top; ; ) {
    const elements = ELEMENT_WRAPPERS.has(node.type) ? elementsAround(node.children, edit) : undefined;
    if (elements) found = { depth: path.length - 1, ...elements };
    const index = node.children.findIndex((c) => c.start <= edit.start && edit.oldEnd <= c.end);
    if (index < 0) break;
    const child = node.children[index];
    path.push(child as MutableNode);
    node = child;
  }
  if (!found) return undefined;
  path.length = found.depth + 1;
  const container = path[found.depth];
  const first = container.children[found.from];
  const last = container.children[found.to];
  const inside = (offset: number) => offset > first.start && offset < last.end;
  if (previous.problems.some((problem) => problem.offset >= top.start && problem.offset <= top.end && !inside(problem.offset))) return undefined;
  const wrapper = ELEMENT_WRAPPERS.get(container.type)!;
  const delta = edit.newEnd - edit.oldEnd;
  const elementsText = text.slice(first.start, last.end + delta);
  const parsed = parseSyntaxTree(wrapper.open + elementsText + wrapper.close);
  const statement = parsed.root.children;
  if (parsed.root.type !== "module" || statement.length !== 1 || statement[0].type !== "expression_statement" || statement[0].children.length !== 1) return undefined;
  let collection = statement[0].children[0];
  if (collection.type !== wrapper.parsed) return undefined;
  if (wrapper.parsed === "call") {
    const argumentList = collection.children[1];
    if (collection.children.length !== 2 || argumentList?.type !== "argument_list") return undefined;
    collection = argumentList;
  }
  const reparsed = collection.children as MutableNode[];
  const textStart = wrapper.open.length;
  const textEnd = textStart + elementsText.length;
  let nodes = reparsed;
  if (parsed.problems.length > 0) {
    if (reparsed.some((node) => node.start < textStart || node.end > textEnd)) return undefined;
  } else {
    if (reparsed.length === 0 || reparsed[0].start !== textStart || reparsed[reparsed.length - 1].end !== textEnd) return undefined;
    if (reparsed.length === 1 && found.from === found.to) {
      // An element's role in its collection (a field name) is the old one's when its boundaries did not move.
      if (reparsed[0].field !== first.field) nodes = [withField(reparsed[0], first.field)];
    } else if (reparsed.some((node) => node.field !== null) || container.children.slice(found.from, found.to + 1).some((node) => node.field !== null)) {
      // The elements of these collections fill no field; were one to, its role could have moved.
      return undefined;
    }
  }
  const shift = first.start - textStart;
  const problems = parsed.problems.map((problem) => ({ offset: Math.min(Math.max(problem.offset, textStart), textEnd) + shift, kind: problem.kind }));
  const replaced = { container, from: found.from, to: found.to, nodes, moveBy: shift - (top as MutableNode).anchor.offset };
  const comments = { from: first.start, to: last.end, parsed: parsed.comments, shift };
  return rebuildStatement(previous, text, edit, path, replaced, comments, { from: first.start + 1, to: last.end, parsed: problems });
}

/**
 * The run of elements that the edit lies strictly within: from the last element that starts before it to the
 * first that ends after it (one element that holds it, the two on either side of the space it is in, or more
 * when it spans whole elements); undefined when it touches the first element's start or the last one's end.
 */
function elementsAround(elements: readonly SyntaxNode[], edit: TextChange): { from: number; to: number } | undefined {
  let from = -1;
  while (from + 1 < elements.length && elements[from + 1].start < edit.start) from++;
  let to = from;
  while (to >= 0 && to < elements.length && elements[to].end <= edit.oldEnd) to++;
  if (from < 0 || to >= elements.length) return undefined;
  return { from, to };
}

/** The same node with another field name (fields are read-only: the node is copied, its children moved to it). */
function withField(node: MutableNode, field: string | null): MutableNode {
  const copy = new MutableNode(node.type, node.relativeStart, node.relativeEnd, field, node.parent, node.tokens, node.anchor);
  for (const child of node.children) {
    child.parent = copy;
    copy.children.push(child);
  }
  return copy;
}

/** The statement of `statements` (in source order) that strictly contains the edit, if one does. */
function innermostContaining(statements: readonly SyntaxNode[], edit: TextChange): SyntaxNode | undefined {
  let low = 0;
  let high = statements.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const statement = statements[middle];
    if (statement.end <= edit.start) low = middle + 1;
    else if (statement.start >= edit.oldEnd) high = middle - 1;
    else return statement.start < edit.start && edit.oldEnd < statement.end ? statement : undefined;
  }
  return undefined;
}

/** A kept subtree under a new parent; its offsets (relative to the statement's anchor) moved by `shift`. */
function adopt(node: MutableNode, parent: MutableNode, shift: number): MutableNode {
  node.parent = parent;
  if (shift !== 0) {
    forEachNode(node, (n) => {
      (n as MutableNode).relativeStart += shift;
      (n as MutableNode).relativeEnd += shift;
    });
  }
  return node;
}

/** A re-parsed subtree moved onto the statement's anchor: `moveBy` turns its offsets into the anchor's terms. */
function reanchor(node: MutableNode, parent: MutableNode, anchor: Anchor, moveBy: number): MutableNode {
  node.parent = parent;
  forEachNode(node, (n) => {
    const moved = n as MutableNode;
    moved.relativeStart = moved.start + moveBy;
    moved.relativeEnd = moved.end + moveBy;
    moved.anchor = anchor;
  });
  return node;
}

function hasEmptyBlock(root: SyntaxNode): boolean {
  let empty = false;
  forEachNode(root, (node) => {
    if (node.type === "block" && node.children.length === 0) empty = true;
  });
  return empty;
}

/** The start of the line holding `offset` when only spaces and tabs come before it on that line. */
function lineStartBefore(code: (offset: number) => number, offset: number): number | undefined {
  let at = offset;
  while (at > 0 && (code(at - 1) === 32 || code(at - 1) === 9)) at--;
  return at === 0 || code(at - 1) === 10 || code(at - 1) === 13 ? at : undefined;
}

/** The spaces and tabs before `offset` on its line, when nothing else is. */
function indentationBefore(code: (offset: number) => number, offset: number): string | undefined {
  const start = lineStartBefore(code, offset);
  if (start === undefined) return undefined;
  let indentation = "";
  for (let at = start; at < offset; at++) indentation += String.fromCharCode(code(at));
  return indentation;
}

/** The top-level statement that holds `node` (the node itself when it is one). */
/**
 * `s` as a string of its own, for what is cached on syntax nodes. V8 makes a slice of 13 or more characters a
 * view into the string it was cut from, and the server keeps unchanged statements' nodes, with what is cached
 * on them, across edits: a name sliced from one keystroke's text would keep that whole text alive.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (s + " ").slice(0, -1);
}

export function topLevelStatementOf(node: SyntaxNode): SyntaxNode {
  let statement = node;
  while (statement.parent?.parent) statement = statement.parent;
  return statement;
}

/**
 * Is `statement`, a top-level statement of this tree or of a tree it was spliced from, one of this tree's?
 * A splice gives every statement it keeps the new root as parent, and never puts back one it dropped.
 */
export function isStatementOf(statement: SyntaxNode, root: SyntaxNode): boolean {
  return statement.parent === root;
}

/** A top-level statement or a comment, moved by `shift` (its anchor is its own). */
/**
 * Points each comment whose parent the splice copied or replaced at the node that now stands there (`moved`
 * gives it, or undefined for a parent that stays): a comment pointing at an older copy would keep that whole
 * older tree alive through its parent, one more tree per keystroke in a file with comments.
 */
function reparentComments(comments: readonly SyntaxNode[], moved: (parent: SyntaxNode) => MutableNode | undefined): void {
  for (const comment of comments) {
    const parent = comment.parent && moved(comment.parent);
    if (parent) (comment as MutableNode).parent = parent;
  }
}

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

// Indexed loops in these helpers, which run for most nodes of every file: the command line runs without
// TurboFan's inlining (bin/synclint.js), and a for-of loop that is not inlined allocates an iterator per call.
export function childByField(node: SyntaxNode, field: string): SyntaxNode | undefined {
  const children = node.children;
  for (let i = 0; i < children.length; i++) if (children[i].field === field) return children[i];
  return undefined;
}

export function childrenByField(node: SyntaxNode, field: string): SyntaxNode[] {
  return node.children.filter((child) => child.field === field);
}

export function childOfType(node: SyntaxNode, type: string): SyntaxNode | undefined {
  const children = node.children;
  for (let i = 0; i < children.length; i++) if (children[i].type === type) return children[i];
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

/** Searches `root`, skipping nested functions and classes, and nested `for`/`while` loops too when `skipLoops`. */
export function someNode(root: SyntaxNode, predicate: (node: SyntaxNode) => boolean, skipLoops = false): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (predicate(node)) return true;
    for (let i = 0; i < node.children.length; i++) {
      const child = node.children[i];
      if (child.type === "function_definition" || child.type === "class_definition") continue;
      if (skipLoops && (child.type === "for_statement" || child.type === "while_statement")) continue;
      stack.push(child);
    }
  }
  return false;
}

/** The innermost node whose range holds `offset` (a node ending at `offset` does not). */
export function nodeAt(root: SyntaxNode, offset: number): SyntaxNode {
  let node = root;
  for (;;) {
    const children = node.children;
    let low = 0;
    let high = children.length - 1;
    let inside: SyntaxNode | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const child = children[middle];
      if (offset < child.start) high = middle - 1;
      else if (offset >= child.end) low = middle + 1;
      else {
        inside = child;
        break;
      }
    }
    if (!inside) return node;
    node = inside;
  }
}

/** Strips redundant parentheses: `((x))` is `x`. */
export function unparenthesized(node: SyntaxNode): SyntaxNode {
  let current = node;
  while (current.type === "parenthesized_expression" && current.children.length === 1) current = current.children[0];
  return current;
}

/** The class whose method `node` is (or is in); nested functions of a method have none. */
export function enclosingClassOf(node: SyntaxNode): SyntaxNode | undefined {
  const fn = node.type === "function_definition" ? node : enclosingFunctionOf(node);
  let current = fn?.parent;
  if (current?.type === "block") current = current.parent;
  if (current?.type === "decorated_definition") current = current.parent?.parent;
  return current?.type === "class_definition" ? current : undefined;
}

/** The name a parameter binds: `x`, `x: T`, `x=1`, `*args`, `**kwargs`. */
export function parameterName(parameter: SyntaxNode): SyntaxNode | undefined {
  return parameter.type === "identifier" ? parameter : (childByField(parameter, "name") ?? parameter.children.find((c) => c.type === "identifier"));
}

/** The `return` statements of `fn` itself, not of the functions, lambdas and classes it defines. */
export function returnStatementsOf(fn: SyntaxNode): SyntaxNode[] {
  const returns: SyntaxNode[] = [];
  const stack = [...fn.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "function_definition" || node.type === "class_definition" || node.type === "lambda") continue;
    if (node.type === "return_statement") returns.push(node);
    else stack.push(...node.children);
  }
  return returns;
}

export function enclosingFunctionOf(node: SyntaxNode): SyntaxNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (current.type === "function_definition") return current;
  return undefined;
}
