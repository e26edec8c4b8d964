/** Questions the host-read fixes ask about an expression: is it a tensor, a bool tensor, a comparison, `t.item()`, free of side effects? */
import type { RuleContext } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { resolveBinding, scopeOf } from "../analysis/scopes";
import { isTensorEvidence } from "../rules/support";
import { BOOLEAN_OPERATION } from "./facts";

const COMPARISONS = new Set(["<", ">", "<=", ">=", "==", "!="]);

/** A known-positive tensor (a GPU tensor, or a tensor in a file that imports torch), not a NumPy array. */
export function isKnownTensor(node: SyntaxNode, context: RuleContext): boolean {
  return isTensorEvidence(context.analysis.tensorEvidence(node), context);
}

/** `a < b` with exactly two operands (a chain `a < b < c` is two Python bools joined by `and`). */
export function isSimpleComparison(raw: SyntaxNode): boolean {
  const node = unparenthesized(raw);
  return node.type === "comparison_operator" && node.children.length === 2 && node.tokens.length === 1 && COMPARISONS.has(node.tokens[0]);
}

/**
 * A tensor expression whose value is a bool tensor, so `torch.where` accepts it as a condition: a comparison
 * of a tensor, or `torch.isnan(t)`, `t.isfinite()`, `t.any()`, `(t > 0).all()`, ...
 */
export function isBooleanTensor(raw: SyntaxNode, context: RuleContext): boolean {
  const node = unparenthesized(raw);
  if (!isKnownTensor(node, context)) return false;
  if (isSimpleComparison(node)) return true;
  if (node.type !== "call") return false;
  const callee = childByField(node, "function");
  const name = callee?.type === "attribute" ? context.text(childByField(callee, "attribute")!) : callee ? context.text(callee).replace(/^torch\./, "") : "";
  return /^(any|all)$/.test(name) || BOOLEAN_OPERATION.test(name);
}

/** `t.item()` on a known tensor. */
export function isTensorItem(raw: SyntaxNode, context: RuleContext): boolean {
  const call = unparenthesized(raw);
  if (call.type !== "call" || (childByField(call, "arguments")?.children.length ?? 1) !== 0) return false;
  const callee = childByField(call, "function");
  return callee?.type === "attribute" && context.text(childByField(callee, "attribute")!) === "item" && isKnownTensor(childByField(callee, "object")!, context);
}

/** Is `node` the name of the Python builtin `name` (not rebound in this file)? */
export function isBuiltin(node: SyntaxNode, name: string, context: RuleContext): boolean {
  return node.type === "identifier" && context.text(node) === name && !resolveBinding(name, node.start, scopeOf(node, context.analysis.scopes));
}

/** Is the name bound before `node` is evaluated (so evaluating it where Python would not cannot raise `NameError`)? */
function isBoundBefore(node: SyntaxNode, context: RuleContext): boolean {
  const name = context.text(node);
  const scope = scopeOf(node, context.analysis.scopes);
  const own = scope.bindings.get(name);
  if (own && own.length > 0) return own[0].effective <= node.start;
  return resolveBinding(name, node.start, scope) !== undefined;
}

/**
 * An expression that Python may evaluate where it did not before without side effects or errors: a bound
 * name, an attribute of one, a number literal, or `+ - *` (and `/` with a tensor operand, which cannot
 * divide by zero) of those. Calls and subscripts (which may raise an IndexError) are not.
 */
export function isSideEffectFree(raw: SyntaxNode, context: RuleContext): boolean {
  const node = unparenthesized(raw);
  switch (node.type) {
    case "identifier":
      return isBoundBefore(node, context);
    case "attribute": {
      const object = unparenthesized(childByField(node, "object")!);
      return (object.type === "identifier" || object.type === "attribute") && isSideEffectFree(object, context);
    }
    case "integer":
    case "float":
      return true;
    case "unary_operator":
      return (node.tokens[0] === "-" || node.tokens[0] === "+") && node.children.length === 1 && isSideEffectFree(node.children[0], context);
    case "binary_operator": {
      const operator = node.tokens[0];
      const operands = node.children;
      if (operands.length !== 2 || !operands.every((operand) => isSideEffectFree(operand, context))) return false;
      if (operator === "+" || operator === "-" || operator === "*") return true;
      return operator === "/" && operands.some((operand) => isKnownTensor(operand, context));
    }
    default:
      return false;
  }
}

/** Tensor methods (and `torch.` functions) that only compute: reading their result twice, or not at all, changes nothing. */
const PURE_OPERATION = /^(item|any|all|abs|sum|mean|max|min|amax|amin|norm|detach|float|double)$/;

/**
 * A test that may be skipped without changing anything else: side-effect-free operands, comparisons of them, and
 * pure tensor operations on them (`torch.isnan(loss).any()`, `loss.item() > 1e4`); no call of other functions.
 */
export function isPureTest(raw: SyntaxNode, context: RuleContext): boolean {
  const node = unparenthesized(raw);
  if (isSideEffectFree(node, context)) return true;
  if (node.type === "comparison_operator") return node.children.every((operand) => isPureTest(operand, context));
  if (node.type !== "call") return false;
  const callee = childByField(node, "function");
  const args = childByField(node, "arguments");
  if (callee?.type !== "attribute" || args?.type !== "argument_list") return false;
  const name = context.text(childByField(callee, "attribute")!);
  if (!PURE_OPERATION.test(name) && !BOOLEAN_OPERATION.test(name)) return false;
  const receiver = childByField(callee, "object")!;
  const operands = context.text(receiver) === "torch" ? args.children : [receiver, ...args.children];
  return operands.every((operand) => operand.type !== "keyword_argument" && isPureTest(operand, context));
}
