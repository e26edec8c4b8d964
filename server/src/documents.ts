/**
 * Open documents: text, and the syntax tree kept in step with every edit by re-parsing only the top-level
 * statements around it (`spliceSyntaxTree`); no tree-sitter tree outlives a parse.
 */
import { SourceText, parseSyntaxTree, spliceSyntaxTree } from "synclint-rules";
import type { PositionEncoding, SyntaxTree, TextChange } from "synclint-rules";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver";
import { toOffset } from "./positions";

export class OpenDocument {
  private currentSource: SourceText | undefined;
  /** The syntax tree of the current text, once built. */
  private currentSyntax: SyntaxTree | undefined;
  /** An older syntax tree, and the one change (in its text's terms) that turns its text into the current one. */
  private previousSyntax: SyntaxTree | undefined;
  private change: TextChange | undefined;
  /** `currentSyntax` came from a splice and has syntax errors (see `provisionalTree`). */
  private provisional = false;

  /** `parsed` hears of every parse, so that the store can bound how many documents hold syntax trees. */
  constructor(readonly uri: string, public version: number, private currentText: string, private readonly parsed: (document: OpenDocument) => void = () => {}) {}

  get text(): string {
    return this.currentText;
  }

  get source(): SourceText {
    this.currentSource ??= new SourceText(this.currentText);
    return this.currentSource;
  }

  /**
   * The syntax tree of the current text, built on demand: after edits, by splicing the statements around them
   * into the previous tree, so a burst of changes costs one splice; otherwise by parsing the whole text.
   * Callers check `skipReason` first: huge or binary text is not parsed.
   */
  get syntax(): SyntaxTree {
    if (!this.currentSyntax) {
      const previous = this.previousSyntax;
      const change = this.change;
      this.previousSyntax = undefined;
      this.change = undefined;
      const spliced = previous && change ? spliceSyntaxTree(previous, this.currentText, change) : undefined;
      this.currentSyntax = spliced ?? parseSyntaxTree(this.currentText);
      // A region that does not parse cleanly may parse differently inside the whole text.
      this.provisional = !!spliced && spliced.problems.length > 0;
      this.parsed(this);
    }
    return this.currentSyntax;
  }

  /**
   * The syntax tree of the current text came from re-parsing a region that has syntax errors; a fresh parse of
   * the whole text could recover from them differently, so diagnostics equal a fresh lint only after
   * `reparseAfresh`.
   */
  get provisionalTree(): boolean {
    return this.provisional && this.currentSyntax !== undefined;
  }

  /** Replaces a provisional syntax tree with a fresh parse of the same text; false when there was nothing to replace. */
  reparseAfresh(): boolean {
    if (!this.provisionalTree) return false;
    this.currentSyntax = parseSyntaxTree(this.currentText);
    this.provisional = false;
    this.parsed(this);
    return true;
  }

  /** Applies LSP content changes in order; ranges are in the negotiated encoding. */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number, encoding: PositionEncoding): void {
    if (this.currentSyntax) {
      this.previousSyntax = this.currentSyntax;
      this.currentSyntax = undefined;
      this.change = undefined;
    }
    this.provisional = false;
    try {
      for (const change of changes) {
        if (!("range" in change) || !change.range) {
          this.previousSyntax = undefined;
          this.change = undefined;
          this.setText(change.text);
          continue;
        }
        const source = this.source;
        const startIndex = toOffset(source, change.range.start, encoding);
        const oldEndIndex = Math.max(startIndex, toOffset(source, change.range.end, encoding));
        const old = this.currentText;
        const newEnd = startIndex + change.text.length;
        this.recordChange(startIndex, oldEndIndex, newEnd);
        const text = old.slice(0, startIndex) + change.text + old.slice(oldEndIndex);
        this.setText(text, SourceText.edited(source, text, startIndex, oldEndIndex, newEnd));
      }
    } finally {
      this.version = version;
    }
  }

  /** Grows the change since `previousSyntax` (old text's start and end, new text's end) to cover one more edit. */
  private recordChange(start: number, oldEnd: number, newEnd: number): void {
    if (!this.previousSyntax) return;
    const current = this.change;
    if (!current) {
      this.change = { start, oldEnd, newEnd };
      return;
    }
    // `current` ends at `current.newEnd` in the text this edit applies to: map its region through this edit
    // and take the union; the old text's end moves back by what this edit added beyond the region.
    const delta = newEnd - oldEnd;
    const mergedStart = Math.min(current.start, start);
    const mergedNewEnd = Math.max(current.newEnd <= start ? current.newEnd : current.newEnd >= oldEnd ? current.newEnd + delta : newEnd, newEnd);
    const totalDelta = current.newEnd - current.oldEnd + delta;
    this.change = { start: mergedStart, oldEnd: mergedNewEnd - totalDelta, newEnd: mergedNewEnd };
  }

  /**
   * Frees the syntax tree of a document nobody is editing: the next edit, hover or code action parses the text
   * again (as an open does). Open files then cost their text and findings, not a tree each.
   */
  releaseTrees(): void {
    this.close();
  }

  close(): void {
    this.provisional = false;
    this.currentSyntax = undefined;
    this.previousSyntax = undefined;
    this.change = undefined;
  }

  private setText(text: string, source?: SourceText): void {
    this.currentText = text;
    this.currentSource = source;
  }
}


/** How many documents keep their trees between edits (the ones edited last). */
const WARM_DOCUMENTS = 8;

export class DocumentStore {
  private readonly byUri = new Map<string, OpenDocument>();
  /** Documents holding trees, the one used last at the end. */
  private readonly warm: OpenDocument[] = [];

  /**
   * `document` was just parsed: it keeps its tree for the next edit's splice, and the document
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
