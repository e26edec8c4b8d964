/**
 * Batched logging: a log call in a step loop that reads one GPU value every step (`print(f"{loss.item():.4f}")`,
 * `logger.info(...)`, `writer.add_scalar(tag, loss.item(), step)`, `pbar.set_postfix(loss=...)`,
 * `wandb.log({...})`) becomes a device sum of that value, read with one `.item()` and logged every `log_every`
 * steps, and once more after the loop for the steps since the last report:
 *
 *     log_every = 10
 *     loss_sum = 0.0
 *     for step, (x, y) in enumerate(loader):
 *         ...
 *         loss_sum += loss.detach().double()
 *         if (step + 1) % log_every == 0:
 *             print(f"loss {loss_sum.item():.4f}")
 *             loss_sum = 0.0
 *     if torch.is_tensor(loss_sum):
 *         print(f"loss {loss_sum.item():.4f}")
 *
 * Each report logs, with the user's format, the sum of the values the old line logged over the steps since the
 * previous report, exactly (`deviceAddend`); the accumulator starts as a Python number, so no device needs to
 * be known, and is a tensor exactly when steps are waiting to be reported. Other names in the log call show
 * their values at the reporting step. A suggestion: the program logs less often. Declined on every shape the
 * fix cannot reason about.
 */
import type { Fix, RuleContext, TextEdit } from "../rule";
import { SyntaxNode, childByField, contains, unparenthesized } from "../syntax";
import { LOGGER_NAME, LOGGING_METHOD, lastName } from "../analysis/names";
import { isStringNode, isTensorKind } from "../analysis/tensor-evidence";
import { MethodCall, addScalarValue, keyword, methodCall, positional, shortText } from "../rules/support";
import { AccumulatedKind, accumulatedKind, deviceAddend } from "./accumulation";
import { boundInFile, declaredShared, enclosingLoop, enclosingScope, identifierUses, inTry, isNumberLiteral, isVariable, useKind } from "./facts";
import { ensureTorchImport } from "./imports";
import { insertLinesAfter, insertLinesBefore, lineEnding, restOfLineIsBlank, statementIndent } from "./indentation";

/** Steps between two reports in the rewritten loop; the user changes the constant the fix declares. */
const DEFAULT_LOG_EVERY = 10;

/** `print(... loss.item() ...)` and the other log calls: batch the `.item()` (item-in-hot-path). */
export function batchedItemLoggingFix(call: MethodCall, context: RuleContext): Fix | undefined {
  return batchedLoggingFix(call.call, call.receiver, context);
}

/**
 * A tensor formatted in a log call (tensor-formatting), only where what is logged is its `.item()`: an f-string
 * field with a format spec (`Tensor.__format__` formats `self.item()` for a 0-dim tensor, and raises for any
 * other with a spec) or `add_scalar`'s value (logged as `float(value)`). `print(t)` and `f"{t}"` print a tensor
 * of any shape as `tensor(...)`: no fix.
 */
export function batchedTensorLoggingFix(tensor: SyntaxNode, context: RuleContext): Fix | undefined {
  return loggedAsItem(tensor, context) ? batchedLoggingFix(tensor, tensor, context) : undefined;
}

function loggedAsItem(tensor: SyntaxNode, context: RuleContext): boolean {
  const parent = tensor.parent;
  if (parent?.type === "interpolation" && tensor.field === "expression") {
    const spec = childByField(parent, "format_specifier");
    return !!spec && context.text(spec).length > 1 && !childByField(parent, "type_conversion");
  }
  const args = parent?.type === "keyword_argument" ? parent.parent : parent;
  const call = args?.type === "argument_list" ? args.parent : undefined;
  const slot = call && methodCall(call, context)?.method === "add_scalar" ? addScalarValue(call, context) : undefined;
  return !!slot && unparenthesized(slot) === tensor;
}

/**
 * `logged` (the `.item()` call, or the tensor itself) is what the log call reads each step; `value` the tensor
 * whose per-step values are summed.
 */
