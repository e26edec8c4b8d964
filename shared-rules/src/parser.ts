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
import { Language, Parser, Tree, TreeCursor } from "web-tree-sitter";

export type { Tree, Edit, Node as TreeSitterNode } from "web-tree-sitter";

export interface ParserInitOptions {
  /** Folder holding `tree-sitter.wasm` and `tree-sitter-python.wasm` (bundles copy them beside the code). */
  wasmDirectory?: string;
}

let python: Language | undefined;
let parser: Parser | undefined;
let initialising: Promise<void> | undefined;
let rawCursor: RawCursorFunctions | undefined;

function wasmPath(file: "tree-sitter.wasm" | "tree-sitter-python.wasm", options: ParserInitOptions): string {
  if (options.wasmDirectory) return path.join(options.wasmDirectory, file);
  if (file === "tree-sitter.wasm") return require.resolve("web-tree-sitter/tree-sitter.wasm");
  return path.join(path.dirname(require.resolve("tree-sitter-python/package.json")), file);
}

/** Loads the WASM runtime and the Python grammar once; later calls return the same promise. */
export function initParser(options: ParserInitOptions = {}): Promise<void> {
  initialising ??= (async () => {
    // Emscripten builds the runtime's module object on the options object it is given: keep it, for walkTree.
    const runtime: Record<string, unknown> = { locateFile: () => wasmPath("tree-sitter.wasm", options) };
    await Parser.init(runtime);
    rawCursor = rawCursorFunctions(runtime);
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
 * Parses Python source synchronously. (No incremental re-parse: after an edit at the start of a line,
 * tree-sitter re-parsed the rest of the file; the server splices statements instead, see `spliceSyntaxTree`.)
 * Python accepts a lone `\r` as a line break and the grammar does not, so it parses a copy where each lone
 * `\r` is `\n`: the same length, so every offset still points into the caller's text.
 */
export function parsePython(text: string): Tree {
  const source = text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
  const tree = readyParser().parse(source);
  if (!tree) throw new Error("synclint: tree-sitter returned no tree");
  return tree;
}

export function pythonLanguage(): Language {
  if (!python) throw new Error("synclint: initParser() must complete first");
  return python;
}

/** The cursor operations the syntax copy uses (a subset of web-tree-sitter's `TreeCursor`). */
export type TreeWalk = Pick<TreeCursor, "nodeTypeId" | "startIndex" | "endIndex" | "currentFieldId" | "nodeIsMissing" | "gotoFirstChild" | "gotoNextSibling" | "gotoParent" | "delete">;

interface RawCursorFunctions {
  transferBuffer: number;
  getValue(address: number, type: "i32"): number;
  typeId(tree: number): number;
  startIndex(tree: number): number;
  endIndex(tree: number): number;
  fieldId(tree: number): number;
  isMissing(tree: number): number;
  firstChild(tree: number): number;
  nextSibling(tree: number): number;
  parent(tree: number): number;
}

/**
 * The runtime's own cursor functions, when this build exports them. web-tree-sitter's `TreeCursor` copies the
 * cursor's four words into the runtime's transfer buffer before every call and back after every move; in a
 * walk where nothing else touches the buffer those copies change nothing, and they cost as much as the
 * parse. (tree-sitter.c: every `ts_tree_cursor_*_wasm` reads the cursor from the buffer; moves write it back.)
 */
function rawCursorFunctions(runtime: Record<string, unknown>): RawCursorFunctions | undefined {
  const names = ["_ts_init", "getValue", "_ts_tree_cursor_current_node_type_id_wasm", "_ts_tree_cursor_start_index_wasm", "_ts_tree_cursor_end_index_wasm",
    "_ts_tree_cursor_current_field_id_wasm", "_ts_tree_cursor_current_node_is_missing_wasm", "_ts_tree_cursor_goto_first_child_wasm",
    "_ts_tree_cursor_goto_next_sibling_wasm", "_ts_tree_cursor_goto_parent_wasm"];
  if (!names.every((name) => typeof runtime[name] === "function")) return undefined;
  const call = (name: string) => runtime[name] as (...args: number[]) => number;
  // `ts_init` returns the transfer buffer's address (and writes the language versions into it, nothing else).
  const transferBuffer = call("_ts_init")();
  return {
    transferBuffer,
    getValue: runtime.getValue as RawCursorFunctions["getValue"],
    typeId: call("_ts_tree_cursor_current_node_type_id_wasm"),
    startIndex: call("_ts_tree_cursor_start_index_wasm"),
    endIndex: call("_ts_tree_cursor_end_index_wasm"),
    fieldId: call("_ts_tree_cursor_current_field_id_wasm"),
    isMissing: call("_ts_tree_cursor_current_node_is_missing_wasm"),
    firstChild: call("_ts_tree_cursor_goto_first_child_wasm"),
    nextSibling: call("_ts_tree_cursor_goto_next_sibling_wasm"),
    parent: call("_ts_tree_cursor_goto_parent_wasm"),
  };
}

/**
 * A cursor at the root of `tree` for one uninterrupted walk: no other tree-sitter call may run until it is
 * deleted (deleting twice is harmless). Falls back to web-tree-sitter's `TreeCursor` when the runtime's functions are not reachable.
 */
export function walkTree(tree: Tree): TreeWalk {
  const cursor = tree.walk();
  const raw = rawCursor;
  if (!raw) return cursor;
  // The cursor's words, and the tree's address, as web-tree-sitter keeps them on its objects.
  const words = cursor as unknown as Record<number, number>;
  const treeAddress = (tree as unknown as Record<number, number>)[0];
  void cursor.nodeTypeId; // puts the cursor's words into the transfer buffer
  let deleted = false;
  return {
    get nodeTypeId() { return raw.typeId(treeAddress); },
    get startIndex() { return raw.startIndex(treeAddress); },
    get endIndex() { return raw.endIndex(treeAddress); },
    get currentFieldId() { return raw.fieldId(treeAddress); },
    get nodeIsMissing() { return raw.isMissing(treeAddress) === 1; },
    gotoFirstChild: () => raw.firstChild(treeAddress) === 1,
    gotoNextSibling: () => raw.nextSibling(treeAddress) === 1,
    gotoParent: () => raw.parent(treeAddress) === 1,
    delete: () => {
      if (deleted) return;
      deleted = true;
      // Moves may have grown (reallocated) the cursor's stack: hand its current words back before freeing it.
      for (let word = 0; word < 4; word++) words[word] = raw.getValue(raw.transferBuffer + 4 * word, "i32");
      cursor.delete();
    },
  };
}
