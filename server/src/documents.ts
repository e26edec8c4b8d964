/**
 * Open documents: text, the tree-sitter tree kept in step with every edit (tree.edit + incremental re-parse),
 * and the last lint result for hovers and code actions.
 */
import { SourceText, parsePython } from "synclint-rules";
import type { PositionEncoding, Tree } from "synclint-rules";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver";
import { toOffset } from "./positions";

interface Point {
  row: number;
  column: number;
}

export class OpenDocument {
  private currentSource: SourceText | undefined;
  private currentTree: Tree | undefined;

  constructor(readonly uri: string, public version: number, private currentText: string) {}

  get text(): string {
    return this.currentText;
  }

  get source(): SourceText {
    this.currentSource ??= new SourceText(this.currentText);
    return this.currentSource;
  }

  /** The tree for the current text, parsed (incrementally when an edited tree exists) on demand. */
  get tree(): Tree {
    if (!this.currentTree) this.currentTree = parsePython(this.currentText);
    return this.currentTree;
  }

  /** Applies LSP content changes in order; ranges are in the negotiated encoding. */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number, encoding: PositionEncoding): void {
    let edited: Tree | undefined = this.currentTree;
    this.currentTree = undefined;
    for (const change of changes) {
      if (!("range" in change) || !change.range) {
        edited?.delete();
        edited = undefined;
        this.setText(change.text);
        continue;
      }
      const source = this.source;
      const startIndex = toOffset(source, change.range.start, encoding);
      const oldEndIndex = Math.max(startIndex, toOffset(source, change.range.end, encoding));
      const old = this.currentText;
      const text = old.slice(0, startIndex) + change.text + old.slice(oldEndIndex);
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
    this.version = version;
    if (edited) {
      try {
        this.currentTree = parsePython(this.currentText, edited);
      } finally {
        edited.delete();
      }
    }
  }

  close(): void {
    this.currentTree?.delete();
    this.currentTree = undefined;
  }

  private setText(text: string): void {
    this.currentText = text;
    this.currentSource = undefined;
  }
}

/** Tree-sitter points count rows at `\n` only; columns are UTF-16 code units here. */
function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/** The point reached from `from` after the text `text[start, end)`. */
function advance(from: Point, text: string, start: number, end: number): Point {
  let row = from.row;
  let lineStart = -1;
  for (let i = text.indexOf("\n", start); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return lineStart === -1 ? { row, column: from.column + (end - start) } : { row, column: end - lineStart };
}

export class DocumentStore {
  private readonly byUri = new Map<string, OpenDocument>();

  open(uri: string, version: number, text: string): OpenDocument {
    this.byUri.get(uri)?.close();
    const document = new OpenDocument(uri, version, text);
    this.byUri.set(uri, document);
    return document;
  }

  get(uri: string): OpenDocument | undefined {
    return this.byUri.get(uri);
  }

  close(uri: string): void {
    this.byUri.get(uri)?.close();
    this.byUri.delete(uri);
  }

  all(): OpenDocument[] {
    return [...this.byUri.values()];
  }
}
