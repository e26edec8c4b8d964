/**
 * Runs the engine on an open document with its incremental tree, and keeps the last result (and the
 * syntax tree it was computed from) for hovers and code actions. Never throws: a failure is logged once.
 */
import { lintSyntaxTree } from "synclint-rules";
import type { LintResult, ResolvedConfig, SyntaxTree } from "synclint-rules";
import type { OpenDocument } from "./documents";
import { filePathOf } from "./configuration";

export interface DocumentLint {
  version: number;
  text: string;
  result: LintResult;
  /** The syntax tree of `text` (the document's, re-parsed if it gave its trees up meanwhile). */
  readonly syntax: SyntaxTree;
  config: ResolvedConfig;
}

export class Linter {
  private readonly lastByUri = new Map<string, DocumentLint>();
  private readonly reported = new Set<string>();

  constructor(private readonly log: (message: string) => void) {}

  lint(document: OpenDocument, config: ResolvedConfig): DocumentLint | undefined {
    try {
      const result = lintSyntaxTree(document.text, document.syntax, { filePath: filePathOf(document.uri), config });
      // `last` hands a lint out only while the document still has its text, so the document's tree is this text's.
      const lint: DocumentLint = {
        version: document.version,
        text: document.text,
        result,
        config,
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
      return undefined;
    }
  }

  /** The last lint of this exact text, if any. */
  last(document: OpenDocument): DocumentLint | undefined {
    const lint = this.lastByUri.get(document.uri);
    return lint && lint.text === document.text ? lint : undefined;
  }

  forget(uri: string): void {
    this.lastByUri.delete(uri);
  }
}
