/**
 * Summing per-step values on the device instead of on the host, exactly: which values a fix knows how to
 * add up without changing the sum, and the expression that adds one of them to a device accumulator.
 */
import type { RuleContext } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";

/** An int64 count (`(pred == y).sum()`) or a loss (a float). */
export type AccumulatedKind = "count" | "loss";

/** `(pred == y).sum()` (an int64 count) or a loss (a float): the accumulations the fixes know to be exact. */
export function accumulatedKind(receiver: SyntaxNode, context: RuleContext): AccumulatedKind | undefined {
  const node = unparenthesized(receiver);
  if (node.type === "call") {
    const callee = childByField(node, "function");
    if (callee?.type === "attribute" && context.text(childByField(callee, "attribute")!) === "sum" && (childByField(node, "arguments")?.children.length ?? 1) === 0) {
      const counted = unparenthesized(childByField(callee, "object")!);
      if (counted.type === "comparison_operator" && counted.children.length === 2 && ["==", "!=", "<", ">", "<=", ">="].includes(counted.tokens[0])) return "count";
      if (counted.type === "call") {
        const inner = childByField(counted, "function");
        if (inner?.type === "attribute" && /^(eq|ne|lt|gt|le|ge)$/.test(context.text(childByField(inner, "attribute")!))) return "count";
      }
    }
    // `criterion(out, y)`, `F.cross_entropy(out, y)`, `F.nll_loss(...)`: a loss, a float.
    if (callee && /(^|\.)(\w*loss\w*|criterion|cross_entropy|binary_cross_entropy(_with_logits)?|kl_div)$/i.test(context.text(callee))) return "loss";
    return undefined;
  }
  if ((node.type === "identifier" || node.type === "attribute") && /(^|[._])loss(es)?([._]|$)|^loss|loss$/i.test(context.text(node))) return "loss";
  return undefined;
}

/**
 * What to add to a device accumulator for one value: a count as it is (int64 tensors add exactly), a loss
 * detached and in float64, so that the sums are those Python makes of the `.item()` values (each a float32
 * or float16 value widened exactly to a double), added in the same order.
 */
export function deviceAddend(kind: AccumulatedKind, receiverText: string): string {
  return kind === "count" ? receiverText : `${receiverText}.detach().double()`;
}