function batchedLoggingFix(logged: SyntaxNode, value: SyntaxNode, context: RuleContext): Fix | undefined {
  const text = context.analysis.source.text;
  const kind = accumulatedKind(value, context);
  const logCall = kind ? logCallAround(logged, context) : undefined;
  const statement = logCall?.parent;
  if (!kind || !logCall || statement?.type !== "expression_statement" || statement.children.length !== 1) return undefined;
  const loop = enclosingLoop(statement);
  if (!loop || !isBatchableLoop(loop, statement, logged, context)) return undefined;
  const scope = enclosingScope(statement);
  if (scope.type !== "function_definition" && scope.type !== "module") return undefined;
  // An exception caught around the loop would skip the report after it, and the program would go on without it.
  if (inTry(loop, scope)) return undefined;
  if (!othersAreBatchable(statement, logged, logCall, context) || !readsHoldAfterLoop(statement, logged, logCall, loop, context)) return undefined;

  const loopIndent = statementIndent(text, loop);
  const indent = statementIndent(text, statement);
  if (loopIndent === undefined || indent === undefined || !indent.startsWith(loopIndent) || indent === loopIndent) return undefined;
  if (!restOfLineIsBlank(text, statement.end) || hasMultilineString(statement, context)) return undefined;
  const unit = indent.slice(loopIndent.length);

  const taken = new Set<string>();
  const counter = loopCounter(loop, scope, context, taken);
  if (!counter) return undefined;
  const every = logInterval(loop, scope, context, taken);
  const sum = freshName(scope, [`${accumulatorBase(value, kind, context)}_sum`], context, taken);
  const zero = kind === "count" ? "0" : "0.0";
  const logLine = text.slice(statement.start, logged.start) + `${sum}.item()` + text.slice(logged.end, statement.end);

  const nl = lineEnding(text);
  const batched = [
    `${sum} += ${deviceAddend(kind, context.text(value))}`,
    `${indent}if ${reportCondition(counter, every.name)}:`,
    // Continuation lines of a multi-line call move in with it (no string spans lines: checked above).
    `${indent}${unit}${logLine.replace(/\n/g, `\n${unit}`)}`,
    `${indent}${unit}${sum} = ${zero}`,
  ].join(nl);
  const before = insertLinesBefore(text, loop, [...(every.declare ? [`${every.name} = ${DEFAULT_LOG_EVERY}`] : []), `${sum} = ${zero}`]);
  const after = insertLinesAfter(text, loop, [`if torch.is_tensor(${sum}):`, `${unit}${logLine}`]);
  if (!before || !after) return undefined;
  const edits: TextEdit[] = [before, ...counter.edits, { start: statement.start, end: statement.end, text: batched }, after];
  const torchImport = ensureTorchImport(text, context.analysis.tree.root);
  if (torchImport) edits.push(torchImport);
  return { title: `Log the sum of \`${shortText(value, context)}\` every \`${every.name}\` steps (one \`.item()\` per report)`, safe: false, edits };
}

/**
 * The log call that receives `logged` unchanged: as an argument, a keyword value, an f-string field, a `%` or
 * `str.format` argument, a dict or tuple item. Arithmetic on the way (`loss.item() * 2`) would have to move
 * into the sum: no fix.
 */
function logCallAround(logged: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  let current = logged;
  for (let parent = current.parent; parent; current = parent, parent = current.parent) {
    if (parent.type === "argument_list") {
      const call = parent.parent!;
      if (isLogCall(call, context)) return entersAsValue(call, current, context) ? call : undefined;
      if (!isStringFormat(call, context)) return undefined;
      parent = call;
      continue;
    }
    if (!passesValueThrough(parent, current, context)) return undefined;
  }
  return undefined;
}

function passesValueThrough(parent: SyntaxNode, child: SyntaxNode, context: RuleContext): boolean {
  switch (parent.type) {
    case "string":
    case "concatenated_string":
    case "parenthesized_expression":
    case "dictionary":
    case "tuple":
    case "list":
      return true;
    case "interpolation":
      return child.field === "expression" && !selfDocumenting(parent, child, context);
    case "pair":
    case "keyword_argument":
      return child.field === "value";
    case "binary_operator": {
      const left = childByField(parent, "left");
      return parent.tokens[0] === "%" && child.field === "right" && !!left && isStringNode(left);
    }
    default:
      return false;
  }
}

/** `f"{loss.item()=}"` prints the expression's own text, which the fix would change. */
function selfDocumenting(interpolation: SyntaxNode, expression: SyntaxNode, context: RuleContext): boolean {
  const next = interpolation.children.find((child) => child.start >= expression.end);
  return context.analysis.source.text.slice(expression.end, next ? next.start : interpolation.end - 1).includes("=");
}

