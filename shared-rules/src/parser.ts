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
let memory: WasmMemory | undefined;
let grammar: GrammarTables | undefined;

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
    python = await Language.load(wasmPath("tree-sitter-python.wasm", options));
    parser = new Parser();
    parser.setLanguage(python);
    memory = runtime as unknown as WasmMemory;
    grammar = checkedGrammarTables(memory);
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

/**
 * A walk over `tree` for the syntax copy: one uninterrupted walk (no other tree-sitter call may run until it
 * is deleted: a parse may move the runtime's memory). It reads the tree where tree-sitter keeps it, in the
 * runtime's memory, unless the layout check at initialisation failed; then it is web-tree-sitter's `TreeCursor`.
 */
export function walkTree(tree: Tree): TreeWalk {
  if (!memory || !grammar) return tree.walk();
  return new MemoryWalk(memory, treeAddressOf(tree), grammar);
}

/** Which walk `walkTree` gives (for the test that keeps the fast one in use). */
export function treeWalkKind(): "memory" | "cursor" {
  return grammar ? "memory" : "cursor";
}

// ---------------------------------------------------------------------------------------------------------------
// Reading trees in the runtime's memory.
//
// Each node costs web-tree-sitter's cursor six calls into WASM, each of which rebuilds the cursor and its
// current node. tree-sitter's trees are plain structs in the runtime's linear memory, so this walk reads them
// there and does in JavaScript what `tree_cursor.c` does (web-tree-sitter 0.25, wasm32): the same nodes in the
// same order, with the same types, ranges, fields and MISSING flags. The layout is tree-sitter's own
// (`subtree.h`, `parser.h`, `tree.h`); `initParser` checks the grammar's ABI version and compares the walk with
// the runtime's cursor on samples with aliases, fields, extras, errors and missing nodes, and falls back to the
// cursor if anything differs (the tests and the fuzz compare the two on many more texts). On the 1,069-file
// corpus in one thread, copying the trees took 1.04-1.14 s with the runtime's cursor functions beside a
// 2.5-2.8 s parse, and takes 0.58-0.84 s with this walk (3 alternating runs).

/** The runtime's views of its linear memory (Emscripten replaces them on the module object when memory grows). */
interface WasmMemory {
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
  HEAPU32: Uint32Array;
}

/** What the walk needs of the grammar, copied out of its `TSLanguage` once. */
interface GrammarTables {
  /** Public symbol by grammar symbol (`ts_language_public_symbol`). */
  publicSymbol: Uint16Array;
  /** `alias_sequences`: production × `aliasSequenceLength` + structural child index → alias symbol, or 0. */
  aliasSequences: Uint16Array;
  aliasSequenceLength: number;
  /** Production × 256 + structural child index → the field of that child (inherited fields excluded), or 0. */
  fieldByChild: Uint16Array;
}

const ERROR_SYMBOL = 0xffff;
// `TSTree`: { Subtree root; const TSLanguage *language; ... }.
const TREE_LANGUAGE = 8;
// `TSLanguage` (ABI 15, 32-bit pointers).
const LANGUAGE_SYMBOL_COUNT = 4;
const LANGUAGE_ALIAS_COUNT = 8;
const LANGUAGE_PRODUCTION_ID_COUNT = 28;
const LANGUAGE_FIELD_COUNT = 32;
const LANGUAGE_MAX_ALIAS_SEQUENCE_LENGTH = 36;
const LANGUAGE_FIELD_MAP_SLICES = 64;
const LANGUAGE_FIELD_MAP_ENTRIES = 68;
const LANGUAGE_PUBLIC_SYMBOL_MAP = 76;
const LANGUAGE_ALIAS_SEQUENCES = 84;
// `SubtreeHeapData`.
const HEAP_PADDING_BYTES = 4;
const HEAP_SIZE_BYTES = 16;
const HEAP_CHILD_COUNT = 36;
const HEAP_SYMBOL = 40;
const HEAP_FLAGS = 44; // visible, named, extra, ... in bits 0, 1, 2; is_missing in bit 9
const HEAP_VISIBLE_CHILD_COUNT = 48;
const HEAP_PRODUCTION_ID = 66;
// A `Subtree` is 8 bytes: a pointer to its heap data, or (lowest bit set) the inline data of a small leaf:
// byte 0 flags (is_inline, visible, named, extra, has_changes, is_missing, ...), byte 1 symbol, byte 6
// padding bytes, byte 7 size bytes.
const SUBTREE_SIZE = 8;

function treeAddressOf(tree: Tree): number {
  return (tree as unknown as Record<number, number>)[0];
}

