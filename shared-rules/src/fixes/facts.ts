/**
 * Facts a fix needs before it may move code: the loop around a statement, every use of a name in a scope,
 * whether a name is ever written except in given ways. Built on the syntax tree only (the analysis stays
 * read-only), and conservative: anything unusual makes a fix decline.
 */
import { SyntaxNode, childByField, contains, isStatementOf, ownString, unparenthesized } from "../syntax";

const FUNCTION_TYPES = new Set(["function_definition", "lambda"]);

/** The innermost `for`/`while` statement around `node` in the same function, if any. */
export function enclosingLoop(node: SyntaxNode): SyntaxNode | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === "for_statement" || current.type === "while_statement") return current;
    if (FUNCTION_TYPES.has(current.type) || current.type === "class_definition") return undefined;
  }
  return undefined;
}

/** The function (or module) whose local variables include the names used at `node`. */
export function enclosingScope(node: SyntaxNode): SyntaxNode {
  let current = node.parent;
  for (; current; current = current.parent) {
    if (current.type === "function_definition" || current.type === "module") return current;
    if (current.type === "lambda" || current.type === "class_definition") return current;
  }
  let root = node;
  while (root.parent) root = root.parent;
  return root;
}

/** Is there a function, lambda or class between `node` and `scope`? */
export function inNestedScope(node: SyntaxNode, scope: SyntaxNode): boolean {
  for (let current = node.parent; current && current !== scope; current = current.parent) {
    if (FUNCTION_TYPES.has(current.type) || current.type === "class_definition") return true;
  }
  return false;
}

/** Is `node` inside a `try` statement that lies within `scope`? */
export function inTry(node: SyntaxNode, scope: SyntaxNode): boolean {
  for (let current = node.parent; current && current !== scope; current = current.parent) if (current.type === "try_statement") return true;
  return false;
}

/** Every identifier `name` under `root` that denotes the variable (not `obj.name`, not `f(name=...)`). */
export function identifierUses(root: SyntaxNode, name: string, text: string): SyntaxNode[] {
  const uses: SyntaxNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const child of node.children) stack.push(child);
    if (isVariable(node) && text.slice(node.start, node.end) === name) uses.push(node);
  }
  return uses.sort((a, b) => a.start - b.start);
}

/** An identifier that denotes a variable: not the `name` of `obj.name`, not the keyword of `f(name=...)`. */
export function isVariable(node: SyntaxNode): boolean {
  if (node.type !== "identifier") return false;
  if (node.parent?.type === "attribute" && node.field === "attribute") return false;
  return !(node.parent?.type === "keyword_argument" && node.field === "name");
}

/** `global name` / `nonlocal name` anywhere in the file: such names are shared and never safe to move. */
export function declaredShared(root: SyntaxNode, name: string, text: string): boolean {
  return namesOfFile(root, "shared", text).has(name);
}

/** Is `name` assigned, imported, defined or otherwise bound anywhere in the file (say a builtin such as `enumerate`)? */
export function boundInFile(root: SyntaxNode, name: string, text: string): boolean {
  return namesOfFile(root, "bound", text).has(name);
}

/** Is `name` used as a variable anywhere in the file (read, written, declared)? */
export function usedInFile(root: SyntaxNode, name: string, text: string): boolean {
  return namesOfFile(root, "used", text).has(name);
}

/** The names of one top-level statement that fixes ask the whole file about. */
interface StatementNameFacts {
  /** Variables used in any way. */
  used: Set<string>;
  /** Variables assigned, imported, defined or otherwise bound. */
  bound: Set<string>;
  /** Names declared `global` or `nonlocal`. */
  shared: Set<string>;
}

/**
 * Per top-level statement, gathered in one walk and kept while the statement is unchanged (as the server keeps
 * statements across edits); the incremental linter gathers them when a file is opened, so that the first fix
 * asked for after an edit does not walk the whole file.
 */
const nameFactsByStatement = new WeakMap<SyntaxNode, StatementNameFacts>();

export function statementNameFacts(statement: SyntaxNode, text: string): StatementNameFacts {
  let facts = nameFactsByStatement.get(statement);
  if (facts) return facts;
  facts = { used: new Set(), bound: new Set(), shared: new Set() };
  const stack = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const child of node.children) stack.push(child);
    if (node.type === "global_statement" || node.type === "nonlocal_statement") for (const c of node.children) facts.shared.add(ownString(text.slice(c.start, c.end)));
    if (!isVariable(node)) continue;
    const name = ownString(text.slice(node.start, node.end));
    facts.used.add(name);
    if (useKind(node) !== "read") facts.bound.add(name);
  }
  nameFactsByStatement.set(statement, facts);
  return facts;
}

/** One kind of the names of a file: how many of its top-level statements have each. */
interface FileNames {
  root: SyntaxNode;
  statements: Set<SyntaxNode>;
  counts: Map<string, number>;
}

/** Per kind, the names of the file asked about last. */
const lastFileNames = new Map<keyof StatementNameFacts, FileNames>();

/**
 * One kind of names of the whole file that `node` belongs to, joined from its statements'. An edited file's
 * tree keeps the node of every statement the edits left alone (`spliceSyntaxTree`), and those keep their
 * names: the counts of the tree asked about last are brought up to date with the statements that came and went
 * since, rather than joined again from every statement per keystroke.
 */