/** `"loss {:.4f}".format(...)`. */
function isStringFormat(call: SyntaxNode | null, context: RuleContext): boolean {
  const method = call?.type === "call" ? methodCall(call, context) : undefined;
  return method?.method === "format" && isStringNode(method.receiver);
}

/** `len(x)`: reads a size, without effects on the built-in containers (and without a sync on a tensor). */
function isLen(call: SyntaxNode, context: RuleContext): boolean {
  const callee = childByField(call, "function");
  return callee?.type === "identifier" && context.text(callee) === "len" && !isRebound("len", context);
}

/** `print`, `logger.info`-style calls, tqdm's `set_postfix`/`set_description`, TensorBoard's `add_scalar`, `wandb.log`. */
function isLogCall(call: SyntaxNode | null, context: RuleContext): boolean {
  if (call?.type !== "call") return false;
  const callee = childByField(call, "function");
  if (callee?.type === "identifier") return context.text(callee) === "print";
  const method = methodCall(call, context);
  if (!method) return false;
  const receiver = context.text(method.receiver);
  if (LOGGING_METHOD.test(method.method) && LOGGER_NAME.test(lastName(receiver))) return true;
  if (/^(set_postfix|set_postfix_str|set_description|add_scalar)$/.test(method.method)) return true;
  return receiver === "wandb" && method.method === "log";
}

/** `add_scalar` logs the value argument; a number in its tag or step position is not a logged value. */
function entersAsValue(call: SyntaxNode, argument: SyntaxNode, context: RuleContext): boolean {
  if (methodCall(call, context)?.method !== "add_scalar") return true;
  const slot = addScalarValue(call, context);
  return !!slot && (slot === argument || (argument.type === "keyword_argument" && childByField(argument, "value") === slot));
}

const PLAIN_DATA_TYPES = new Set([
  "call", "argument_list", "keyword_argument", "identifier", "attribute", "subscript", "slice", "string", "string_start",
  "string_content", "string_end", "escape_sequence", "escape_interpolation", "interpolation", "format_specifier",
  "type_conversion", "concatenated_string", "integer", "float", "true", "false", "none", "binary_operator",
  "unary_operator", "boolean_operator", "comparison_operator", "not_operator", "parenthesized_expression",
  "conditional_expression", "dictionary", "pair", "tuple", "list",
]);

/**
 * Everything else the log call reads is plain data that may be read at the reporting step instead of every
 * step: names, attributes, literals, operators, no other call (a call could have effects or be another sync),
 * and no tensor (another per-step tensor value is not summed: no fix).
 */
function othersAreBatchable(statement: SyntaxNode, logged: SyntaxNode, logCall: SyntaxNode, context: RuleContext): boolean {
  const stack = [...statement.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === logged) continue;
    if (!PLAIN_DATA_TYPES.has(node.type)) return false;
    if (node.type === "call" && node !== logCall && !isStringFormat(node, context) && !isLen(node, context)) return false;
    const isValue = node.type === "identifier" || node.type === "attribute" || node.type === "subscript";
    if (isValue && node.field !== "function" && node.field !== "attribute" && node.field !== "name" && node.parent?.field !== "function") {
      if (isTensorKind(context.analysis.tensorEvidence(node).kind)) return false;
    }
    stack.push(...node.children);
  }
  return true;
}

/**
 * The report after the loop reads the names of the log call once more: they must still hold what they held at
 * the log call in the last step. So the loop body writes none of them after the statement, and touches no
 * name at all whose attributes or items the call reads (`self.global_step`, `meter.avg`), since any call
 * could change those.
 */
function readsHoldAfterLoop(statement: SyntaxNode, logged: SyntaxNode, logCall: SyntaxNode, loop: SyntaxNode, context: RuleContext): boolean {
  const text = context.analysis.source.text;
  const body = childByField(loop, "body")!;
  const callee = childByField(logCall, "function")!;
  for (const name of readNames(statement, logged)) {
    const later = identifierUses(body, context.text(name), text).filter((use) => use.start >= statement.end);
    if (later.some((use) => useKind(use) !== "read")) return false;
    const readsInside = (name.parent?.type === "attribute" && name.field === "object") || (name.parent?.type === "subscript" && name.field === "value");
    if (readsInside && !contains(callee, name) && later.length > 0) return false;
  }
  return true;
}