function grammarTables(heap: WasmMemory, languageAddress: number): GrammarTables {
  const u16 = heap.HEAPU16;
  const u32 = heap.HEAPU32;
  const word = (offset: number) => u32[(languageAddress + offset) >> 2];
  // Aliases have symbols of their own after the grammar's.
  const symbolCount = word(LANGUAGE_SYMBOL_COUNT) + word(LANGUAGE_ALIAS_COUNT);
  const productionCount = word(LANGUAGE_PRODUCTION_ID_COUNT);
  const aliasSequenceLength = u16[(languageAddress + LANGUAGE_MAX_ALIAS_SEQUENCE_LENGTH) >> 1];
  const publicMap = word(LANGUAGE_PUBLIC_SYMBOL_MAP) >> 1;
  const aliases = word(LANGUAGE_ALIAS_SEQUENCES) >> 1;
  const fieldByChild = new Uint16Array(productionCount * 256);
  if (word(LANGUAGE_FIELD_COUNT) > 0) {
    const slices = word(LANGUAGE_FIELD_MAP_SLICES);
    const entries = word(LANGUAGE_FIELD_MAP_ENTRIES);
    for (let production = 0; production < productionCount; production++) {
      // TSMapSlice { uint16 index; uint16 length }; TSFieldMapEntry { uint16 field_id; uint8 child_index; bool inherited }
      const index = u16[(slices + 4 * production) >> 1];
      const length = u16[(slices + 4 * production + 2) >> 1];
      for (let k = 0; k < length; k++) {
        const entry = entries + 4 * (index + k);
        const child = heap.HEAPU8[entry + 2];
        // The cursor takes the first entry for a child that is not inherited.
        if (heap.HEAPU8[entry + 3] === 0 && fieldByChild[production * 256 + child] === 0) fieldByChild[production * 256 + child] = u16[entry >> 1];
      }
    }
  }
  return {
    publicSymbol: u16.slice(publicMap, publicMap + symbolCount),
    aliasSequences: u16.slice(aliases, aliases + productionCount * aliasSequenceLength),
    aliasSequenceLength,
    fieldByChild,
  };
}

/** Texts whose walks `initParser` compares: aliases (`as_pattern_target`), fields through hidden nodes, comments,
 * non-ASCII text, ERROR nodes, and MISSING tokens kept inline (`def g(:`) and on the heap (after long padding). */
export const WALK_SAMPLES = [
  "import a.b as c\nfrom . import (d as e)\n# é😀\nclass K(B, metaclass=M):\n    @p\n    def f(self, x: int = 1, *a, **k) -> None:\n        with g() as (h, i):\n            return [y async for y in x if y] or {**k}\n" +
    "try:\n    pass\nexcept (E, F) as err:\n    raise\nmatch v:\n    case [1, *rest] if rest: pass\n    case {\"k\": q} as w: pass\n" +
    "s = f'{x!r:>{w}}' + b'\\x00' + 'é'\nz = x.item()y\nfor (j in range(3):\n  print(j\ndef broken(:\n    x.(\n",
  "def g(:\n    pass\n",
  "def broken(" + " ".repeat(200) + ":\n    x.(\n",
];

/** The ABI versions whose `TSLanguage` layout the walk reads (tree-sitter 0.25 loads grammars of ABI 13 to 15). */
const KNOWN_ABI_VERSIONS = [14, 15];

/**
 * The grammar's tables, if the grammar's ABI is one the walk knows and walks in memory read the same as the
 * runtime's cursor on `WALK_SAMPLES`; otherwise undefined, and walks use the cursor. The walk in memory is
 * compared node by node and stopped one node past the cursor's count, so a layout it misreads cannot make it
 * run on.
 */
function checkedGrammarTables(heap: WasmMemory): GrammarTables | undefined {
  let tables: GrammarTables | undefined;
  for (const sample of WALK_SAMPLES) {
    let tree: Tree | undefined;
    try {
      tree = parsePython(sample);
      const address = treeAddressOf(tree);
      const language = heap.HEAPU32[(address + TREE_LANGUAGE) >> 2];
      if (!KNOWN_ABI_VERSIONS.includes(heap.HEAPU32[language >> 2])) return undefined;
      tables ??= grammarTables(heap, language);
      const cursor = tree.walk();
      const expected = walkRecord(cursor);
      cursor.delete();
      const actual = walkRecord(new MemoryWalk(heap, address, tables), expected);
      if (actual.length !== expected.length || actual.some((entry, i) => entry !== expected[i])) return undefined;
    } catch {
      return undefined;
    } finally {
      tree?.delete();
    }
  }
  return tables;
}

/**
 * Every node a walk visits, with what the syntax copy reads of it. Given `expected`, it stops at the first node
 * that differs from it, or one past its end.
 */
