/**
 * "Check every N steps": a check that leaves the step loop (`if torch.isnan(loss).any(): break`,
 * `if not torch.isfinite(loss): raise ...`, `return`) cannot become `torch.where`, but it can wait for the GPU
 * once every N steps instead of every step:
 *
 *     check_every = 100  # steps between checks; each check waits for the GPU
 *     for step, batch in enumerate(loader):
 *         ...
 *         if (step + 1) % check_every == 0 and torch.isnan(loss).any():
 *             break
 *
 * A suggestion: when the check would fire, the loop now stops up to N-1 steps later, and a problem that
 * appears only in the last steps (after the last multiple of N) is not caught at all.
 */
import type { Fix, RuleContext, TextEdit } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { enclosingLoop, identifierUses, truthReads, usedInFile, useKind } from "./facts";
import { replaceNode } from "./edits";
import { insertLinesBefore } from "./indentation";
import { isBooleanTensor, isBuiltin, isPureTest, isSimpleComparison, isTensorItem } from "./tensor-tests";

const CHECK_EVERY = "check_every";
const DEFAULT_PERIOD = 100;
/** Names tried for a counter that `enumerate` introduces. */
const COUNTER_NAMES = ["step", "step_index"];
const LEAVES_LOOP = new Set(["break_statement", "return_statement", "raise_statement"]);
/** Conditions that need parentheses after `... and `. */
const LOOSE_TYPES = new Set(["boolean_operator", "conditional_expression", "named_expression", "lambda"]);

/**
 * A test that waits for the GPU and does nothing else, so skipping it on most steps changes only when it fires:
 * a bool tensor (`torch.isnan(loss).any()`) or `t.item() > c`, built from pure operations.
 */
function isTensorTest(read: SyntaxNode, context: RuleContext): boolean {
  const waits = isBooleanTensor(read, context) || (isSimpleComparison(read) && unparenthesized(read).children.some((operand) => isTensorItem(operand, context)));
  return waits && isPureTest(read, context);
}

/** The `if` statement whose whole condition holds `read` (through `and`/`or`/`not` and parentheses). */
function ifStatementOf(read: SyntaxNode): SyntaxNode | undefined {
  let current = read;
  while (current.parent && ["parenthesized_expression", "not_operator", "boolean_operator"].includes(current.parent.type)) current = current.parent;
  return current.field === "condition" && current.parent?.type === "if_statement" ? current.parent : undefined;
}

/** `if C:` without `elif`/`else` whose block leaves the loop (`break`, `return`, `raise` among its statements). */
function leavesLoop(statement: SyntaxNode): boolean {
  if (statement.children.some((child) => child.field === "alternative")) return false;
  const block = childByField(statement, "consequence");
  return !!block && block.children.some((child) => LEAVES_LOOP.has(child.type));
}

/**
 * The loop runs once per training step and no step loop encloses it: the counter of a loop over the
 * micro-batches of one step restarts every step, so `(i + 1) % N == 0` might never hold.
 */
function isOutermostStepLoop(loop: SyntaxNode, context: RuleContext): boolean {
  const hotPaths = context.analysis.hotPaths;
  if (hotPaths.loopKind(loop) !== "step") return false;
  for (let outer = enclosingLoop(loop); outer; outer = enclosingLoop(outer)) if (hotPaths.loopKind(outer) === "step") return false;
  return true;
}

/** Does anything in the loop's body write `name` (so it does not count iterations)? */
function writtenInBody(loop: SyntaxNode, name: string, context: RuleContext): boolean {
  const body = childByField(loop, "body");
  return !body || identifierUses(body, name, context.analysis.source.text).some((use) => useKind(use) !== "read");
}

/**
 * The loop's iteration counter: `i` of `for i in range(n)` / `range(a, b)`, `step` of
 * `for step, batch in enumerate(loader)`, or a new `step` from `enumerate` (with its edits) when the loop has
 * none and the name is free in the file.
 */