/** The variables (identifiers, not attribute names or keywords) of `statement` outside `logged`. */
function readNames(statement: SyntaxNode, logged: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const stack = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === logged) continue;
    stack.push(...node.children);
    if (isVariable(node)) found.push(node);
  }
  return found;
}

/**
 * A plain `for` step loop (no `async`, no `else:`) whose every pass that reaches the log statement ends with
 * it having run: no `continue`/`break` before it (the loop variables would move past the last reported step),
 * no `return`/`yield` anywhere in it (the report after the loop would be skipped). The statement stands
 * directly in its body, and the code after the loop runs rarely (it holds the last report).
 */
function isBatchableLoop(loop: SyntaxNode, statement: SyntaxNode, logged: SyntaxNode, context: RuleContext): boolean {
  const body = childByField(loop, "body");
  if (loop.type !== "for_statement" || statement.parent !== body || childByField(loop, "alternative")) return false;
  if (/^async\b/.test(context.text(loop))) return false;
  if (context.analysis.contextOf(logged).loop !== loop || context.analysis.hotPaths.loopKind(loop) !== "step") return false;
  if (context.analysis.contextOf(loop).hot) return false;
  return !leavesEarly(body!, statement, 0);
}

function leavesEarly(node: SyntaxNode, statement: SyntaxNode, loopDepth: number): boolean {
  for (const child of node.children) {
    if (child.type === "function_definition" || child.type === "lambda" || child.type === "class_definition") continue;
    if (child.type === "return_statement" || child.type === "yield") return true;
    if ((child.type === "continue_statement" || child.type === "break_statement") && loopDepth === 0 && child.start < statement.start) return true;
    const nested = child.type === "for_statement" || child.type === "while_statement" ? 1 : 0;
    if (leavesEarly(child, statement, loopDepth + nested)) return true;
  }
  return false;
}

/** A string literal spanning lines: its continuation lines cannot be re-indented without changing it. */
function hasMultilineString(statement: SyntaxNode, context: RuleContext): boolean {
  const stack = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "string" && /[\r\n]/.test(context.text(node))) return true;
    stack.push(...node.children);
  }
  return false;
}

/** The loop's step counter: its value in the first pass, and the edits that introduce it when the loop has none. */
interface Counter {
  name: string;
  start: number;
  edits: TextEdit[];
}

/**
 * `for i, batch in enumerate(xs[, start])` and `for step in range([start, ]stop)` count already (an `enumerate`
 * start must be an integer literal, or no fix); any other `for` gets `enumerate` around its iterable and a free
 * name.
 */
function loopCounter(loop: SyntaxNode, scope: SyntaxNode, context: RuleContext, taken: Set<string>): Counter | undefined {
  const text = context.analysis.source.text;
  const left = childByField(loop, "left");
  const right = childByField(loop, "right");
  if (!left || !right || right.type === "expression_list" || isRebound("enumerate", context)) return undefined;
  const iterable = unparenthesized(right);
  const enumerated = isCallTo(iterable, "enumerate", context);
  const existing = enumerated ? enumerateCounter(left, iterable, context) : rangeCounter(left, iterable, context);
  if (enumerated && !existing) return undefined;
  if (existing) {
    const written = identifierUses(childByField(loop, "body")!, existing.name, text).some((use) => useKind(use) !== "read");
    return written || declaredShared(scope, existing.name, text) ? undefined : existing;
  }
  const name = freshName(scope, ["step", "batch_idx"], context, taken);
  const target = left.type === "pattern_list" ? `(${context.text(left)})` : context.text(left);
  return {
    name,
    start: 0,
    edits: [
      { start: left.start, end: left.end, text: `${name}, ${target}` },
      { start: right.start, end: right.end, text: `enumerate(${context.text(right)})` },
    ],
  };
}

function isCallTo(node: SyntaxNode, builtin: string, context: RuleContext): boolean {
  const callee = node.type === "call" ? childByField(node, "function") : undefined;
  return callee?.type === "identifier" && context.text(callee) === builtin;
}

