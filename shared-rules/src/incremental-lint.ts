/**
 * Re-lints only what an edit can change. The server's syntax trees keep the node objects of unchanged top-level
 * statements across edits (`spliceSyntaxTree`), and a statement's lint is kept with them unless the edit can
 * reach it:
 * - through the names it reads: a statement reading a name that a changed statement binds sees a changed
 *   definition (evidence, return values, loaders, classes), and so, in turn, do the readers of its names;
 * - through the names it binds: a statement whose functions or values a changed or re-linted statement
 *   mentions may be called from a new place (how hot it is, what `torch.compile` compiles, where a loader's
 *   batches go), and so may what that statement mentions in turn; but a statement reached only through its
 *   `def`s and `class`es passes the change on only if the contexts of its own calls of the file's functions
 *   changed (`callerSignature`), which is known once it has been linted again;
 * - through positions in its messages and fixes: line numbers move when the line count changes, and fixes pick
 *   names that are free in the whole file, so statements with findings are linted again when either changes;
 * - through the facts drawn from the whole text (`fileFacts`): then every statement is linted again, except
 *   when the edit restores the facts of the lint before the last change of facts (`import torch` mistyped and
 *   corrected, an option's line edited and undone): that lint is kept aside, and the edits since are applied to it.
 * The result always equals `lintSyntaxTree` of the same tree; a property test holds it to that.
 */
import { isStatementOf, ownString } from "./syntax";
import type { SyntaxNode, SyntaxTree, TextChange } from "./syntax";
import { LintOptions, LintResult, StatementLint, StatementsLint, fileFacts, lintStatements } from "./lint";
import { Scope, functionScopesIn, moduleDefinitionsOf, moduleNamesBoundBy } from "./analysis/scopes";
import { SourceText } from "./source-text";
import { statementNameFacts } from "./fixes/facts";

interface Previous {
  syntaxId: number;
  lineCount: number;
  facts: string;
  options: LintOptions;
  statements: Map<SyntaxNode, StatementLint>;
  index: NameIndex;
  /** `callerSignature` of each statement that defines functions or classes, as of its last lint. */
  signatures: Map<SyntaxNode, string>;
}

/**
 * What a statement shares with others by name: the module-scope names it reads (identifiers that no function
 * of its own binds), the names it binds at module level, the names it calls or mentions (call sites are
 * indexed by name, whatever the name resolves to), and every identifier (fixes pick names free in the file).
 */
interface StatementNames {
  reads: readonly string[];
  binds: readonly string[];
  /** The names of `binds` bound only by `def` or `class`. */
  definitions: readonly string[];
  mentions: readonly string[];
  identifiers: readonly string[];
}
const namesByStatement = new WeakMap<SyntaxNode, StatementNames>();

/** A lint kept aside when the facts of the whole text changed, with the edits made since, oldest first. */
interface SetAside {
  lint: Previous;
  changes: TextChange[];
  /** The tree of the last edit applied. */
  syntaxId: number;
}
/** Past this many edits, going back to the lint set aside is not worth the offsets it would move. */
const MAX_EDITS_SET_ASIDE = 64;

export class IncrementalLinter {
  private previous: Previous | undefined;
  private setAside: SetAside | undefined;
  /** How many statements the last lint walked, of how many (the property test reports it). */
  lastWalked = { walked: 0, statements: 0 };