export function walkRecord(walk: TreeWalk, expected?: readonly string[]): string[] {
  const seen: string[] = [];
  let agrees = true;
  const record = () => {
    const entry = `${walk.nodeTypeId} ${walk.startIndex}-${walk.endIndex} f${walk.currentFieldId}${walk.nodeIsMissing ? " missing" : ""}`;
    if (expected && (seen.length >= expected.length || expected[seen.length] !== entry)) agrees = false;
    seen.push(entry);
  };
  record();
  let depth = 0;
  while (agrees) {
    if (walk.gotoFirstChild()) {
      depth++;
      record();
      continue;
    }
    while (!walk.gotoNextSibling()) {
      if (depth === 0 || !walk.gotoParent()) return seen;
      depth--;
    }
    if (depth === 0) return seen;
    record();
  }
  return seen;
}

const enum Step {
  None,
  Visible,
  Hidden,
}

/** An entry's `field` when its subtree is an extra (a comment): extras fill no field and end the climb for one. */
const EXTRA = -1;

/**
 * tree-sitter's `TreeCursor` over the tree in memory: a stack of entries, hidden nodes included, moved as
 * `ts_tree_cursor_goto_first_child`, `_goto_next_sibling` and `_goto_parent` move theirs. What the cursor
 * recomputes from the parent on every read (the alias, the field, whether the entry is visible) is kept per
 * entry when it is pushed. The reads are written out in place: the command line runs without TurboFan's
 * inlining, and this runs for every node.
 */
class MemoryWalk implements TreeWalk {
  private readonly u8: Uint8Array;
  private readonly u16: Uint16Array;
  private readonly u32: Uint32Array;
  private readonly publicSymbol: Uint16Array;
  private readonly aliasSequences: Uint16Array;
  private readonly aliasSequenceLength: number;
  private readonly fieldByChild: Uint16Array;
  private depth = 1;
  // Per entry: the address of its `Subtree`; its start (bytes); its index among its parent's children and
  // among the non-extra ones; whether the cursor shows it; its alias (or 0); its field (0 none, or EXTRA).
  private readonly slot: number[];
  private readonly position: number[];
  private readonly childIndex: number[] = [0];
  private readonly structuralIndex: number[] = [0];
  private readonly visible: boolean[] = [true];
  private readonly alias: number[] = [0];
  private readonly field: number[] = [0];

  constructor(heap: WasmMemory, treeAddress: number, tables: GrammarTables) {
    this.u8 = heap.HEAPU8;
    this.u16 = heap.HEAPU16;
    this.u32 = heap.HEAPU32;
    this.publicSymbol = tables.publicSymbol;
    this.aliasSequences = tables.aliasSequences;
    this.aliasSequenceLength = tables.aliasSequenceLength;
    this.fieldByChild = tables.fieldByChild;
    // The root Subtree is the tree's first field; the root node starts after its padding.
    this.slot = [treeAddress];
    const inline = (this.u8[treeAddress] & 1) !== 0;
    this.position = [inline ? this.u8[treeAddress + 6] : this.u32[(this.u32[treeAddress >> 2] + HEAP_PADDING_BYTES) >> 2]];
  }

  get nodeTypeId(): number {
    const top = this.depth - 1;
    let symbol = this.alias[top];
    if (symbol === 0) {
      const slot = this.slot[top];
      symbol = (this.u8[slot] & 1) !== 0 ? this.u8[slot + 1] : this.u16[(this.u32[slot >> 2] + HEAP_SYMBOL) >> 1];
    }
    return symbol === ERROR_SYMBOL ? symbol : this.publicSymbol[symbol];
  }

  // web-tree-sitter parses UTF-16: two bytes per code unit.
  get startIndex(): number {
    return this.position[this.depth - 1] >>> 1;
  }

  get endIndex(): number {
    const top = this.depth - 1;
    const slot = this.slot[top];
    const size = (this.u8[slot] & 1) !== 0 ? this.u8[slot + 7] : this.u32[(this.u32[slot >> 2] + HEAP_SIZE_BYTES) >> 2];
    return (this.position[top] + size) >>> 1;
  }

  get nodeIsMissing(): boolean {
    const slot = this.slot[this.depth - 1];
    return (this.u8[slot] & 1) !== 0 ? (this.u8[slot] & 32) !== 0 : (this.u8[this.u32[slot >> 2] + HEAP_FLAGS + 1] & 2) !== 0;
  }

  /** `ts_tree_cursor_current_field_id`: a field may name a node through the hidden nodes above it. */
  get currentFieldId(): number {
    const top = this.depth - 1;
    for (let i = top; i > 0; i--) {
      if (i !== top && this.visible[i]) break;
      const field = this.field[i];
      if (field === EXTRA) break;
      if (field !== 0) return field;
    }
    return 0;
  }