/** `for i, batch in enumerate(xs)`, `enumerate(xs, 1)`, `enumerate(xs, start=1)`: `i`, from the start given. */
function enumerateCounter(left: SyntaxNode, call: SyntaxNode, context: RuleContext): Counter | undefined {
  if ((left.type !== "pattern_list" && left.type !== "tuple_pattern") || left.children.length !== 2 || left.children[0].type !== "identifier") return undefined;
  const values = positional(call);
  const start = values[1] ?? keyword(call, "start", context);
  const expected = values.length + (start && values.length === 1 ? 1 : 0);
  if (values.length < 1 || values.length > 2 || (childByField(call, "arguments")?.children.length ?? 0) !== expected) return undefined;
  const first = start ? integerValue(start, context) : 0;
  return first === undefined ? undefined : { name: context.text(left.children[0]), start: first, edits: [] };
}

/** `for step in range(n)`, `range(1, n + 1)`: `step`, from an integer literal start, by steps of 1. */
function rangeCounter(left: SyntaxNode, call: SyntaxNode, context: RuleContext): Counter | undefined {
  if (left.type !== "identifier" || !isCallTo(call, "range", context) || isRebound("range", context)) return undefined;
  const values = positional(call);
  if ((childByField(call, "arguments")?.children.length ?? 0) !== values.length) return undefined;
  const first = values.length === 1 ? 0 : values.length === 2 ? integerValue(values[0], context) : undefined;
  return first === undefined ? undefined : { name: context.text(left), start: first, edits: [] };
}

/** A decimal integer literal, possibly negated. */
function integerValue(node: SyntaxNode, context: RuleContext): number | undefined {
  if (!isNumberLiteral(node, true)) return undefined;
  const digits = context.text(node).replace(/[\s()_]/g, "");
  return /^[-+]?\d+$/.test(digits) ? Number(digits) : undefined;
}

/** `(step + 1) % log_every == 0` for a counter starting at 0; the same step count for any other start. */
function reportCondition(counter: Counter, every: string): string {
  const shift = 1 - counter.start;
  const index = shift === 0 ? counter.name : shift > 0 ? `(${counter.name} + ${shift})` : `(${counter.name} - ${-shift})`;
  return `${index} % ${every} == 0`;
}

/**
 * `log_every`: one the scope sets once to a positive integer literal just before the loop (another batched log
 * line of the same loop declared it), or a new one.
 */
function logInterval(loop: SyntaxNode, scope: SyntaxNode, context: RuleContext, taken: Set<string>): { name: string; declare: boolean } {
  const text = context.analysis.source.text;
  const name = "log_every";
  const writes = identifierUses(scope, name, text).filter((use) => useKind(use) !== "read");
  const assignment = writes.length === 1 && useKind(writes[0]) === "assign" ? writes[0].parent! : undefined;
  const statement = assignment?.parent;
  const value = assignment ? childByField(assignment, "right") : undefined;
  if (statement?.type === "expression_statement" && statement.parent === loop.parent && statement.end <= loop.start && value && (integerValue(value, context) ?? 0) > 0 && !declaredShared(scope, name, text)) {
    return { name, declare: false };
  }
  return { name: freshName(scope, [name, "log_every_n"], context, taken), declare: true };
}

/** `loss` → `loss_sum`; `self.train_loss` → `train_loss_sum`; a call → after its kind. */
function accumulatorBase(value: SyntaxNode, kind: AccumulatedKind, context: RuleContext): string {
  const node = unparenthesized(value);
  if (node.type === "identifier" || node.type === "attribute") return lastName(context.text(node));
  return kind;
}

/** The first candidate (or the first with a number appended) that nothing in the scope uses. */
function freshName(scope: SyntaxNode, candidates: string[], context: RuleContext, taken: Set<string>): string {
  const text = context.analysis.source.text;
  const free = (name: string) => !taken.has(name) && identifierUses(scope, name, text).length === 0 && !declaredShared(scope, name, text);
  let name = candidates.find(free);
  for (let n = 2; !name; n++) if (free(`${candidates[0]}_${n}`)) name = `${candidates[0]}_${n}`;
  taken.add(name);
  return name;
}

/** A builtin the file assigns, imports or defines anew. */
function isRebound(builtin: string, context: RuleContext): boolean {
  return boundInFile(context.analysis.tree.root, builtin, context.analysis.source.text);
}
