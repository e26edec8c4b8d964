/**
 * Scopes and bindings: which assignment a name refers to at a given point of a function.
 *
 * A binding takes effect where its statement ends (so `x = x.cuda()` reads the previous `x`), and a name
 * resolves to the last binding in its scope that takes effect before the use, then to enclosing functions,
 * then to the module. This is flow-insensitive across branches on purpose: it is cheap and right for the
 * straight-line code that training loops are made of.
 */
import { SyntaxNode, childByField, nodeAt, ownString, topLevelStatementOf, unparenthesized } from "../syntax";

export type BindingKind = "assign" | "augmented" | "for" | "with" | "parameter" | "import" | "function" | "class" | "walrus";

export interface Binding {
  name: string;
  kind: BindingKind;
  /** Offset from which the binding is visible. */
  readonly effective: number;
  /** The assigned expression (`assign`, `augmented`, `with`, `walrus`), the iterable (`for`), the def/class node. */
  value?: SyntaxNode;
  /** Path of tuple positions when unpacking: `a, (b, c) = v` gives `c` the path [1, 1]. */
  unpackPath: number[];
  /** The whole statement or parameter node. */
  node: SyntaxNode;
  /** `augmented` only: the operator, e.g. `+=`. */
  operator?: string;
  /** `parameter` only. */
  annotation?: SyntaxNode;
  defaultValue?: SyntaxNode;
  /** `for` only: the loop statement. */
  loop?: SyntaxNode;
}

export interface Scope {
  /** The function_definition, or the module. */
  node: SyntaxNode;
  parent: Scope | null;
  bindings: Map<string, Binding[]>;
}

/** A file's scopes: the module's, and each function's by its `function_definition` node. */
export interface Scopes {
  readonly module: Scope;
  /** The scope of a function definition, or the module's for the root; undefined for any other node. */
  get(node: SyntaxNode): Scope | undefined;
}

/** What one top-level statement contributes to the scopes; it depends only on the statement's own text. */
interface StatementScopes {
  /** Bindings the statement makes in the module scope, in order of effect. */
  moduleBindings: Binding[];
  /** The function scopes inside the statement, outermost first. */
  functionScopes: Scope[];
  /** The same by their definitions, made when first needed for a statement with many (a large class). */
  byDefinition?: Map<SyntaxNode, Scope>;
}

/**
 * Per top-level statement node: the server reuses unchanged statements' nodes across edits (shifting their
 * offsets in place, which bindings follow through their anchors), so their scopes are collected once.
 */
const scopesByStatement = new WeakMap<SyntaxNode, StatementScopes>();

/**
 * The scopes of the file under `root`. Function scopes are looked up in their statement's, when asked for.
 * With `statementsBinding` (which top-level statements bind a name, from an index kept across edits), the
 * module's bindings of a name are gathered when first asked for too: an edit then costs what its statements
 * ask, not a pass over the whole file.
 */
export function collectScopes(root: SyntaxNode, text: string, statementsBinding?: (name: string) => ReadonlySet<SyntaxNode> | undefined): Scopes {
  return new FileScopes(root, text, statementsBinding);
}

class FileScopes implements Scopes {
  readonly module: Scope;
  /** The definition asked for last, and its answer: a walk asks for the same function many times in a row. */
  private lastDefinition: SyntaxNode | undefined;
  private lastScope: Scope | undefined;
  /**
   * The statements' cached function scopes as this analysis sees them (`view`). A cached scope never points at
   * an analysis's module scope: the server keeps unchanged statements' scopes across edits, and each edit's
   * module scope (its text, its bindings) would live as long as they do — 100 KB per keystroke in a
   * 5,000-line file, without end.
   */
  private readonly views = new Map<Scope, Scope>();

  constructor(
    private readonly root: SyntaxNode,
    private readonly text: string,
    statementsBinding: ((name: string) => ReadonlySet<SyntaxNode> | undefined) | undefined,
  ) {
    const bindings = statementsBinding ? new ModuleBindings(root, text, statementsBinding) : new Map<string, Binding[]>();
    this.module = { node: root, parent: null, bindings };
    if (!statementsBinding) for (const statement of root.children) for (const binding of statementScopes(statement, text).moduleBindings) addBinding(this.module, binding);
  }

