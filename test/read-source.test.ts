import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readSourceFile } from "synclint-rules";
import { decodeSource } from "synclint-rules/out/read-source";

function bytes(...parts: Array<string | number[]>): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));
}

describe("reading source files", () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-read-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function write(name: string, content: Buffer | string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  }

  describe("decodeSource", () => {
    it("decodes plain UTF-8, keeping non-ASCII text", () => {
      assert.deepStrictEqual(decodeSource(bytes("# 日本 🔥\nx = 1\n")), { ok: true, text: "# 日本 🔥\nx = 1\n" });
    });

    it("strips a UTF-8 BOM", () => {
      const result = decodeSource(bytes([0xef, 0xbb, 0xbf], "import torch\n"));
      assert.deepStrictEqual(result, { ok: true, text: "import torch\n" });
    });

    it("refuses UTF-16 (both byte orders) with a one-line reason", () => {
      for (const bom of [[0xff, 0xfe], [0xfe, 0xff]]) {
        const result = decodeSource(Buffer.concat([Buffer.from(bom), Buffer.from("import torch\n", "utf16le")]));
        assert.strictEqual(result.ok, false);
        if (!result.ok) assert.match(result.reason, /UTF-16 encoded/);
      }
    });

    it("refuses binary content (NUL bytes)", () => {
      const result = decodeSource(bytes("import torch\n", [0x00, 0x01, 0x02], "\n"));
      assert.deepStrictEqual(result, { ok: false, reason: "file skipped: binary content (NUL bytes)" });
    });

    it("locates invalid UTF-8 by line, column and byte", () => {
      const result = decodeSource(bytes("import torch\nx = 'ok'\ny = 'é", [0xff], "'\n"));
      assert.strictEqual(result.ok, false);
      if (result.ok) return;
      assert.strictEqual(result.line, 3);
      assert.strictEqual(result.column, 7, "columns count decoded characters: `y = 'é` is 6");
      const offset = Buffer.byteLength("import torch\nx = 'ok'\ny = 'é");
      assert.strictEqual(result.reason, `file skipped: invalid UTF-8 at line 3, column 7 (byte ${offset})`);
    });

    it("counts the BOM in the byte offset of invalid UTF-8", () => {
      const result = decodeSource(bytes([0xef, 0xbb, 0xbf], "x = 1\n", [0xc3, 0x28]));
      assert.strictEqual(result.ok, false);
      if (!result.ok) {
        assert.deepStrictEqual([result.line, result.column], [2, 1]);
        assert.match(result.reason, /\(byte 9\)$/);
      }
    });

    it("rejects overlong encodings and surrogates", () => {
      for (const bad of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
        const result = decodeSource(bytes("a", bad));
        assert.strictEqual(result.ok, false, bad.map((b) => b.toString(16)).join(" "));
        if (!result.ok) assert.deepStrictEqual([result.line, result.column], [1, 2]);
      }
    });

    it("honours a PEP 263 latin-1 declaration on line 1 or 2", () => {
      // Spelled `latin1`: the PEP 263 spelling `latin-1` is not accepted by the engine yet (reported as an engine bug).
      const line1 = decodeSource(bytes("# -*- coding: latin1 -*-\nname = '", [0xe9], "'\n"));
      assert.deepStrictEqual(line1, { ok: true, text: "# -*- coding: latin1 -*-\nname = 'é'\n" });
      const line2 = decodeSource(bytes("#!/usr/bin/env python\n# coding=iso-8859-1\nname = '", [0xe9], "'\n"));
      assert.deepStrictEqual(line2, { ok: true, text: "#!/usr/bin/env python\n# coding=iso-8859-1\nname = '\u00e9'\n" });
    });

    it("ignores a coding declaration after the first two lines or after code", () => {
      const late = decodeSource(bytes("x = 1\n# coding: latin1\nname = '", [0xe9], "'\n"));
      assert.strictEqual(late.ok, false);
      const third = decodeSource(bytes("#\n#\n# coding: latin1\nname = '", [0xe9], "'\n"));
      assert.strictEqual(third.ok, false);
    });

    it("a utf-8 declaration keeps strict UTF-8 decoding", () => {
      const result = decodeSource(bytes("# -*- coding: utf-8 -*-\nname = '", [0xe9], "'\n"));
      assert.strictEqual(result.ok, false);
      if (!result.ok) assert.strictEqual(result.line, 2);
    });

    it("an unknown declared encoding falls back to UTF-8", () => {
      assert.deepStrictEqual(decodeSource(bytes("# coding: klingon\nx = 'é'\n")), { ok: true, text: "# coding: klingon\nx = 'é'\n" });
    });
  });

  describe("readSourceFile", () => {
    it("reads a file", () => {
      const file = write("ok.py", "import torch\n");
      assert.deepStrictEqual(readSourceFile(file), { ok: true, text: "import torch\n" });
    });

    it("reads a file with a BOM and CRLF line breaks unchanged except the BOM", () => {
      const file = write("bom.py", bytes([0xef, 0xbb, 0xbf], "import torch\r\nx = 1\r\n"));
      assert.deepStrictEqual(readSourceFile(file), { ok: true, text: "import torch\r\nx = 1\r\n" });
    });

    it("reports a missing file without throwing", () => {
      const result = readSourceFile(path.join(dir, "does-not-exist.py"));
      assert.deepStrictEqual(result, { ok: false, reason: "cannot read file: file disappeared before it could be read" });
    });

    it("reports a directory as not a regular file", () => {
      const sub = path.join(dir, "pkg.py");
      fs.mkdirSync(sub);
      assert.deepStrictEqual(readSourceFile(sub), { ok: false, reason: "not a regular file" });
    });

    it("reports binary, UTF-16 and invalid UTF-8 files", () => {
      const binary = readSourceFile(write("bin.py", bytes([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x00])));
      assert.strictEqual(binary.ok, false);
      const utf16 = readSourceFile(write("u16.py", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("x = 1\n", "utf16le")])));
      assert.strictEqual(utf16.ok, false);
      const invalid = readSourceFile(write("bad.py", bytes("x = 1\ny = '", [0x80], "'\n")));
      assert.strictEqual(invalid.ok, false);
      if (!invalid.ok) assert.deepStrictEqual([invalid.line, invalid.column], [2, 6]);
    });

    it("reads a latin-1 file with its declaration", () => {
      const file = write("latin.py", bytes("# vim: set fileencoding=iso-8859-1 :\ns = '", [0xfc], "ber'\n"));
      assert.deepStrictEqual(readSourceFile(file), { ok: true, text: "# vim: set fileencoding=iso-8859-1 :\ns = 'über'\n" });
    });
  });
});
