/** Questions the host-read fixes ask about an expression: is it a tensor, a bool tensor, a comparison, `t.item()`? */
import type { RuleContext } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { resolveBinding, scopeOf } from "../analysis/scopes";
import { BOOLEAN_OPERATION } from "./facts";

const COMPARISONS = new Set(["<", ">", "<=", ">=", "==", "!="]);

/** A known-positive tensor (a GPU tensor, or a tensor in a file that imports torch), not a NumPy array. */
export function isKnownTensor(node: SyntaxNode, context: RuleContext): boolean {
  const kind = context.analysis.tensorEvidence(node).kind;
  return kind === "gpu" || (kind === "tensor" && context.importsTorch);
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
