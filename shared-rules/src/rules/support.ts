/** Small predicates the rules share; each rule's own logic stays in its file. */
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { Evidence, positionalArguments, keywordArgument } from "../analysis/tensor-evidence";
import type { RuleContext } from "../rule";

export interface MethodCall {
  call: SyntaxNode;
  receiver: SyntaxNode;
  method: string;
  /** `.method(...)`: from the method name to the closing parenthesis, the part to underline. */
  range: { start: number; end: number };
}

/** `receiver.method(...)` parts of a call, or undefined for other calls. */
export function methodCall(call: SyntaxNode, context: RuleContext): MethodCall | undefined {
  const callee = childByField(call, "function");
  if (!callee || callee.type !== "attribute") return undefined;
  const receiver = childByField(callee, "object");
  const attribute = childByField(callee, "attribute");
  if (!receiver || !attribute) return undefined;
  return { call, receiver, method: context.text(attribute), range: { start: attribute.start, end: call.end } };
}

/** The dotted name of the called function with imports resolved (`F.one_hot` → `torch.nn.functional.one_hot`). */
export function calleeName(call: SyntaxNode, context: RuleContext): string | undefined {
  const callee = childByField(call, "function");
  return callee ? context.analysis.evidence.qualifiedName(callee) : undefined;
}

export function argumentList(call: SyntaxNode): SyntaxNode[] {
  return childByField(call, "arguments")?.children ?? [];
}

export const positional = positionalArguments;

/**
 * The single positional argument of a call such as `torch.tensor(data, device=d)`, when every other argument is a
 * keyword that `accept` allows; undefined for a second positional, `*args`/`**kwargs` or any other keyword.
 */
export function soleDataArgument(call: SyntaxNode, context: RuleContext, accept: (key: string, value: SyntaxNode) => boolean): SyntaxNode | undefined {
  const data = positional(call);
  if (data.length !== 1) return undefined;
  for (const argument of argumentList(call)) {
    if (argument === data[0]) continue;
    if (argument.type !== "keyword_argument" || !accept(context.text(childByField(argument, "name")!), childByField(argument, "value")!)) return undefined;
  }
  return data[0];
}

export function keyword(call: SyntaxNode, name: string, context: RuleContext): SyntaxNode | undefined {
  return keywordArgument(call, name, context.analysis.source.text);
}

/** What a `.to(...)` or `.cuda(...)` passes for `non_blocking`, or for `async`, its name before PyTorch 0.4. */
export function nonBlockingArgument(call: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  return keyword(call, "non_blocking", context) ?? keyword(call, "async", context);
}

/** The value argument of `writer.add_scalar(tag, value, ...)` / `add_scalar(tag, scalar_value=value)`. */
export function addScalarValue(call: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  return positional(call)[1] ?? keyword(call, "scalar_value", context);
}

/** True for `True` (possibly parenthesised). */
export function isTrueLiteral(node: SyntaxNode | undefined): boolean {
  return !!node && unparenthesized(node).type === "true";
}

export function isLiteral(node: SyntaxNode | undefined, types = ["integer", "float", "string", "true", "false", "none"]): boolean {
  return !!node && types.includes(unparenthesized(node).type);
}

/** Source text shortened for a message. */
export function shortText(node: SyntaxNode, context: RuleContext, limit = 40): string {
  const text = context.text(node).replace(/\s+/g, " ");
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * May this value be a tensor on a GPU? Positive evidence always counts; a value with no evidence counts
 * only in files that import torch, and only where the rule allows it (for calls only tensors have).
 */
export function mayBeGpuTensor(evidence: Evidence, context: RuleContext, allowUnknown: boolean): boolean {
  if (evidence.kind === "gpu") return true;
  if (evidence.kind === "tensor") return context.importsTorch;
  if (evidence.kind === "unknown") return allowUnknown && context.importsTorch;
  return false;
}

/** The assumption a message must state when the evidence is not positive: " (if `x` is a CUDA tensor)". */
export function gpuAssumption(node: SyntaxNode, evidence: Evidence, context: RuleContext): string {
  if (evidence.kind === "gpu") return "";
  const name = shortText(node, context, 30);
  return evidence.kind === "tensor" ? ` (if \`${name}\` is on a GPU)` : ` (if \`${name}\` is a CUDA tensor)`;
}

/** A tensor that may be on a GPU: positive evidence, or a tensor of unknown device in a file that imports torch. */
export function isTensorEvidence(evidence: Evidence, context: RuleContext): boolean {
  if (evidence.kind === "gpu") return true;
  return evidence.kind === "tensor" && context.importsTorch;
}