  get(node: SyntaxNode): Scope | undefined {
    if (node === this.root) return this.module;
    if (node === this.lastDefinition) return this.lastScope;
    if (node.type !== "function_definition") return undefined;
    const statement = topLevelStatementOf(node);
    if (statement.parent !== this.root) return undefined;
    const scope = functionScopeOf(statementScopes(statement, this.text), node);
    if (!scope) return undefined;
    this.lastDefinition = node;
    this.lastScope = this.view(scope);
    return this.lastScope;
  }

  /** A cached function scope with the same bindings, whose outermost enclosing scope is this analysis's module scope. */
  private view(cached: Scope): Scope {
    let seen = this.views.get(cached);
    if (!seen) {
      // The outermost function's cached parent is its statement's stand-in for the module scope.
      const parent = cached.parent?.parent ? this.view(cached.parent) : this.module;
      seen = { node: cached.node, parent, bindings: cached.bindings };
      this.views.set(cached, seen);
    }
    return seen;
  }
}

function functionScopeOf(collected: StatementScopes, definition: SyntaxNode): Scope | undefined {
  const scopes = collected.functionScopes;
  if (scopes.length <= 16) {
    for (let i = 0; i < scopes.length; i++) if (scopes[i].node === definition) return scopes[i];
    return undefined;
  }
  collected.byDefinition ??= new Map(scopes.map((scope) => [scope.node, scope]));
  return collected.byDefinition.get(definition);
}

/**
 * The module scope's bindings, gathered per name from the statements that bind it, in the order of the file.
 * Iterating them (rare: a fix looking for a constant) gathers every name.
 */
class ModuleBindings extends Map<string, Binding[]> {
  private readonly unbound = new Set<string>();
  private complete = false;

  constructor(
    private readonly root: SyntaxNode,
    private readonly text: string,
    private readonly statementsBinding: (name: string) => ReadonlySet<SyntaxNode> | undefined,
  ) {
    super();
  }

  override get(name: string): Binding[] | undefined {
    const known = super.get(name);
    if (known || this.complete || this.unbound.has(name)) return known;
    const statements = [...(this.statementsBinding(name) ?? [])].sort((a, b) => a.start - b.start);
    const list: Binding[] = [];
    for (const statement of statements) for (const binding of statementScopes(statement, this.text).moduleBindings) if (binding.name === name) list.push(binding);
    if (list.length === 0) {
      this.unbound.add(name);
      return undefined;
    }
    super.set(name, list);
    return list;
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  override get size(): number {
    this.gatherAll();
    return super.size;
  }

  override forEach(callback: (value: Binding[], key: string, map: Map<string, Binding[]>) => void, thisArg?: unknown): void {
    this.gatherAll();
    super.forEach(callback, thisArg);
  }

  override entries(): IterableIterator<[string, Binding[]]> {
    this.gatherAll();
    return super.entries();
  }

  override keys(): IterableIterator<string> {
    this.gatherAll();
    return super.keys();
  }

  override values(): IterableIterator<Binding[]> {
    this.gatherAll();
    return super.values();
  }

  override [Symbol.iterator](): IterableIterator<[string, Binding[]]> {
    return this.entries();
  }

  /** Every name's bindings, in the order a pass over the file adds them (names asked for so far included). */
  private gatherAll(): void {
    if (this.complete) return;
    this.complete = true;
    super.clear();
    for (const statement of this.root.children) {
      for (const binding of statementScopes(statement, this.text).moduleBindings) {
        const list = super.get(binding.name);
        if (list) list.push(binding);
        else super.set(binding.name, [binding]);
      }
    }
  }
}

/** The names a top-level statement binds in the module scope (defs, classes, imports, assignments, methods). */
export function moduleNamesBoundBy(statement: SyntaxNode, text: string): string[] {
  return statementScopes(statement, text).moduleBindings.map((binding) => binding.name);
}

/** The module names a top-level statement binds only by `def` or `class` (not also by an assignment, an import...). */
export function moduleDefinitionsOf(statement: SyntaxNode, text: string): string[] {
  const bindings = statementScopes(statement, text).moduleBindings;
  const isDefinition = (binding: Binding) => binding.kind === "function" || binding.kind === "class";
  return [...new Set(bindings.filter(isDefinition).map((binding) => binding.name))].filter((name) => bindings.every((binding) => binding.name !== name || isDefinition(binding)));
}

/** The function scopes inside a top-level statement. */
export function functionScopesIn(statement: SyntaxNode, text: string): readonly Scope[] {
  return statementScopes(statement, text).functionScopes;
}

function statementScopes(statement: SyntaxNode, text: string): StatementScopes {
  let collected = scopesByStatement.get(statement);
  if (!collected) {
    collected = collectStatementScopes(statement, text);
    scopesByStatement.set(statement, collected);
  }
  return collected;
}

function collectStatementScopes(statement: SyntaxNode, text: string): StatementScopes {
  // A stand-in for the module scope: its bindings are the statement's module bindings.
  const moduleScope: Scope = { node: statement, parent: null, bindings: new Map() };
  const functionScopes: Scope[] = [];
  // Iterative walk carrying the current scope; classes do not form a scope for the names inside methods.
  // Two parallel stacks: an object per visited node would be most of this walk's cost.
  const nodes: SyntaxNode[] = [statement];
  const nodeScopes: Scope[] = [moduleScope];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const scope = nodeScopes.pop()!;
    let inner = scope;
    if (node.type === "function_definition") {
      const nameNode = childByField(node, "name");
      if (nameNode) addBinding(scope, new AnchoredBinding({ name: textOf(nameNode, text), kind: "function", value: node, node }, node, false));
      inner = { node, parent: scope, bindings: new Map() };
      functionScopes.push(inner);
      collectParameters(node, inner, text);
    } else if (node.type === "class_definition") {
      const nameNode = childByField(node, "name");
      if (nameNode) addBinding(scope, new AnchoredBinding({ name: textOf(nameNode, text), kind: "class", value: node, node }, node, false));
    } else {
      collectBinding(node, scope, text);
    }
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i];
      if (node.type === "function_definition" && child.field === "parameters") continue;
      nodes.push(child);
      nodeScopes.push(inner);
    }
  }
  const byEffect = (a: Binding, b: Binding) => a.effective - b.effective;
  for (const scope of functionScopes) for (const list of scope.bindings.values()) list.sort(byEffect);
  const moduleBindings: Binding[] = [];
  for (const list of moduleScope.bindings.values()) moduleBindings.push(...list);
  moduleBindings.sort(byEffect);
  return { moduleBindings, functionScopes };
}

