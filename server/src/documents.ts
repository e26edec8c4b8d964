/**
 * Open documents: text, the tree-sitter tree kept in step with every edit (tree.edit + incremental re-parse),
 * and the last lint result for hovers and code actions.
 */
import { SourceText, buildSyntaxTree, parsePython, updateSyntaxTree } from "synclint-rules";
import type { PositionEncoding, SyntaxTree, Tree } from "synclint-rules";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver";
import { toOffset } from "./positions";

interface Point {
  row: number;
  column: number;
}

export class OpenDocument {
  private currentSource: SourceText | undefined;
  /** The tree of the current text, once parsed. */
  private currentTree: Tree | undefined;
  /** An older tree with every edit since applied (`tree.edit`), not yet re-parsed. */
  private editedTree: Tree | undefined;
  /** The plain-object syntax tree of `currentTree`, and what changed since the last one was built. */
  private currentSyntax: SyntaxTree | undefined;
  private previousSyntax: SyntaxTree | undefined;
  private change: { start: number; end: number; delta: number } | undefined;
  private provisional = false;

  /** `parsed` hears of every parse, so that the store can bound how many documents hold trees. */
  constructor(readonly uri: string, public version: number, private currentText: string, private readonly parsed: (document: OpenDocument) => void = () => {}) {}

  get text(): string {
    return this.currentText;
  }

  get source(): SourceText {
    this.currentSource ??= new SourceText(this.currentText);
    return this.currentSource;
  }

  /**
   * The tree for the current text, parsed on demand: incrementally from the edited tree when there is one, so
   * a burst of changes costs one re-parse. Callers check `skipReason` first: huge or binary text is not parsed.
   */
  get tree(): Tree {
    if (!this.currentTree) {
      const edited = this.editedTree;
      this.editedTree = undefined;
      try {
        const tree = parsePython(this.currentText, edited);
        // Error recovery can differ between an incremental and a fresh parse (found by fuzzing): such a tree
        // is provisional until `reparseAfresh` replaces it, once the typing stops.
        this.provisional = !!edited && tree.rootNode.hasError;
        if (edited && this.change) {
          for (const range of tree.getChangedRanges(edited)) {
            this.change.start = Math.min(this.change.start, range.startIndex);
            this.change.end = Math.max(this.change.end, range.endIndex);
          }
        }
        this.currentTree = tree;
      } finally {
        edited?.delete();
      }
      this.parsed(this);
    }
    return this.currentTree;
  }

  /**
   * The plain-object syntax tree of the current text: after an edit, the top-level statements outside the
   * change are reused from the previous one and only the changed ones are copied out of WASM.
   */
  get syntax(): SyntaxTree {
    if (!this.currentSyntax) {
      const tree = this.tree;
      const previous = this.previousSyntax;
      this.currentSyntax = previous && this.change ? updateSyntaxTree(tree, previous, this.change) : buildSyntaxTree(tree);
      this.previousSyntax = undefined;
      this.change = undefined;
    }
    return this.currentSyntax;
  }

  /**
   * The tree of the current text came from an incremental re-parse of text with syntax errors; a fresh parse
   * could recover from the errors differently, so diagnostics equal a fresh lint only after `reparseAfresh`.
   */
  get provisionalTree(): boolean {
    return this.provisional && this.currentTree !== undefined;
  }

  /** Replaces a provisional tree with a fresh parse of the same text; false when there was nothing to replace. */
  reparseAfresh(): boolean {
    if (!this.provisionalTree) return false;
    this.currentTree!.delete();
    this.currentTree = parsePython(this.currentText);
    this.provisional = false;
    this.currentSyntax = undefined;
    this.previousSyntax = undefined;
    this.change = undefined;
    this.parsed(this);
    return true;
  }

