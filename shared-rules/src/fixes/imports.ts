/** `import torch` for fixes that need the `torch` name: added only when the file does not bind it already. */
import type { TextEdit } from "../rule";
import type { SyntaxNode } from "../syntax";
import { lineEnding } from "./indentation";

/** Does the module bind the plain name `torch` at top level (`import torch`, `import torch.nn`, `import numpy, torch`)? */
export function bindsTorch(text: string): boolean {
  for (const match of text.matchAll(/^import[ \t]+([^#\r\n;]+)/gm)) {
    for (const item of match[1].split(",")) {
      const parts = item.trim().split(/\s+as\s+/);
      if (parts.length === 1 && /^torch(\.\w+)*$/.test(parts[0])) return true;
      if (parts.length === 2 && parts[1].trim() === "torch") return true;
    }
  }
  return false;
}

/**
 * The edit that adds `import torch` after the module docstring and `from __future__` imports (or undefined
 * when `torch` is already imported).
 */
export function ensureTorchImport(text: string, root: SyntaxNode): TextEdit | undefined {
  if (bindsTorch(text)) return undefined;
  const nl = lineEnding(text);
  let at = 0;
  for (const statement of root.children) {
    const isDocstring = statement.type === "expression_statement" && statement.children.length === 1 && statement.children[0].type === "string" && at === 0 && statement === root.children[0];
    const isFuture = statement.type === "future_import_statement";
    if (!isDocstring && !isFuture) break;
    at = statement.end;
    while (at < text.length && text[at] !== "\n") at++;
    if (at < text.length) at++;
  }
  if (at > 0 && text[at - 1] !== "\n") return { start: at, end: at, text: `${nl}import torch${nl}` };
  return { start: at, end: at, text: `import torch${nl}` };
}