interface BindingFields {
  name: string;
  kind: BindingKind;
  value?: SyntaxNode;
  unpackPath?: number[];
  node: SyntaxNode;
  operator?: string;
  annotation?: SyntaxNode;
  defaultValue?: SyntaxNode;
  loop?: SyntaxNode;
}

const NO_PATH: number[] = [];

/** A binding whose point of effect is the start or end of a node, so it moves when the node's offsets shift. */
class AnchoredBinding implements Binding {
  readonly name: string;
  readonly kind: BindingKind;
  readonly value?: SyntaxNode;
  readonly unpackPath: number[];
  readonly node: SyntaxNode;
  readonly operator?: string;
  readonly annotation?: SyntaxNode;
  readonly defaultValue?: SyntaxNode;
  readonly loop?: SyntaxNode;

  constructor(fields: BindingFields, private readonly anchor: SyntaxNode, private readonly atEnd: boolean) {
    this.name = fields.name;
    this.kind = fields.kind;
    this.value = fields.value;
    this.unpackPath = fields.unpackPath ?? NO_PATH;
    this.node = fields.node;
    this.operator = fields.operator;
    this.annotation = fields.annotation;
    this.defaultValue = fields.defaultValue;
    this.loop = fields.loop;
  }

  get effective(): number {
    return this.atEnd ? this.anchor.end : this.anchor.start;
  }
}

/** Names are kept in the statements' cached scopes: strings of their own (`ownString`). */
function textOf(node: SyntaxNode, text: string): string {
  return ownString(text.slice(node.start, node.end));
}

function addBinding(scope: Scope, binding: Binding): void {
  const list = scope.bindings.get(binding.name);
  if (list) list.push(binding);
  else scope.bindings.set(binding.name, [binding]);
}