  lint(text: string, syntax: SyntaxTree, options: LintOptions = {}): LintResult {
    const previous = this.previous;
    this.previous = undefined;
    const facts = fileFacts(text, options.filePath);
    const source = options.source?.text === text ? options.source : new SourceText(text);
    const base = this.baseLint(previous, syntax, facts, options);
    const reuse = base ? this.reusable(base.lint, text, syntax, options, base.changes, source.lineCount) : undefined;
    const index = reuse?.index ?? NameIndex.of(syntax.root.children, text);
    const signatures = reuse?.signatures ?? new Map<SyntaxNode, string>();
    const lintOptions: LintOptions = { ...options, source, statementsMentioning: (name) => index.mentioners.get(name), statementsBinding: (name) => index.binders.get(name) };
    let linted = lintStatements(text, syntax, lintOptions, reuse?.lints);
    let walked = linted.walked.length;
    // Definitions reached through their names alone pass the edit on only if their calls' contexts changed;
    // the statements that this reaches are linted in one more pass, and so on. Signatures are recorded as
    // statements are linted after edits, not when the whole file is (they cost a third of that): a statement
    // without one passes the edit on.
    let changedSignatures: ReadonlySet<SyntaxNode> = reuse ? recordSignatures(linted, signatures, index, text) : NO_STATEMENTS;
    let spreading = reuse?.spreading;
    while (spreading && spreading.definitionsReached.size > 0 && !linted.ruleFailed) {
      const mentioned: string[] = [];
      for (const statement of spreading.definitionsReached) {
        if (!changedSignatures.has(statement) || spreading.continued.has(statement)) continue;
        spreading.continued.add(statement);
        mentioned.push(...namesOf(statement, text).mentions);
      }
      const added: SyntaxNode[] = [];
      spreading.definitionsReached = spreadToBinders(mentioned, index, spreading, text, added);
      if (added.length === 0) break;
      for (const statement of added) linted.statements.delete(statement);
      linted = lintStatements(text, syntax, lintOptions, linted.statements);
      walked += linted.walked.length;
      changedSignatures = recordSignatures(linted, signatures, index, text);
    }
    // A rule that threw is skipped for the rest of the walk, so the statements after it must be walked too.
    if (linted.ruleFailed && linted.walked.length < syntax.root.children.length) {
      linted = lintStatements(text, syntax, lintOptions);
      walked = linted.walked.length;
    }
    this.lastWalked = { walked, statements: syntax.root.children.length };
    // A rule that threw is skipped for the rest of its walk: what follows depends on the order, so start afresh.
    if (!linted.ruleFailed && linted.statements.size === syntax.root.children.length) {
      this.previous = { syntaxId: syntax.id, lineCount: source.lineCount, facts, options, statements: linted.statements, index, signatures };
    }
    return linted.result;
  }

  /**
   * The lint that this one can start from, and the edits since: the previous one, or the one set aside when the
   * whole text's facts changed, if these are its facts again. Sets the previous lint aside when the facts change.
   */
  private baseLint(previous: Previous | undefined, syntax: SyntaxTree, facts: string, options: LintOptions): { lint: Previous; changes: TextChange[] } | undefined {
    const setAside = this.setAside;
    this.setAside = undefined;
    const derivedFrom = syntax.derivedFrom;
    if (!previous || !derivedFrom || derivedFrom.id !== previous.syntaxId) return undefined;
    const change = derivedFrom.change;
    const setAsideFollows = setAside !== undefined && setAside.syntaxId === derivedFrom.id && setAside.changes.length < MAX_EDITS_SET_ASIDE;
    if (facts === previous.facts) {
      if (setAsideFollows) {
        setAside.changes.push(change);
        setAside.syntaxId = syntax.id;
        this.setAside = setAside;
      }
      return { lint: previous, changes: [change] };
    }
    // `reusable` leaves a lint of other facts untouched, so it can be kept.
    this.setAside = { lint: previous, changes: [change], syntaxId: syntax.id };
    if (setAsideFollows && setAside.lint.facts === facts && sameOptions(options, setAside.lint.options)) {
      setAside.changes.push(change);
      return { lint: setAside.lint, changes: setAside.changes };
    }
    return undefined;
  }

