/** Finding the `.item()` call under the cursor in the engine's syntax tree. */
import type { SyntaxNode } from "synclint-rules";

export interface ItemCall {
  call: SyntaxNode;
  /** From `item` to the closing parenthesis (what a finding underlines). */
  start: number;
  end: number;
}

/** The innermost `x.item()` call whose `item()` part contains `offset`. */
export function itemHoverTarget(root: SyntaxNode, text: string, offset: number): ItemCall | undefined {
  let found: ItemCall | undefined;
  let node: SyntaxNode | undefined = root;
  while (node) {
    if (node.type === "call") {
      const callee = node.children.find((child) => child.field === "function");
      const attribute = callee?.type === "attribute" ? callee.children.find((child) => child.field === "attribute") : undefined;
      if (attribute && text.slice(attribute.start, attribute.end) === "item" && attribute.start <= offset && offset <= node.end) {
        found = { call: node, start: attribute.start, end: node.end };
      }
    }
    node = node.children.find((child) => child.start <= offset && offset <= child.end && child.end > child.start);
  }
  return found;
}