function collectParameters(fn: SyntaxNode, scope: Scope, text: string): void {
  const parameters = childByField(fn, "parameters");
  if (!parameters) return;
  for (const parameter of parameters.children) {
    let nameNode: SyntaxNode | undefined;
    let annotation: SyntaxNode | undefined;
    let defaultValue: SyntaxNode | undefined;
    switch (parameter.type) {
      case "identifier":
        nameNode = parameter;
        break;
      case "typed_parameter":
        nameNode = parameter.children.find((child) => child.type === "identifier" && child.field !== "type");
        annotation = childByField(parameter, "type");
        break;
      case "default_parameter":
        nameNode = childByField(parameter, "name");
        defaultValue = childByField(parameter, "value");
        break;
      case "typed_default_parameter":
        nameNode = childByField(parameter, "name");
        annotation = childByField(parameter, "type");
        defaultValue = childByField(parameter, "value");
        break;
      default:
        continue;
    }
    if (!nameNode || nameNode.type !== "identifier") continue;
    addBinding(scope, new AnchoredBinding({ name: textOf(nameNode, text), kind: "parameter", node: parameter, annotation, defaultValue }, fn, false));
  }
}

function collectBinding(node: SyntaxNode, scope: Scope, text: string): void {
  switch (node.type) {
    case "assignment": {
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      if (!left) return;
      // `a = b = value`: tree-sitter nests the second assignment as the right side.
      let value = right;
      while (value && value.type === "assignment") value = childByField(value, "right");
      const statement = node.parent?.type === "expression_statement" ? node.parent : node;
      bindTargets(left, [], (name, path) =>
        addBinding(scope, new AnchoredBinding({ name, kind: "assign", value, unpackPath: path, node }, statement, true)), text);
      return;
    }
    case "augmented_assignment": {
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      if (!left || left.type !== "identifier") return;
      const statement = node.parent?.type === "expression_statement" ? node.parent : node;
      addBinding(scope, new AnchoredBinding({ name: textOf(left, text), kind: "augmented", value: right, node, operator: node.tokens[0] }, statement, true));
      return;
    }
    case "for_statement":
    case "for_in_clause": {
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      if (!left) return;
      const body = childByField(node, "body");
      // A comprehension's element expression precedes its `for` clause in the text.
      const anchor = node.type === "for_statement" ? (body ?? node) : (node.parent ?? node);
      bindTargets(left, [], (name, path) =>
        addBinding(scope, new AnchoredBinding({ name, kind: "for", value: right, unpackPath: path, node, loop: node }, anchor, false)), text);
      return;
    }
    case "with_item": {
      const value = childByField(node, "value");
      if (value?.type === "as_pattern") {
        const target = value.children.find((child) => child.field === "alias") ?? value.children[1];
        const expression = value.children[0];
        const targetName = target?.type === "as_pattern_target" ? target.children[0] : target;
        if (targetName)
          bindTargets(targetName, [], (name, path) =>
            addBinding(scope, new AnchoredBinding({ name, kind: "with", value: expression, unpackPath: path, node }, node, true)), text);
      }
      return;
    }
    case "named_expression": {
      const nameNode = childByField(node, "name");
      const value = childByField(node, "value");
      if (nameNode) addBinding(scope, new AnchoredBinding({ name: textOf(nameNode, text), kind: "walrus", value, node }, node, true));
      return;
    }
    case "import_statement":
    case "import_from_statement": {
      for (const child of node.children) {
        if (child.field !== "name") continue;
        const alias = child.type === "aliased_import" ? childByField(child, "alias") : undefined;
        const dotted = child.type === "aliased_import" ? childByField(child, "name") : child;
        const bound = alias ?? dotted?.children[0] ?? dotted;
        if (bound) addBinding(scope, new AnchoredBinding({ name: textOf(bound, text), kind: "import", value: child, node }, node, true));
      }
      return;
    }
  }
}

function bindTargets(target: SyntaxNode, path: number[], bind: (name: string, path: number[]) => void, text: string): void {
  const node = unparenthesized(target);
  switch (node.type) {
    case "identifier":
      bind(textOf(node, text), path);
      return;
    case "pattern_list":
    case "tuple_pattern":
    case "list_pattern":
    case "tuple":
    case "list":
    case "expression_list":
      node.children.forEach((child, index) => bindTargets(child, [...path, index], bind, text));
      return;
    case "list_splat_pattern":
      return;
  }
}

/** Per analysis (keyed by its scopes): syntax trees are reused across edits in the server, scopes are not. */
const scopeMemos = new WeakMap<Scopes, WeakMap<SyntaxNode, Scope>>();

/** Climbs longer than this are memoised; shorter ones cost less than the memo's bookkeeping. */
const UNMEMOISED_CLIMB = 64;

