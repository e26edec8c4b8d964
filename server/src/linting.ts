/**
 * Runs the engine on an open document with its incremental tree, and keeps the last result (and the
 * syntax tree it was computed from) for hovers and code actions. Never throws: a failure is logged once.
 */
import { IncrementalLinter } from "synclint-rules";
import type { HotEntries, LintResult, ResolvedConfig, SyntaxTree } from "synclint-rules";
import type { OpenDocument } from "./documents";
import { filePathOf } from "./configuration";

export interface DocumentLint {
  version: number;
  text: string;
  result: LintResult;
  /** The syntax tree of `text` (the document's, re-parsed if it gave its trees up meanwhile). */
  readonly syntax: SyntaxTree;
  config: ResolvedConfig;
  /** The document's functions that other files call from hot paths, as the workspace index knew them. */
  hotEntries?: HotEntries;
  /** Linted from a provisional tree (`OpenDocument.provisionalTree`). */
  provisional?: boolean;
}

/** How many documents keep what the incremental linter needs for their next edit (the ones linted last). */
const INCREMENTAL_DOCUMENTS = 8;

export class Linter {
  private readonly lastByUri = new Map<string, DocumentLint>();
  /** Per document, the one linted last at the end; each holds the previous lint's per-statement results. */
  private readonly incremental = new Map<string, IncrementalLinter>();
  private readonly reported = new Set<string>();

  constructor(private readonly log: (message: string) => void) {}

  lint(document: OpenDocument, config: ResolvedConfig, hotEntries?: HotEntries): DocumentLint | undefined {
    try {
      const linter = this.incremental.get(document.uri) ?? new IncrementalLinter();
      this.incremental.delete(document.uri);
      this.incremental.set(document.uri, linter);
      while (this.incremental.size > INCREMENTAL_DOCUMENTS) this.incremental.delete(this.incremental.keys().next().value!);
      const result = linter.lint(document.text, document.syntax, { filePath: filePathOf(document.uri), config, source: document.source, hotEntries });
      // `last` hands a lint out only while the document still has its text, so the document's tree is this text's.
      const lint: DocumentLint = {
        version: document.version,
        text: document.text,
        result,
        config,
        hotEntries,
        provisional: document.provisionalTree,
        get syntax() {
          return document.syntax;
        },
      };
      this.lastByUri.set(document.uri, lint);
      return lint;
    } catch (error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      const key = `${document.uri}\n${error instanceof Error ? error.message : String(error)}`;
      if (!this.reported.has(key)) {
        this.reported.add(key);
        this.log(`synclint: linting ${document.uri} failed: ${detail}`);
      }
      this.lastByUri.delete(document.uri);
      this.incremental.delete(document.uri);
      return undefined;
    }
  }

  /** The last lint of this exact text, if any. */
  last(document: OpenDocument): DocumentLint | undefined {
    const lint = this.lastByUri.get(document.uri);
    // A provisional lint stands only while its tree does: after a fresh parse, lint again.
    return lint && lint.text === document.text && (!lint.provisional || document.provisionalTree) ? lint : undefined;
  }

  /** Drops the last lint: the next `lint` computes it again (after a configuration change, or a fresh parse). */
  forget(uri: string): void {
    this.lastByUri.delete(uri);
  }

  /** The document is closed: nothing of it is kept. */
  close(uri: string): void {
    this.lastByUri.delete(uri);
    this.incremental.delete(uri);
  }
}