  /**
   * The lints of the statements that the edits from the tree of `previous` cannot reach, moved to their new offsets,
   * the name index brought up to date, and the statements reached only through their definitions' names
   * (linted again; whether the edit goes on through them is known after that); undefined when everything must
   * be linted again.
   */
  private reusable(
    previous: Previous,
    text: string,
    syntax: SyntaxTree,
    options: LintOptions,
    changes: readonly TextChange[],
    lineCount: number,
  ): { lints: Map<SyntaxNode, StatementLint>; index: NameIndex; signatures: Map<SyntaxNode, string>; spreading: Spreading } | undefined {
    if (!sameOptions(options, previous.options)) return undefined;
    const statements = syntax.root.children;
    const lints = previous.statements;
    // The loops over every statement are indexed or `forEach`: they run per keystroke, often before V8 has
    // optimised them, and unoptimised for-of loops allocate an iterator and a result per step.
    const changed: SyntaxNode[] = [];
    for (let i = 0; i < statements.length; i++) if (!lints.has(statements[i])) changed.push(statements[i]);
    const replaced: SyntaxNode[] = [];
    lints.forEach((_, statement) => {
      if (!isStatementOf(statement, syntax.root)) replaced.push(statement);
    });
    const names = (statement: SyntaxNode) => namesOf(statement, text);
    const edited = [...replaced.map((statement) => namesByStatement.get(statement)!), ...changed.map(names)];
    if (edited.some((entry) => !entry)) return undefined;
    const index = previous.index;
    for (const statement of replaced) index.remove(statement, namesByStatement.get(statement)!);
    for (const statement of changed) index.add(statement, names(statement));
    const signatures = previous.signatures;
    for (const statement of replaced) signatures.delete(statement);

    const reached = new Set<SyntaxNode>(changed);
    // Through the names read: definitions that changed, and the readers of what their readers bind.
    spread(edited.flatMap((entry) => entry.binds), index.readers, (reader) => names(reader).binds, reached);
    // Through the names bound: what the edited and reached statements mention may now be called differently.
    const mentioned = edited.flatMap((entry) => entry.mentions);
    for (const statement of reached) mentioned.push(...names(statement).mentions);
    const spreading: Spreading = { reached, continued: new Set(reached), definitionsReached: new Set() };
    spreading.definitionsReached = spreadToBinders(mentioned, index, spreading, text, []);

    const linesMoved = lineCount !== previous.lineCount;
    const before = new Set<string>();
    const after = new Set<string>();
    for (const statement of replaced) for (const name of namesByStatement.get(statement)!.identifiers) before.add(name);
    for (const statement of changed) for (const name of names(statement).identifiers) after.add(name);
    const namesChanged = before.size !== after.size || someMissing(before, after);

    const move = (offset: number): number | undefined => {
      let moved = offset;
      for (let i = 0; i < changes.length; i++) {
        const change = changes[i];
        if (moved > change.oldEnd) moved += change.newEnd - change.oldEnd;
        else if (moved >= change.start) return undefined;
      }
      return moved;
    };
    // The previous lint's map becomes this one's: kept lints stay (moved), the others go and are walked again.
    for (const statement of replaced) lints.delete(statement);
    for (const statement of reached) lints.delete(statement);
    lints.forEach((lint, statement) => {
      if (lint.findings.length === 0 && lint.pythonOnly.length === 0) return;
      const moved = lint.findings.length > 0 && (linesMoved || namesChanged) ? undefined : movedLint(lint, move);
      if (!moved) lints.delete(statement);
      else if (moved !== lint) lints.set(statement, moved);
    });
    return { lints, index, signatures, spreading };
  }
}

/** Where the spread through bound names stands during one lint. */
interface Spreading {
  /** Statements linted again (walked, or to be walked). */
  reached: Set<SyntaxNode>;
  /** Statements whose mentions have been spread. */
  continued: Set<SyntaxNode>;
  /** Statements reached only through their `def`s or `class`es and not spread from (yet). */
  definitionsReached: Set<SyntaxNode>;
}

/**
 * Adds to `spreading.reached` (and to `added`) the statements that bind one of `names`, and goes on with what
 * they mention in turn, except from statements that bind the name only by `def` or `class`: the new ones of
 * those are returned, to be looked at once linted again (`callerSignature`).
 */
function spreadToBinders(names: string[], index: NameIndex, spreading: Spreading, text: string, added: SyntaxNode[]): Set<SyntaxNode> {
  const definitionsReached = new Set<SyntaxNode>();
  const seen = new Set<string>();
  while (names.length > 0) {
    const name = names.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const statement of index.binders.get(name) ?? NO_STATEMENTS) {
      if (!spreading.reached.has(statement)) {
        spreading.reached.add(statement);
        added.push(statement);
        definitionsReached.add(statement);
      }
      if (spreading.continued.has(statement) || namesOf(statement, text).definitions.includes(name)) continue;
      // Reached through a value it binds (an assignment, an import): spread from it as well.
      spreading.continued.add(statement);
      definitionsReached.delete(statement);
      names.push(...namesOf(statement, text).mentions);
    }
  }
  return definitionsReached;
}

