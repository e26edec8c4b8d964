import * as assert from "assert";
import fc from "fast-check";
import { SourceText, initParser, lintSource, resolveConfig } from "synclint-rules";
import type { PositionEncoding } from "synclint-rules";

const ENCODINGS: PositionEncoding[] = ["utf-8", "utf-16", "utf-32"];

/** UTF-16 columns of every code-point boundary of `line`. */
function boundaries(line: string): number[] {
  const result = [0];
  let units = 0;
  for (const character of line) {
    units += character.length;
    result.push(units);
  }
  return result;
}

function expectedColumn(prefix: string, encoding: PositionEncoding): number {
  if (encoding === "utf-16") return prefix.length;
  if (encoding === "utf-8") return Buffer.byteLength(prefix, "utf8");
  return [...prefix].length;
}

describe("SourceText", () => {
  describe("lines and offsets", () => {
    it("splits on \\n, \\r\\n and a lone \\r", () => {
      const source = new SourceText("a\nbb\r\nccc\rdddd");
      assert.deepStrictEqual(source.lineStarts, [0, 2, 6, 10]);
      assert.strictEqual(source.lineCount, 4);
      assert.deepStrictEqual([0, 1, 2, 3].map((line) => source.lineText(line)), ["a", "bb", "ccc", "dddd"]);
      assert.deepStrictEqual([0, 1, 2, 3].map((line) => source.lineEnd(line)), [1, 4, 9, 14]);
    });

    it("\\n\\r is two line breaks, \\r\\r\\n is two", () => {
      assert.deepStrictEqual(new SourceText("a\n\rb").lineStarts, [0, 2, 3]);
      const source = new SourceText("a\r\r\nb");
      assert.deepStrictEqual(source.lineStarts, [0, 2, 4]);
      assert.deepStrictEqual([0, 1, 2].map((l) => source.lineText(l)), ["a", "", "b"]);
    });

    it("a trailing line break opens an empty last line", () => {
      const source = new SourceText("x = 1\r\n");
      assert.strictEqual(source.lineCount, 2);
      assert.strictEqual(source.lineText(1), "");
      assert.deepStrictEqual(source.position(7), { line: 1, character: 0 });
    });

    it("position and offset round-trip on every offset of a mixed text", () => {
      const text = "import torch\r\n\tx = '日本'\rprint('🔥', x)\n\n# end";
      const source = new SourceText(text);
      for (let offset = 0; offset <= text.length; offset++) {
        const position = source.position(offset);
        const back = source.offset(position);
        // Offsets inside a line break map to the end of the line's text.
        const lineEnd = source.lineEnd(position.line);
        assert.strictEqual(back, Math.min(offset, lineEnd), `offset ${offset}`);
      }
    });

    it("positions count UTF-16 code units: tabs are one, CJK one, emoji two", () => {
      const source = new SourceText("\tx = '日本' + '🔥' + y");
      const y = source.text.indexOf("y");
      assert.deepStrictEqual(source.position(y), { line: 0, character: 19 });
      assert.strictEqual(y, 19);
    });

    it("position clamps out-of-range offsets; offset clamps columns to the line end", () => {
      const source = new SourceText("ab\ncd");
      assert.deepStrictEqual(source.position(-5), { line: 0, character: 0 });
      assert.deepStrictEqual(source.position(99), { line: 1, character: 2 });
      assert.strictEqual(source.offset({ line: 0, character: 99 }), 2);
      assert.strictEqual(source.offset({ line: -1, character: 0 }), 0);
      assert.strictEqual(source.offset({ line: 7, character: 0 }), 5);
      assert.strictEqual(source.offset({ line: 1, character: -3 }), 3);
    });
  });

  describe("encodeCharacter / decodeCharacter", () => {
    const lines = ["\tif x:\ty = 1", "名前 = '日本語のテキスト'", "s = '🔥🚀' + t  # 😀", "mixé = 'ñ' + '€' + '𝔘'", "plain ascii line"];

    for (const [index, separator] of [["\\n", "\n"], ["\\r\\n", "\r\n"], ["\\r", "\r"]] as const) {
      it(`round-trips every code-point boundary in utf-8/utf-16/utf-32 with ${index} line breaks`, () => {
        const source = new SourceText(lines.join(separator));
        lines.forEach((line, lineNumber) => {
          assert.strictEqual(source.lineText(lineNumber), line);
          for (const column of boundaries(line)) {
            for (const encoding of ENCODINGS) {
              const encoded = source.encodeCharacter(lineNumber, column, encoding);
              assert.strictEqual(encoded, expectedColumn(line.slice(0, column), encoding), `${encoding} encode ${JSON.stringify(line)}@${column}`);
              assert.strictEqual(source.decodeCharacter(lineNumber, encoded, encoding), column, `${encoding} decode ${JSON.stringify(line)}@${encoded}`);
            }
          }
        });
      });
    }

    it("decoding a column inside a multi-byte character never splits it", () => {
      const source = new SourceText("a🔥b日c");
      // utf-8: a=1 byte, 🔥=4 bytes, b=1, 日=3, c=1
      assert.strictEqual(source.decodeCharacter(0, 2, "utf-8"), 1);
      assert.strictEqual(source.decodeCharacter(0, 4, "utf-8"), 1);
      assert.strictEqual(source.decodeCharacter(0, 5, "utf-8"), 3);
      assert.strictEqual(source.decodeCharacter(0, 7, "utf-8"), 4);
      assert.strictEqual(source.decodeCharacter(0, 9, "utf-8"), 5);
      // utf-32: one per code point; the emoji is two UTF-16 units
      assert.strictEqual(source.decodeCharacter(0, 2, "utf-32"), 3);
    });

    it("decoding past the end of the line clamps to the line end", () => {
      const source = new SourceText("ab🔥\nnext");
      assert.strictEqual(source.decodeCharacter(0, 100, "utf-8"), 4);
      assert.strictEqual(source.decodeCharacter(0, 100, "utf-32"), 4);
    });
  });

  describe("finding columns", () => {
    before(() => initParser());

    it("are UTF-16 columns on a line with an emoji before `loss.item()`", () => {
      const line = '        print("🔥 step", loss.item())';
      const code = ["import torch", "def train(loader, model):", "    for x, y in loader:", "        loss = model(x).mean()", line, ""].join("\n");
      const result = lintSource(code, { config: resolveConfig({ select: ["item-in-hot-path"] }, process.cwd()) });
      assert.strictEqual(result.findings.length, 1);
      const finding = result.findings[0];
      assert.strictEqual(finding.line, 5);
      assert.strictEqual(finding.column, line.indexOf("item()") + 1);
      assert.strictEqual(finding.column, 31, "the emoji counts as two UTF-16 units");
      assert.strictEqual(finding.endColumn, line.indexOf("item()") + "item()".length + 1);
      assert.strictEqual(code.slice(finding.start, finding.end), "item()");
      // The same position in UTF-8 (what a utf-8 LSP client would get): the emoji is 4 bytes.
      const utf8 = result.source.encodeCharacter(finding.line - 1, finding.column - 1, "utf-8");
      assert.strictEqual(utf8, Buffer.byteLength(line.slice(0, line.indexOf("item()")), "utf8"));
      assert.strictEqual(utf8, 32);
      assert.strictEqual(result.source.encodeCharacter(finding.line - 1, finding.column - 1, "utf-32"), 29);
    });

    it("are right on CRLF files", () => {
      const code = "import torch\r\ndef train(loader, model):\r\n    for x, y in loader:\r\n        loss = model(x).mean()\r\n        v = loss.item()\r\n";
      const result = lintSource(code, { config: resolveConfig({ select: ["item-in-hot-path"] }, process.cwd()) });
      assert.deepStrictEqual(result.problems, []);
      assert.deepStrictEqual(result.findings.map((f) => [f.line, f.column, f.endLine, f.endColumn]), [[5, 18, 5, 24]]);
    });
  });
});

describe("SourceText.edited", () => {
  it("finds the same lines as a scan of the whole edited text, whatever the line breaks around the edit", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "\n", "\r", "\r\n", "b c", "\n\n", "😀"), { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.array(fc.constantFrom("x", "\n", "\r", "\r\n"), { maxLength: 3 })), { minLength: 1, maxLength: 6 }),
        (parts, edits) => {
          let text = parts.join("");
          let source = new SourceText(text);
          for (const [at, length, pieces] of edits) {
            const start = at % (text.length + 1);
            const oldEnd = Math.min(text.length, start + length);
            const inserted = pieces.join("");
            text = text.slice(0, start) + inserted + text.slice(oldEnd);
            source = SourceText.edited(source, text, start, oldEnd, start + inserted.length);
            assert.deepStrictEqual(source.lineStarts, new SourceText(text).lineStarts);
          }
        },
      ),
      { numRuns: 5000, seed: 11 },
    );
  });
});