  gotoFirstChild(): boolean {
    for (;;) {
      const parent = this.slot[this.depth - 1];
      if ((this.u8[parent] & 1) !== 0) return false;
      const count = this.u32[(this.u32[parent >> 2] + HEAP_CHILD_COUNT) >> 2];
      if (count === 0) return false;
      const step = this.pushNextChild(parent, count, 0, 0, this.position[this.depth - 1]);
      if (step !== Step.Hidden) return step === Step.Visible;
    }
  }

  gotoNextSibling(): boolean {
    const initial = this.depth;
    while (this.depth > 1) {
      // Pop the entry, then go on through its parent's children after it.
      const entry = --this.depth;
      // Past a visible ancestor's last child, there is no next sibling.
      if (this.visible[entry] && this.depth + 1 < initial) break;
      const parent = this.slot[entry - 1];
      const count = this.u32[(this.u32[parent >> 2] + HEAP_CHILD_COUNT) >> 2];
      const slot = this.slot[entry];
      const index = this.childIndex[entry] + 1;
      if (index === count) continue;
      const size = (this.u8[slot] & 1) !== 0 ? this.u8[slot + 7] : this.u32[(this.u32[slot >> 2] + HEAP_SIZE_BYTES) >> 2];
      const next = slot + SUBTREE_SIZE;
      const padding = (this.u8[next] & 1) !== 0 ? this.u8[next + 6] : this.u32[(this.u32[next >> 2] + HEAP_PADDING_BYTES) >> 2];
      const structural = this.structuralIndex[entry] + (this.field[entry] === EXTRA ? 0 : 1);
      const step = this.pushNextChild(parent, count, index, structural, this.position[entry] + size + padding);
      if (step === Step.Hidden) {
        this.gotoFirstChild();
        return true;
      }
      if (step === Step.Visible) return true;
    }
    this.depth = initial;
    return false;
  }

  gotoParent(): boolean {
    for (let i = this.depth - 2; i >= 0; i--) {
      if (this.visible[i]) {
        this.depth = i + 1;
        return true;
      }
    }
    return false;
  }

  delete(): void {
    // Nothing was allocated in the runtime.
  }

  /**
   * From child `index` of `parent` (that child starts at `position` and has structural index `structural`),
   * pushes the first child that is visible, or hidden with visible children (`ts_tree_cursor_child_iterator_next`).
   */
  private pushNextChild(parent: number, count: number, index: number, structural: number, position: number): Step {
    const u8 = this.u8;
    const u32 = this.u32;
    const data = u32[parent >> 2];
    const production = this.u16[(data + HEAP_PRODUCTION_ID) >> 1];
    const aliases = production * this.aliasSequenceLength;
    const children = data - SUBTREE_SIZE * count;
    for (; index < count; index++) {
      const child = children + SUBTREE_SIZE * index;
      const flags = u8[child];
      const inline = (flags & 1) !== 0;
      const childData = inline ? 0 : u32[child >> 2];
      const childFlags = inline ? flags >> 1 : u8[childData + HEAP_FLAGS];
      // Bit 0 visible, bit 2 extra.
      let visible = (childFlags & 1) !== 0;
      const extra = (childFlags & 4) !== 0;
      // `| 0`: an index past the table reads undefined, which is no alias.
      const alias = extra || production === 0 ? 0 : this.aliasSequences[aliases + structural] | 0;
      if (alias !== 0) visible = true;
      const hasVisibleChildren = !inline && u32[(childData + HEAP_CHILD_COUNT) >> 2] > 0 && u32[(childData + HEAP_VISIBLE_CHILD_COUNT) >> 2] > 0;
      if (visible || hasVisibleChildren) {
        const entry = this.depth++;
        this.slot[entry] = child;
        this.position[entry] = position;
        this.childIndex[entry] = index;
        this.structuralIndex[entry] = structural;
        this.visible[entry] = visible;
        this.alias[entry] = alias;
        // Field maps name children by a byte: a later child (of an ERROR) has no field.
        this.field[entry] = extra ? EXTRA : structural < 256 ? this.fieldByChild[production * 256 + structural] : 0;
        return visible ? Step.Visible : Step.Hidden;
      }
      if (!extra) structural++;
      if (index + 1 < count) {
        const next = child + SUBTREE_SIZE;
        position += (inline ? u8[child + 7] : u32[(childData + HEAP_SIZE_BYTES) >> 2]) + ((u8[next] & 1) !== 0 ? u8[next + 6] : u32[(u32[next >> 2] + HEAP_PADDING_BYTES) >> 2]);
      }
    }
    return Step.None;
  }
}
