/** Small edit builders shared by the rules' fixes. */
import type { Fix, TextEdit } from "../rule";
import { SyntaxNode, childByField } from "../syntax";

/**
 * Adds `keyword=value` as the last argument of `call` (after a trailing comma too), or undefined when the
 * call has no ordinary argument list (`f(x for x in y)`).
 */
export function addKeywordArgument(call: SyntaxNode, argument: string): TextEdit | undefined {
  const args = childByField(call, "arguments");
  if (!args || args.type !== "argument_list") return undefined;
  const last = args.children[args.children.length - 1];
  if (!last) return { start: args.start + 1, end: args.start + 1, text: argument };
  return { start: last.end, end: last.end, text: `, ${argument}` };
}

export function replaceNode(node: SyntaxNode, text: string): TextEdit {
  return { start: node.start, end: node.end, text };
}

/**
 * Runs a rule's fix producer so that a bug in it can never cost the finding: a producer that throws offers
 * no fix (the finding is still reported).
 */
export function safeFixes(produce: () => Fix[] | Fix | undefined): Fix[] {
  try {
    const fixes = produce();
    return fixes === undefined ? [] : Array.isArray(fixes) ? fixes : [fixes];
  } catch {
    return [];
  }
}
