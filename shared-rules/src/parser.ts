/**
 * The one module that knows which tree-sitter binding synclint uses.
 *
 * We use `web-tree-sitter` (WASM) with the `.wasm` grammar shipped by `tree-sitter-python`: on the
 * 1,069-file corpus it parsed as fast as the native binding with a small fraction of its memory, it needs
 * no compiler at install time, and one `.vsix` carries it to every platform. Initialisation is async
 * (WASM compile); every parse after it is synchronous.
 *
 * Positions: web-tree-sitter parses JavaScript strings as UTF-16, so every `startIndex`/`endIndex` and
 * every `column` it reports is in UTF-16 code units, i.e. a JavaScript string index.
 */
import * as path from "path";
import { Language, Parser, Tree } from "web-tree-sitter";

export type { Tree, Edit, Node as TreeSitterNode } from "web-tree-sitter";

export interface ParserInitOptions {
  /** Folder holding `tree-sitter.wasm` and `tree-sitter-python.wasm` (bundles copy them beside the code). */
  wasmDirectory?: string;
}

let python: Language | undefined;
let parser: Parser | undefined;
let initialising: Promise<void> | undefined;

function wasmPath(file: "tree-sitter.wasm" | "tree-sitter-python.wasm", options: ParserInitOptions): string {
  if (options.wasmDirectory) return path.join(options.wasmDirectory, file);
  if (file === "tree-sitter.wasm") return require.resolve("web-tree-sitter/tree-sitter.wasm");
  return path.join(path.dirname(require.resolve("tree-sitter-python/package.json")), file);
}

/** Loads the WASM runtime and the Python grammar once; later calls return the same promise. */
export function initParser(options: ParserInitOptions = {}): Promise<void> {
  initialising ??= (async () => {
    await Parser.init({ locateFile: () => wasmPath("tree-sitter.wasm", options) });
    python = await Language.load(wasmPath("tree-sitter-python.wasm", options));
    parser = new Parser();
    parser.setLanguage(python);
  })();
  return initialising;
}

export function isParserReady(): boolean {
  return parser !== undefined;
}

function readyParser(): Parser {
  if (!parser) throw new Error("synclint: initParser() must complete before parsing");
  return parser;
}

/**
 * Parses Python source synchronously; pass the previous tree (already `edit`ed) to re-parse incrementally.
 * Python accepts a lone `\r` as a line break and the grammar does not, so it parses a copy where each lone
 * `\r` is `\n`: the same length, so every offset still points into the caller's text.
 */
export function parsePython(text: string, previousTree?: Tree): Tree {
  const source = text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
  const tree = readyParser().parse(source, previousTree ?? null);
  if (!tree) throw new Error("synclint: tree-sitter returned no tree");
  return tree;
}

export function pythonLanguage(): Language {
  if (!python) throw new Error("synclint: initParser() must complete first");
  return python;
}