  /** Applies LSP content changes in order; ranges are in the negotiated encoding. */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number, encoding: PositionEncoding): void {
    let edited: Tree | undefined = this.currentTree ?? this.editedTree;
    this.currentTree = undefined;
    this.provisional = false;
    this.editedTree = undefined;
    if (this.currentSyntax) {
      this.previousSyntax = this.currentSyntax;
      this.currentSyntax = undefined;
      this.change = undefined;
    }
    try {
      for (const change of changes) {
        if (!("range" in change) || !change.range) {
          edited?.delete();
          edited = undefined;
          this.previousSyntax = undefined;
          this.change = undefined;
          this.setText(change.text);
          continue;
        }
        const source = this.source;
        const startIndex = toOffset(source, change.range.start, encoding);
        const oldEndIndex = Math.max(startIndex, toOffset(source, change.range.end, encoding));
        const old = this.currentText;
        const text = old.slice(0, startIndex) + change.text + old.slice(oldEndIndex);
        this.recordChange(startIndex, oldEndIndex, startIndex + change.text.length);
        if (edited) {
          const startPosition = pointAt(old, startIndex);
          edited.edit({
            startIndex,
            oldEndIndex,
            newEndIndex: startIndex + change.text.length,
            startPosition,
            oldEndPosition: advance(startPosition, old, startIndex, oldEndIndex),
            newEndPosition: advance(startPosition, change.text, 0, change.text.length),
          });
        }
        this.setText(text);
      }
    } catch (error) {
      edited?.delete();
      throw error;
    } finally {
      this.version = version;
    }
    this.editedTree = edited;
  }

  /** Grows the changed region (in the new text's offsets) to cover one more edit. */
  private recordChange(start: number, oldEnd: number, newEnd: number): void {
    if (!this.previousSyntax) return;
    const delta = newEnd - oldEnd;
    const current = this.change;
    if (!current) {
      this.change = { start, end: newEnd, delta };
      return;
    }
    // Map the earlier region through this edit, then take the union.
    const mappedStart = current.start <= start ? current.start : current.start >= oldEnd ? current.start + delta : start;
    const mappedEnd = current.end <= start ? current.end : current.end >= oldEnd ? current.end + delta : newEnd;
    this.change = { start: Math.min(mappedStart, start), end: Math.max(mappedEnd, newEnd), delta: current.delta + delta };
  }

  /**
   * Frees the trees of a document nobody is editing: the next edit, hover or code action parses the text
   * again (as an open does). Open files then cost their text and findings, not two trees each.
   */
  releaseTrees(): void {
    this.close();
    this.change = undefined;
  }

  close(): void {
    this.provisional = false;
    this.currentSyntax = undefined;
    this.previousSyntax = undefined;
    this.currentTree?.delete();
    this.currentTree = undefined;
    this.editedTree?.delete();
    this.editedTree = undefined;
  }

  private setText(text: string): void {
    this.currentText = text;
    this.currentSource = undefined;
  }
}

/**
 * Tree-sitter points, as `parsePython` sees the text: rows end at `\n` and at a lone `\r` (which it parses
 * as `\n`); columns are UTF-16 code units.
 */
function pointAt(text: string, offset: number): Point {
  return advance({ row: 0, column: 0 }, text, 0, offset);
}

/** The point reached from `from` after the text `text[start, end)`. */
function advance(from: Point, text: string, start: number, end: number): Point {
  let row = from.row;
  let lineStart = -1;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) {
      row++;
      lineStart = i + 1;
    }
  }
  return lineStart === -1 ? { row, column: from.column + (end - start) } : { row, column: end - lineStart };
}

/** How many documents keep their trees between edits (the ones edited last). */
const WARM_DOCUMENTS = 8;

export class DocumentStore {
  private readonly byUri = new Map<string, OpenDocument>();
  /** Documents holding trees, the one used last at the end. */
  private readonly warm: OpenDocument[] = [];

  /**
   * `document` was just parsed: it keeps its trees for the next edit's incremental re-parse, and the document
   * used longest ago beyond the first WARM_DOCUMENTS gives its trees up.
   */
  private keepWarm(document: OpenDocument): void {
    const at = this.warm.indexOf(document);
    if (at >= 0) this.warm.splice(at, 1);
    this.warm.push(document);
    while (this.warm.length > WARM_DOCUMENTS) this.warm.shift()!.releaseTrees();
  }

  open(uri: string, version: number, text: string): OpenDocument {
    this.close(uri);
    const document = new OpenDocument(uri, version, text, (parsed) => this.keepWarm(parsed));
    this.byUri.set(uri, document);
    return document;
  }

  get(uri: string): OpenDocument | undefined {
    return this.byUri.get(uri);
  }

  close(uri: string): void {
    const document = this.byUri.get(uri);
    if (!document) return;
    document.close();
    this.byUri.delete(uri);
    const at = this.warm.indexOf(document);
    if (at >= 0) this.warm.splice(at, 1);
  }

  all(): OpenDocument[] {
    return [...this.byUri.values()];
  }
}
