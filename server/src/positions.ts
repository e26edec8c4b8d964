/**
 * Position encodings: negotiation and exact conversion between LSP positions and UTF-16 offsets
 * (JavaScript string indices, which is what web-tree-sitter and the engine use).
 */
import type { PositionEncoding, SourceText } from "synclint-rules";
import type { Position, Range } from "vscode-languageserver";

const SUPPORTED: readonly PositionEncoding[] = ["utf-16", "utf-8", "utf-32"];

/** The client's most preferred encoding that we support; UTF-16 (the LSP default) when it offers none. */
export function negotiateEncoding(offered: readonly string[] | undefined): PositionEncoding {
  for (const encoding of offered ?? []) if ((SUPPORTED as readonly string[]).includes(encoding)) return encoding as PositionEncoding;
  return "utf-16";
}

export function toPosition(source: SourceText, offset: number, encoding: PositionEncoding): Position {
  const position = source.position(offset);
  return { line: position.line, character: source.encodeCharacter(position.line, position.character, encoding) };
}

export function toRange(source: SourceText, start: number, end: number, encoding: PositionEncoding): Range {
  return { start: toPosition(source, start, encoding), end: toPosition(source, end, encoding) };
}

/** The UTF-16 offset of an LSP position; positions past a line's end clamp to it, as LSP requires. */
export function toOffset(source: SourceText, position: Position, encoding: PositionEncoding): number {
  if (position.line < 0) return 0;
  if (position.line >= source.lineCount) return source.text.length;
  const character = source.decodeCharacter(position.line, position.character, encoding);
  return source.offset({ line: position.line, character });
}