function namesOfFile(node: SyntaxNode, kind: keyof StatementNameFacts, text: string): { has(name: string): boolean } {
  let top = node;
  while (top.parent) top = top.parent;
  let names = lastFileNames.get(kind);
  if (names?.root !== top) {
    names = updatedNames(names, top, kind, text);
    lastFileNames.set(kind, names);
  }
  const counts = names.counts;
  return { has: (name) => (counts.get(name) ?? 0) > 0 };
}

function updatedNames(last: FileNames | undefined, root: SyntaxNode, kind: keyof StatementNameFacts, text: string): FileNames {
  const statements = root.children;
  const add = (counts: Map<string, number>, statement: SyntaxNode, by: number) => {
    for (const name of statementNameFacts(statement, text)[kind]) counts.set(name, (counts.get(name) ?? 0) + by);
  };
  if (last) {
    const gone: SyntaxNode[] = [];
    for (const statement of last.statements) if (!isStatementOf(statement, root)) gone.push(statement);
    const come: SyntaxNode[] = [];
    for (let i = 0; i < statements.length; i++) if (!last.statements.has(statements[i])) come.push(statements[i]);
    // Another file, or most of this one changed: join them all again.
    if (gone.length + come.length <= statements.length / 2) {
      for (const statement of gone) {
        add(last.counts, statement, -1);
        last.statements.delete(statement);
      }
      for (const statement of come) {
        add(last.counts, statement, 1);
        last.statements.add(statement);
      }
      return { root, statements: last.statements, counts: last.counts };
    }
  }
  const counts = new Map<string, number>();
  for (const statement of statements) add(counts, statement, 1);
  return { root, statements: new Set(statements), counts };
}

/** How a use of a name takes part in its statement. */
export type UseKind = "read" | "assign" | "augmented" | "other-write";

export function useKind(use: SyntaxNode): UseKind {
  const parent = use.parent;
  if (!parent) return "read";
  if (parent.type === "assignment" && use.field === "left") return "assign";
  if (parent.type === "augmented_assignment" && use.field === "left") return "augmented";
  // Unpacking targets, loop variables, `with ... as name`, `del name`, walrus, imports, parameters.
  if (["pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target", "delete_statement", "named_expression", "dotted_name", "aliased_import", "parameters", "default_parameter", "typed_parameter", "typed_default_parameter", "list_splat_pattern"].includes(parent.type)) return "other-write";
  if (parent.type === "for_statement" && use.field === "left") return "other-write";
  if (parent.type === "for_in_clause" && use.field === "left") return "other-write";
  if (parent.type === "as_pattern" || parent.type === "with_item") return "other-write";
  if ((parent.type === "function_definition" || parent.type === "class_definition") && use.field === "name") return "other-write";
  return "read";
}

/** A number literal, possibly negated: `0`, `0.0`, `-1`, `1e-3`. */
export function isNumberLiteral(raw: SyntaxNode | undefined, integerOnly = false): boolean {
  if (!raw) return false;
  let node = unparenthesized(raw);
  if (node.type === "unary_operator" && (node.tokens[0] === "-" || node.tokens[0] === "+") && node.children.length === 1) node = unparenthesized(node.children[0]);
  return node.type === "integer" || (!integerOnly && node.type === "float");
}

/** A constant made only of number/bool literals, lists and tuples of them: `[0.3, 0.7]`, `((1, 2), (3, 4))`, `-1.0`. */
export function isConstantData(raw: SyntaxNode): boolean {
  const node = unparenthesized(raw);
  if (isNumberLiteral(node) || node.type === "true" || node.type === "false") return true;
  if (node.type === "list" || node.type === "tuple") return node.children.every((child) => isConstantData(child));
  return false;
}

/** Tensor operations whose result is a bool tensor (`torch.isnan(t)`, `t.eq(u)`, `m.logical_and(n)`, ...). */
export const BOOLEAN_OPERATION = /^(isnan|isinf|isfinite|isneginf|isposinf|logical_(and|or|not|xor)|eq|ne|gt|lt|ge|le|bool|isin|signbit)$/;

/** The sub-expressions of a condition whose truth value Python reads: the operands of `and`/`or`/`not`, or the whole. */
export function truthReads(raw: SyntaxNode): SyntaxNode[] {
  const node = unparenthesized(raw);
  if (node.type === "boolean_operator" || node.type === "not_operator") return node.children.flatMap(truthReads);
  return [node];
}

/** The statement directly inside a block that contains `node` (its `expression_statement`, assignment line, ...). */
export function statementOf(node: SyntaxNode): SyntaxNode | undefined {
  let current: SyntaxNode | null = node;
  while (current && current.parent && current.parent.type !== "block" && current.parent.type !== "module") current = current.parent;
  return current ?? undefined;
}

/** The block (loop body) that directly holds `statement`. */
export function blockOf(statement: SyntaxNode): SyntaxNode | undefined {
  return statement.parent?.type === "block" || statement.parent?.type === "module" ? statement.parent : undefined;
}

export { childByField, contains };