function loopCounter(loop: SyntaxNode, context: RuleContext): { name: string; edits: TextEdit[] } | undefined {
  const left = childByField(loop, "left");
  const right = childByField(loop, "right");
  if (!left || !right || context.text(loop).startsWith("async")) return undefined;
  const iterable = unparenthesized(right);
  const callee = iterable.type === "call" ? childByField(iterable, "function") : undefined;
  const args = iterable.type === "call" ? childByField(iterable, "arguments")?.children ?? [] : [];
  let counter: SyntaxNode | undefined;
  if (callee && isBuiltin(callee, "enumerate", context)) {
    const first = left.children[0];
    if ((left.type === "pattern_list" || left.type === "tuple_pattern") && left.children.length === 2 && first.type === "identifier") counter = first;
    else return undefined;
  } else if (callee && isBuiltin(callee, "range", context) && left.type === "identifier") {
    // A step argument would make `(i + 1) % N` fire irregularly, or never.
    if (args.length >= 1 && args.length <= 2 && args.every((arg) => !["keyword_argument", "list_splat", "dictionary_splat"].includes(arg.type))) counter = left;
  }
  if (counter) return writtenInBody(loop, context.text(counter), context) ? undefined : { name: context.text(counter), edits: [] };
  return enumerateEdits(loop, left, right, context);
}

/** `for x, y in loader:` → `for step, (x, y) in enumerate(loader):`, with a counter name used nowhere in the file. */
function enumerateEdits(loop: SyntaxNode, left: SyntaxNode, right: SyntaxNode, context: RuleContext): { name: string; edits: TextEdit[] } | undefined {
  const text = context.analysis.source.text;
  const name = COUNTER_NAMES.find((candidate) => !usedInFile(context.analysis.tree.root, candidate, text));
  if (!name) return undefined;
  const target = left.type === "pattern_list" ? `(${context.text(left)})` : ["identifier", "tuple_pattern", "list_pattern"].includes(left.type) ? context.text(left) : undefined;
  if (!target || ["expression_list", "ERROR"].includes(right.type)) return undefined;
  return { name, edits: [replaceNode(left, `${name}, ${target}`), replaceNode(right, `enumerate(${context.text(right)})`)] };
}

/**
 * `check_every` for the loop: reused when the statement just before the loop is `check_every = <int>` (an
 * earlier fix of the same loop), otherwise declared there, when the name is used nowhere in the file.
 */
function periodConstant(loop: SyntaxNode, context: RuleContext): TextEdit[] | undefined {
  const siblings = loop.parent?.children ?? [];
  const previous = siblings[siblings.indexOf(loop) - 1];
  const assignment = previous?.type === "expression_statement" ? previous.children[0] : undefined;
  if (assignment?.type === "assignment" && context.text(childByField(assignment, "left")!) === CHECK_EVERY && childByField(assignment, "right")?.type === "integer") return [];
  const text = context.analysis.source.text;
  if (usedInFile(context.analysis.tree.root, CHECK_EVERY, text)) return undefined;
  const declaration = insertLinesBefore(text, loop, [`${CHECK_EVERY} = ${DEFAULT_PERIOD}  # steps between checks; each check waits for the GPU`]);
  return declaration ? [declaration] : undefined;
}

/**
 * `if <tensor test>: break` (or `return`, `raise`) in a `for` loop → the same test every `check_every` steps:
 * `if (step + 1) % check_every == 0 and <tensor test>:`. `read` is the reported part of the condition;
 * every part of the condition must be a tensor test, so a condition already guarded is left alone.
 */
export function periodicCheckFix(read: SyntaxNode, context: RuleContext): Fix | undefined {
  const statement = ifStatementOf(read);
  const condition = statement ? childByField(statement, "condition") : undefined;
  if (!statement || !condition || !leavesLoop(statement)) return undefined;
  if (!truthReads(condition).every((part) => isTensorTest(part, context))) return undefined;
  const loop = enclosingLoop(statement);
  if (loop?.type !== "for_statement" || !isOutermostStepLoop(loop, context)) return undefined;
  const counter = loopCounter(loop, context);
  const constant = counter && periodConstant(loop, context);
  if (!counter || !constant) return undefined;
  const test = LOOSE_TYPES.has(condition.type) ? `(${context.text(condition)})` : context.text(condition);
  const guard = replaceNode(condition, `(${counter.name} + 1) % ${CHECK_EVERY} == 0 and ${test}`);
  return { title: `Check every \`${CHECK_EVERY}\` steps instead of every step`, safe: false, edits: [...constant, ...counter.edits, guard] };
}
