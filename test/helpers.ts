/**
 * Shared helpers for the tests: a `py` template tag that strips the common indentation of a snippet,
 * and small wrappers to analyse a snippet and find its nodes by text.
 *
 * The engine is imported through its package name (`synclint-rules`, a workspace link to shared-rules/):
 * a relative import of `../shared-rules/src/...` type-checks through the project reference but resolves to
 * a path under out/ at run time that does not exist, because the tests compile to out/test/.
 */
import { spawnSync } from "child_process";
import { FileAnalysis, SourceText, parseSyntaxTree } from "synclint-rules";
import type { HotEntries, SyntaxNode, SyntaxTree } from "synclint-rules";

/**
 * Python source from a template literal: drops the first line break and the indentation common to all
 * non-blank lines, so `py\`\n    import torch\n\`` is `import torch\n`. Line 1 is the line after the backtick.
 */
export function py(strings: TemplateStringsArray, ...values: unknown[]): string {
  let raw = strings.reduce((text, part, index) => text + part + (index < values.length ? String(values[index]) : ""), "");
  raw = raw.replace(/^[ \t]*\n/, "").replace(/\n[ \t]*$/, "\n");
  const lines = raw.split("\n");
  const indents = lines.filter((line) => line.trim().length > 0).map((line) => /^[ ]*/.exec(line)![0].length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(Math.min(common, /^[ ]*/.exec(line)![0].length))).join("\n");
}

export interface Analysed {
  analysis: FileAnalysis;
  tree: SyntaxTree;
  source: SourceText;
}

/** Parses and analyses a snippet the way the engine does (parser must be initialised). */
export function analyse(code: string, extraStepFunctions: string[] = [], hotEntries?: HotEntries): Analysed {
  const syntax = parseSyntaxTree(code);
  const source = new SourceText(code);
  return { analysis: new FileAnalysis(syntax, source, { extraStepFunctions, hotEntries }), tree: syntax, source };
}

/** Every node in source order (comments are not part of the tree). */
export function allNodes(root: SyntaxNode): SyntaxNode[] {
  const nodes: SyntaxNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return nodes;
}

export interface FindOptions {
  /** Only nodes of this tree-sitter type. */
  type?: string;
  /** 0-based occurrence of the text in the source (default: the first). */
  occurrence?: number;
  /** Start searching after the first occurrence of this anchor text (occurrences count from there). */
  after?: string;
}

/**
 * The node whose text is exactly `text`, at the given occurrence of `text` in the source. When several
 * nodes span the same text (an expression statement and its call), the innermost is returned unless a
 * `type` is given.
 */
export function findNode(analysed: Analysed, text: string, options: FindOptions = {}): SyntaxNode {
  const code = analysed.source.text;
  let offset = -1;
  if (options.after !== undefined) {
    const anchor = code.indexOf(options.after);
    if (anchor < 0) throw new Error(`anchor ${JSON.stringify(options.after)} not found in snippet`);
    offset = anchor + options.after.length - 1;
  }
  for (let i = 0; i <= (options.occurrence ?? 0); i++) {
    offset = code.indexOf(text, offset + 1);
    if (offset < 0) throw new Error(`text ${JSON.stringify(text)} (occurrence ${options.occurrence ?? 0}${options.after ? ` after ${JSON.stringify(options.after)}` : ""}) not found in snippet`);
  }
  const end = offset + text.length;
  const matches = allNodes(analysed.tree.root).filter(
    (node) => node.start === offset && node.end === end && (!options.type || node.type === options.type) && node.parent !== null,
  );
  const match = matches[matches.length - 1];
  if (!match) throw new Error(`no node${options.type ? ` of type ${options.type}` : ""} spans ${JSON.stringify(text)}`);
  return match;
}

/** The Python that runs PyTorch for the tests that need it (Debian: `apt-get install -y python3-torch`). */
export const PYTHON = process.env.SYNCLINT_PYTHON ?? "/usr/bin/python3";

export function torchAvailable(): boolean {
  const probe = spawnSync(PYTHON, ["-c", "import torch"], { encoding: "utf8", timeout: 60000 });
  return probe.status === 0;
}