/** The innermost function or module scope that contains `node`. */
export function scopeOf(node: SyntaxNode, scopes: Scopes): Scope {
  let climbed = 0;
  for (let current: SyntaxNode | null = node.parent; current; current = current.parent) {
    if (current.type === "function_definition") {
      const scope = scopes.get(current);
      // Parameters' default values are evaluated in the enclosing scope.
      if (scope && !isInParameters(node, current)) return scope;
    }
    if (!current.parent) return scopes.get(current)!;
    if (++climbed === UNMEMOISED_CLIMB) return memoisedScopeOf(node, scopes);
  }
  return scopes.get(node)!;
}

/**
 * `scopeOf`, memoised along the path climbed, so that deeply nested code (10,000 parentheses) costs linear
 * time overall, not quadratic.
 */
function memoisedScopeOf(node: SyntaxNode, scopes: Scopes): Scope {
  let scopeMemo = scopeMemos.get(scopes);
  if (!scopeMemo) {
    scopeMemo = new WeakMap();
    scopeMemos.set(scopes, scopeMemo);
  }
  const climbed: SyntaxNode[] = [];
  let found: Scope | undefined;
  for (let current: SyntaxNode | null = node.parent; current; current = current.parent) {
    const known = scopeMemo.get(current);
    if (known) {
      found = known;
      break;
    }
    if (current.type === "function_definition") {
      const scope = scopes.get(current);
      // Parameters' default values are evaluated in the enclosing scope: do not memoise across that boundary.
      if (scope && !isInParameters(node, current)) {
        found = scope;
        break;
      }
      if (scope) {
        climbed.length = 0;
        continue;
      }
    }
    climbed.push(current);
    if (!current.parent) {
      found = scopes.get(current)!;
      break;
    }
  }
  found ??= scopes.get(node)!;
  // Nodes climbed through (not function definitions themselves) share the answer.
  for (const visited of climbed) if (visited.type !== "function_definition") scopeMemo.set(visited, found);
  return found;
}

function isInParameters(node: SyntaxNode, fn: SyntaxNode): boolean {
  const parameters = childByField(fn, "parameters");
  return !!parameters && parameters.start <= node.start && node.end <= parameters.end;
}

/** The binding of `name` visible at `offset` in `scope`, searching enclosing scopes. */
/**
 * The value `identifier` is bound to where it is read, when a plain assignment binds it there (`scores =
 * torch.Tensor([])`; not `a, scores = ...`, a parameter, a loop variable or an import).
 */
export function assignedValue(identifier: SyntaxNode, text: string, scopes: Scopes): SyntaxNode | undefined {
  const binding = resolveBinding(text.slice(identifier.start, identifier.end), identifier.start, scopeOf(identifier, scopes));
  return binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
}

export function resolveBinding(name: string, offset: number, scope: Scope): Binding | undefined {
  for (let current: Scope | null = scope; current; current = current.parent) {
    const list = current.bindings.get(name);
    if (!list || list.length === 0) continue;
    if (current !== scope) return list[list.length - 1];
    let found: Binding | undefined;
    for (const binding of list) {
      if (binding.effective <= offset) found = binding;
      else break;
    }
    // A name read before its first binding in a loop is carried over from the previous iteration.
    return found ?? list[list.length - 1];
  }
  return undefined;
}

/** The binding of `name` that the binding `before` replaced (for `x += ...`). */
export function previousBinding(before: Binding, scope: Scope): Binding | undefined {
  const list = scope.bindings.get(before.name) ?? [];
  let found: Binding | undefined;
  for (const binding of list) {
    if (binding === before) break;
    if (binding.effective <= before.node.start) found = binding;
  }
  return found;
}

/**
 * The identifiers `name` inside `within` (not an attribute's name: no `.` before it), found by searching the text
 * rather than walking the tree: a name is mentioned a few times among thousands of nodes.
 */
export function* identifiersNamed(text: string, name: string, within: SyntaxNode): Generator<SyntaxNode> {
  for (let at = text.indexOf(name, within.start); at >= 0 && at < within.end; at = text.indexOf(name, at + name.length)) {
    const before = at > 0 ? text.charCodeAt(at - 1) : 32;
    if (isWordCharacter(before) || before === 46 || isWordCharacter(text.charCodeAt(at + name.length))) continue;
    const node = nodeAt(within, at);
    if (node.type === "identifier" && node.start === at && node.end === at + name.length) yield node;
  }
}

/** A character code of a Python name: ASCII letters, digits, `_`, and any non-ASCII character. */
export function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127;
}
