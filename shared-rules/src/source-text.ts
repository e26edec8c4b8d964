/**
 * Line and column arithmetic over a JavaScript string. Offsets are UTF-16 code units; lines are 0-based.
 * Line breaks are `\n`, `\r\n` and a lone `\r`, as in Python and LSP.
 */
export interface Position {
  line: number;
  /** UTF-16 code units from the start of the line. */
  character: number;
}

export type PositionEncoding = "utf-8" | "utf-16" | "utf-32";

export class SourceText {
  readonly lineStarts: number[];

  constructor(readonly text: string, lineStarts?: number[]) {
    if (lineStarts) {
      this.lineStarts = lineStarts;
      return;
    }
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10) starts.push(i + 1);
      else if (code === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  /**
   * The lines of `text`, which is `previous.text` with `[start, oldEnd)` replaced by `text[start, newEnd)`:
   * only the lines around the edit are scanned again (an editor's text changes a keystroke at a time).
   */
  static edited(previous: SourceText, text: string, start: number, oldEnd: number, newEnd: number): SourceText {
    const delta = newEnd - oldEnd;
    const old = previous.lineStarts;
    // Old line starts before `start` are kept (a line start at `start` itself depends on whether a `\r` before
    // it is followed by `\n`: scanned again); the scan covers the edit; old ones after it move by `delta`.
    const kept = firstAtOrAfter(old, start, 1);
    const scanned: number[] = [];
    const scanEnd = Math.min(text.length, newEnd + 1);
    for (let k = Math.max(0, start - 1); k < scanEnd; k++) {
      const code = text.charCodeAt(k);
      if (code === 10) scanned.push(k + 1);
      else if (code === 13) {
        if (text.charCodeAt(k + 1) === 10) k++;
        scanned.push(k + 1);
      }
    }
    const last = scanned.length > 0 ? scanned[scanned.length - 1] : kept > 0 ? old[kept - 1] : 0;
    // Moved starts are increasing: skip those inside the edit or not past the last scanned one.
    const movedFrom = firstAtOrAfter(old, Math.max(oldEnd + 1, last - delta + 1), kept);
    // One array of the final length: an editor's document has thousands of lines and changes per keystroke.
    const starts = new Array<number>(kept + scanned.length + (old.length - movedFrom));
    let n = 0;
    for (let i = 0; i < kept; i++) starts[n++] = old[i];
    for (const lineStart of scanned) starts[n++] = lineStart;
    for (let i = movedFrom; i < old.length; i++) starts[n++] = old[i] + delta;
    return new SourceText(text, starts);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(clamped);
    // An offset inside a line break (between `\r` and `\n`) belongs to the end of its line.
    return { line, character: Math.min(clamped, this.lineEnd(line)) - this.lineStarts[line] };
  }

  /** The line whose start is the last one at or before `offset`. */
  private lineOf(offset: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The offset of a UTF-16 position; characters past the end of the line clamp to its end. */
  offset(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line];
    return Math.min(start + Math.max(0, position.character), this.lineEnd(position.line));
  }

  /** Offset just before the line's line break. */
  lineEnd(line: number): number {
    let end = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.text.length;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line], this.lineEnd(line));
  }

  /** Converts a UTF-16 column on `line` to a column in another encoding. */
  encodeCharacter(line: number, character: number, encoding: PositionEncoding): number {
    if (encoding === "utf-16") return character;
    const start = this.lineStarts[line] ?? this.text.length;
    const prefix = this.text.slice(start, start + character);
    return encoding === "utf-8" ? Buffer.byteLength(prefix, "utf8") : countCodePoints(prefix);
  }

  /** Converts a column in another encoding to a UTF-16 column on `line`, never splitting a character. */
  decodeCharacter(line: number, column: number, encoding: PositionEncoding): number {
    if (encoding === "utf-16") return column;
    const start = this.lineStarts[line] ?? this.text.length;
    const end = line < this.lineStarts.length ? this.lineEnd(line) : this.text.length;
    let units = 0;
    let consumed = 0;
    while (start + units < end && consumed < column) {
      const code = this.text.codePointAt(start + units)!;
      const width = code > 0xffff ? 2 : 1;
      const size = encoding === "utf-32" ? 1 : code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (consumed + size > column) break;
      consumed += size;
      units += width;
    }
    return units;
  }
}

/** The first index from `from` on whose value is at least `value` (`values` increasing), or its length. */
function firstAtOrAfter(values: readonly number[], value: number, from: number): number {
  let low = from;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