/**
 * Records `callerSignature` of the walked statements that define functions or classes that another statement
 * mentions, and returns those whose signature is not the one recorded before. The others are returned too,
 * without a signature: one that no other statement mentions any more (a call of it was just deleted) may have
 * gone cold, and one that is mentioned later has no signature to compare.
 */
function recordSignatures(linted: StatementsLint, signatures: Map<SyntaxNode, string>, index: NameIndex, text: string): Set<SyntaxNode> {
  const changed = new Set<SyntaxNode>();
  const analysis = linted.analysis;
  if (!analysis) return changed;
  const mentionedElsewhere = (statement: SyntaxNode, name: string) => {
    for (const mentioner of index.mentioners.get(name) ?? NO_STATEMENTS) if (mentioner !== statement) return true;
    return false;
  };
  for (const statement of linted.walked) {
    if (!namesOf(statement, text).definitions.some((name) => mentionedElsewhere(statement, name))) {
      signatures.delete(statement);
      changed.add(statement);
      continue;
    }
    const signature = analysis.hotPaths.callerSignature(statement);
    // Without a signature from before (not linted since the file was), it may have changed.
    if (signatures.get(statement) !== signature) changed.add(statement);
    signatures.set(statement, signature);
  }
  return changed;
}

const NO_STATEMENTS: ReadonlySet<SyntaxNode> = new Set();

/**
 * Adds to `reached` every statement that `statementsBy` lists for one of `names`, and goes on with the names
 * `next` gives of each statement added.
 */
function spread(names: string[], statementsBy: Map<string, Set<SyntaxNode>>, next: (statement: SyntaxNode) => Iterable<string>, reached: Set<SyntaxNode>): void {
  const seen = new Set<string>();
  while (names.length > 0) {
    const name = names.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const statement of statementsBy.get(name) ?? NO_STATEMENTS) {
      if (reached.has(statement)) continue;
      reached.add(statement);
      names.push(...next(statement));
    }
  }
}

/** Which statements read, bind and mention each name; kept up to date across edits. */
class NameIndex {
  readonly readers = new Map<string, Set<SyntaxNode>>();
  readonly binders = new Map<string, Set<SyntaxNode>>();
  readonly mentioners = new Map<string, Set<SyntaxNode>>();

  static of(statements: readonly SyntaxNode[], text: string): NameIndex {
    const index = new NameIndex();
    for (const statement of statements) {
      index.add(statement, namesOf(statement, text));
      // Gathered now, with the file: the first fix after an edit then asks the file's names without walking it.
      statementNameFacts(statement, text);
    }
    return index;
  }

  add(statement: SyntaxNode, names: StatementNames): void {
    for (const name of names.reads) addTo(this.readers, name, statement);
    for (const name of names.binds) addTo(this.binders, name, statement);
    for (const name of names.mentions) addTo(this.mentioners, name, statement);
  }

  remove(statement: SyntaxNode, names: StatementNames): void {
    for (const name of names.reads) this.readers.get(name)?.delete(statement);
    for (const name of names.binds) this.binders.get(name)?.delete(statement);
    for (const name of names.mentions) this.mentioners.get(name)?.delete(statement);
  }
}

function addTo(map: Map<string, Set<SyntaxNode>>, name: string, statement: SyntaxNode): void {
  const set = map.get(name);
  if (set) set.add(statement);
  else map.set(name, new Set([statement]));
}

function sameOptions(a: LintOptions, b: LintOptions): boolean {
  return (
    a.config === b.config &&
    a.filePath === b.filePath &&
    a.reportUnusedSuppressions === b.reportUnusedSuppressions &&
    a.rules === b.rules &&
    a.hotEntries === b.hotEntries &&
    a.linkModules === b.linkModules
  );
}

function someMissing(from: Set<string>, other: Set<string>): boolean {
  for (const name of from) if (!other.has(name)) return true;
  return false;
}

/** A statement's lint with every offset moved past the edit; undefined when an offset lay inside the edit. */
function movedLint(lint: StatementLint, move: (offset: number) => number | undefined): StatementLint | undefined {
  if (lint.findings.length === 0 && lint.pythonOnly.length === 0) return lint;
  const pythonOnly = [];
  for (const problem of lint.pythonOnly) {
    const offset = move(problem.offset);
    if (offset === undefined) return undefined;
    pythonOnly.push(offset === problem.offset ? problem : { ...problem, offset });
  }
  const findings = [];
  for (const finding of lint.findings) {
    const start = move(finding.start);
    const end = move(finding.end);
    if (start === undefined || end === undefined) return undefined;
    const fixes = [];
    for (const fix of finding.fixes) {
      const edits = [];
      for (const edit of fix.edits) {
        const editStart = move(edit.start);
        const editEnd = move(edit.end);
        if (editStart === undefined || editEnd === undefined) return undefined;
        edits.push(editStart === edit.start && editEnd === edit.end ? edit : { ...edit, start: editStart, end: editEnd });
      }
      fixes.push({ ...fix, edits });
    }
    findings.push({ ...finding, start, end, fixes });
  }
  return { findings, pythonOnly };
}

function namesOf(statement: SyntaxNode, text: string): StatementNames {
  const known = namesByStatement.get(statement);
  if (known) return known;
  const names = { reads: new Set<string>(), binds: new Set(moduleNamesBoundBy(statement, text)), mentions: new Set<string>(), identifiers: new Set<string>() };
  const scopes = new Map<SyntaxNode, Scope>();
  for (const scope of functionScopesIn(statement, text)) scopes.set(scope.node, scope);
  const attributeBases = new Set<string>();
  const stack = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const child of node.children) stack.push(child);
    if (node.type === "identifier") {
      const name = ownString(text.slice(node.start, node.end));
      names.identifiers.add(name);
      // Fixes also ask whether a name is declared `global`/`nonlocal` anywhere: a change to that is a change of names.
      if (node.parent?.type === "global_statement" || node.parent?.type === "nonlocal_statement") names.identifiers.add(`${node.parent.type} ${name}`);
      if (isNotARead(node)) continue;
      names.mentions.add(name);
      if (!boundByEnclosingFunction(node, name, scopes, statement)) names.reads.add(name);
    } else if ((node.type === "assignment" || node.type === "augmented_assignment") && !insideFunction(node, statement)) {
      // `args.loader = DataLoader(...)` at module level: rules follow `args.loader` by its text.
      const left = node.children.find((child) => child.field === "left");
      let target = left;
      while (target?.type === "attribute" || target?.type === "subscript") target = target.children[0];
      if (target !== left && target?.type === "identifier") {
        names.binds.add(ownString(text.slice(target.start, target.end)));
        attributeBases.add(text.slice(target.start, target.end));
      }
    }
  }
  // Kept as arrays: a file's worth of small sets is most of what the index costs in memory.
  const definitions = moduleDefinitionsOf(statement, text).filter((name) => !attributeBases.has(name));
  const kept: StatementNames = { reads: [...names.reads], binds: [...names.binds], definitions, mentions: [...names.mentions], identifiers: [...names.identifiers] };
  namesByStatement.set(statement, kept);
  return kept;
}

/** Does a function around `identifier` (inside the statement) bind its name? Then it never reads the module's. */
function boundByEnclosingFunction(identifier: SyntaxNode, name: string, scopes: Map<SyntaxNode, Scope>, statement: SyntaxNode): boolean {
  let child = identifier;
  for (let current = identifier.parent; current && child !== statement; child = current, current = current.parent) {
    if (current.type !== "function_definition") continue;
    // Default values and annotations of parameters are evaluated outside the function.
    if (child.field === "parameters" || child.field === "return_type") continue;
    if (scopes.get(current)?.bindings.has(name)) return true;
  }
  return false;
}

/** `x.name`, `def name`, `class name`, `f(name=...)`, `def f(name)`: identifiers that never resolve to a binding. */
function isNotARead(identifier: SyntaxNode): boolean {
  const parent = identifier.parent;
  if (!parent) return false;
  switch (parent.type) {
    case "attribute":
      return identifier.field === "attribute";
    case "function_definition":
    case "class_definition":
    case "keyword_argument":
    case "default_parameter":
    case "typed_default_parameter":
      return identifier.field === "name";
    case "parameters":
    case "list_splat_pattern":
    case "dictionary_splat_pattern":
      return true;
    case "typed_parameter":
      return identifier.field !== "type";
    default:
      return false;
  }
}

function insideFunction(node: SyntaxNode, statement: SyntaxNode): boolean {
  for (let current = node.parent; current && current !== statement.parent; current = current.parent) if (current.type === "function_definition") return true;
  return false;
}
