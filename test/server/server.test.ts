import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { TestClient } from "./lsp-client";
import { SETTLING_OPTIONS } from "../hardening/server-stdio";

type Encoding = "utf-8" | "utf-16";

const TRAIN = [
  "import torch",
  "",
  "def train(model, loader, optimizer, device=\"cuda\"):",
  "    for step, (x, y) in enumerate(loader):",
  "        loss = model(x).mean()",
  "        loss.backward()",
  "        optimizer.step()",
  "        print(loss.item())",
  "",
  "def evaluate(model, x):",
  "    return model(x).sum().item()",
  "",
].join("\n");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-server-"));
const uriOf = (name: string) => pathToFileURL(path.join(dir, name)).href;

/** Column in `encoding` of a UTF-16 column on a line, computed independently of the server. */
function encodeColumn(line: string, utf16: number, encoding: Encoding): number {
  return encoding === "utf-16" ? utf16 : Buffer.byteLength(line.slice(0, utf16), "utf8");
}

function lspPosition(text: string, offset: number, encoding: Encoding): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  const lineStart = before.lastIndexOf("\n") + 1;
  const lineText = text.slice(lineStart, text.indexOf("\n", lineStart) === -1 ? text.length : text.indexOf("\n", lineStart));
  return { line, character: encodeColumn(lineText, offset - lineStart, encoding) };
}

/** What the server should publish for `text`: a fresh lint, converted here. */
function expected(text: string, name: string, encoding: Encoding) {
  const result = lintSource(text, { filePath: path.join(dir, name), config: resolveConfig({}, dir) });
  const lines = text.split("\n");
  const range = (line: number, column: number, endLine: number, endColumn: number) => ({
    start: { line: line - 1, character: encodeColumn(lines[line - 1] ?? "", column - 1, encoding) },
    end: { line: endLine - 1, character: encodeColumn(lines[endLine - 1] ?? "", endColumn - 1, encoding) },
  });
  return [
    ...result.findings.map((f) => ({ code: f.rule, message: f.message, range: range(f.line, f.column, f.endLine, f.endColumn) })),
    ...result.problems.map((p) => ({ code: p.kind, message: p.message, range: range(p.line, p.column, p.endLine, p.endColumn) })),
  ];
}

const simplify = (diagnostics: any[]) => diagnostics.map((d) => ({ code: d.code, message: d.message, range: d.range }));

/** A deterministic PRNG for the edit sequences. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const LINES = ["        print(loss.item())\n", "        total += loss.item()  # 😀 中文\n", "        if loss:\n            pass\n", "        torch.cuda.synchronize()\n", "        s = f\"{loss:.4f}\"\n", "        n = x.nonzero()\n"];
const SNIPPETS = ["x", " ", "\n", ".item()", "loss.item()", "\n        print(loss.item())\n", "😀", "中文", "\t", "if loss:\n            pass\n", "# comment\n", "\"s\"", "torch.cuda.synchronize()\n"];

describe("language server (stdio)", function () {
  this.timeout(60000);
  let client: TestClient;

  before(async () => {
    await initParser();
  });
  afterEach(() => client?.kill());

  it("negotiates UTF-16 by default and UTF-8 when the client prefers it", async () => {
    client = new TestClient();
    const plain = await client.initialize({});
    assert.strictEqual(plain.capabilities.positionEncoding, "utf-16");
    assert.strictEqual(plain.capabilities.textDocumentSync.change, 2);
    assert.strictEqual(plain.capabilities.diagnosticProvider, undefined);
    client.kill();
    client = new TestClient();
    const utf8 = await client.initialize({ general: { positionEncodings: ["utf-8", "utf-16"] } });
    assert.strictEqual(utf8.capabilities.positionEncoding, "utf-8");
  });

  it("publishes on didOpen exactly what a fresh lint finds, with code, docs link, source and data", async () => {
    client = new TestClient();
    await client.initialize({});
    const uri = uriOf("train.py");
    await client.open(uri, TRAIN);
    const published = await client.diagnostics(uri, 1);
    const want = expected(TRAIN, "train.py", "utf-16");
    assert.ok(want.some((d) => d.code === "item-in-hot-path"), "the fixture has a hot .item()");
    assert.deepStrictEqual(simplify(published.diagnostics), want);
    const item = published.diagnostics.find((d) => d.code === "item-in-hot-path");
    assert.strictEqual(item.source, "synclint");
    assert.strictEqual(item.severity, 2);
    assert.match(item.codeDescription.href, /docs\/rules\.md#syn101-item-in-hot-path$/);
    assert.deepStrictEqual(item.data, { rule: "item-in-hot-path" });
    assert.deepStrictEqual(item.range, { start: { line: 7, character: 19 }, end: { line: 7, character: 25 } });
  });

  for (const encoding of ["utf-16", "utf-8"] as const) {
    it(`keeps diagnostics equal to a fresh lint over 300 incremental edits (${encoding})`, async () => {
      client = new TestClient();
      // Diagnostics of a provisional tree (a region with syntax errors, which may recover differently inside the
      // whole file) are published at once and then replaced by a fresh parse's: compare what settles.
      await client.initialize({ general: { positionEncodings: [encoding] } }, null, SETTLING_OPTIONS);
      const uri = uriOf(`edits-${encoding}.py`);
      let text = TRAIN;
      await client.open(uri, text);
      const next = random(encoding === "utf-8" ? 7 : 42);
      const history: Array<{ start: number; removed: string; inserted: string }> = [];
      let version = 1;
      let checkpointsWithFindings = 0;
      for (let i = 0; i < 300; i++) {
        let start: number;
        let end: number;
        let inserted: string;
        const kind = next();
        if (kind < 0.3 && history.length > 0) {
          // Undo: restore the text the last edit replaced.
          const last = history.pop()!;
          start = last.start;
          end = last.start + last.inserted.length;
          inserted = last.removed;
        } else if (kind < 0.7) {
          // A whole statement inserted at the start of a line of the loop body (keeps the file valid).
          const starts = [...text.matchAll(/\n(?=        \S)/g)].map((m) => m.index! + 1);
          start = end = starts.length > 0 ? starts[Math.floor(next() * starts.length)] : text.length;
          inserted = LINES[Math.floor(next() * LINES.length)];
        } else {
          const header = Math.max(0, text.indexOf("enumerate(loader):") + 20);
          start = header + Math.floor(next() * (text.length + 1 - header));
          if (kind < 0.85) end = start;
          else end = Math.min(text.length, start + Math.floor(next() * (kind < 0.97 ? 8 : 60)));
          inserted = kind < 0.95 ? SNIPPETS[Math.floor(next() * SNIPPETS.length)] : "";
        }
        // Never split a surrogate pair: real editors edit whole characters.
        const isLow = (index: number) => index > 0 && index < text.length && /[\uDC00-\uDFFF]/.test(text[index]);
        if (isLow(start)) start--;
        if (isLow(end)) end++;
        const range = { start: lspPosition(text, start, encoding), end: lspPosition(text, end, encoding) };
        const removed = text.slice(start, end);
        if (kind >= 0.3 || history.length === 0) history.push({ start, removed, inserted });
        text = text.slice(0, start) + inserted + text.slice(end);
        version++;
        await client.change(uri, version, [{ range, text: inserted }]);
        if (i % 5 === 4) {
          const published = await client.settledDiagnostics(uri, version);
          assert.deepStrictEqual(simplify(published.diagnostics), expected(text, `edits-${encoding}.py`, encoding), `after edit ${i + 1}`);
          if (published.diagnostics.length > 0) checkpointsWithFindings++;
        }
      }
      const published = await client.settledDiagnostics(uri, version);
      assert.deepStrictEqual(simplify(published.diagnostics), expected(text, `edits-${encoding}.py`, encoding));
      // The comparison must not be vacuous: some checkpoints compared non-empty diagnostic lists.
      assert.ok(checkpointsWithFindings > 0, `${encoding}: no checkpoint had diagnostics to compare`);
    });
  }

  it("applies several changes in one notification, including multi-line replacements", async () => {
    client = new TestClient();
    await client.initialize({});
    const uri = uriOf("multi.py");
    await client.open(uri, TRAIN);
    await client.change(uri, 2, [
      { range: { start: { line: 7, character: 8 }, end: { line: 7, character: 26 } }, text: "pass" },
      { range: { start: { line: 4, character: 0 }, end: { line: 6, character: 24 } }, text: "        loss = model(x).mean()\n        if loss:\n            loss.backward()" },
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# header\n" },
    ]);
    const want = "# header\nimport torch\n\ndef train(model, loader, optimizer):\n    for step, (x, y) in enumerate(loader):\n        loss = model(x).mean()\n        if loss:\n            loss.backward()\n        pass\n\ndef evaluate(model, x):\n    return model(x).sum().item()\n";
    const published = await client.diagnostics(uri, 2);
    assert.deepStrictEqual(simplify(published.diagnostics), expected(want, "multi.py", "utf-16"));
    assert.ok(!published.diagnostics.some((d) => d.code === "item-in-hot-path"), "the .item() was deleted");
    assert.ok(published.diagnostics.some((d) => d.range.start.line === 6), "the new `if loss:` is reported");
  });

  it("puts squiggles on the right characters after emoji and CJK in UTF-16 and UTF-8", async () => {
    const text = TRAIN.replace("        print(loss.item())", "        print(\"😀中文\t\", loss.item())");
    const line = text.split("\n")[7];
    const utf16 = line.indexOf("item()");
    for (const encoding of ["utf-16", "utf-8"] as const) {
      client = new TestClient();
      await client.initialize({ general: { positionEncodings: [encoding] } });
      const uri = uriOf(`astral-${encoding}.py`);
      await client.open(uri, text);
      const item = (await client.diagnostics(uri, 1)).diagnostics.find((d) => d.code === "item-in-hot-path");
      const character = encoding === "utf-16" ? utf16 : Buffer.byteLength(line.slice(0, utf16));
      assert.deepStrictEqual(item.range, { start: { line: 7, character }, end: { line: 7, character: character + 6 } });
      // A hover at that position in the same encoding lands on the same call.
      const hover = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 7, character: character + 1 } });
      assert.ok(hover, `hover at ${encoding} position`);
      assert.deepStrictEqual(hover.range, item.range);
      client.kill();
    }
    assert.notStrictEqual(utf16, Buffer.byteLength(line.slice(0, utf16)), "the fixture distinguishes the encodings");
  });

  it("hovers on a flagged .item() with the four layers and why the site is hot, and on a cold .item() too", async () => {
    client = new TestClient();
    await client.initialize({});
    const uri = uriOf("hover.py");
    await client.open(uri, TRAIN);
    await client.diagnostics(uri, 1);
    const hot = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 7, character: 21 } });
    const value: string = hot.contents.value;
    assert.strictEqual(hot.contents.kind, "markdown");
    for (const layer of ["Python call", "Device and stream", "Copy and wait", "Boxing"]) assert.ok(value.includes(layer), `layer ${layer}`);
    assert.match(value, /cudaStreamSynchronize/);
    assert.match(value, /graph break/);
    assert.match(value, /CUDA-graph capture/);
    assert.match(value, /Why this site is considered hot/);
    assert.match(value, /train\(\)/);
    assert.match(value, /Use instead/);
    assert.doesNotMatch(value, /whole device|default stream is synchronous/i);
    const cold = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 10, character: 27 } });
    assert.ok(cold, "hover on an unflagged .item()");
    assert.match(cold.contents.value, /Copy and wait/);
    assert.match(cold.contents.value, /Not reported here/);
    const nothing = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 2 } });
    assert.strictEqual(nothing, null);
  });

  it("offers disable-for-line (applied: the diagnostic disappears), merging into an existing ignore comment", async () => {
    client = new TestClient();
    await client.initialize({});
    const uri = uriOf("actions.py");
    let text = TRAIN.replace("        print(loss.item())", "        x = loss.item()  # synclint: ignore[tensor-formatting]\n        y = loss.item()");
    await client.open(uri, text);
    const published = await client.diagnostics(uri, 1);
    const items = published.diagnostics.filter((d) => d.code === "item-in-hot-path");
    assert.strictEqual(items.length, 2);
    let version = 1;
    for (const diagnostic of items.reverse()) {
      const actions: any[] = await client.request("textDocument/codeAction", { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
      const titles = actions.map((a) => a.title);
      assert.ok(titles.includes("Disable `item-in-hot-path` for this file"), titles.join());
      const docs = actions.find((a) => a.title === "Show documentation for `item-in-hot-path`");
      assert.match(docs.command.arguments[0], /syn101-item-in-hot-path/);
      const disable = actions.find((a) => a.title === "Disable `item-in-hot-path` for this line");
      const [edit] = disable.edit.changes[uri];
      const lines = text.split("\n");
      const line = lines[edit.range.start.line];
      lines[edit.range.start.line] = line.slice(0, edit.range.start.character) + edit.newText + line.slice(edit.range.end.character);
      text = lines.join("\n");
      version++;
      await client.change(uri, version, [{ range: edit.range, text: edit.newText }]);
    }
    const lines = text.split("\n");
    assert.strictEqual(lines[7], "        x = loss.item()  # synclint: ignore[tensor-formatting, item-in-hot-path]");
    assert.strictEqual(lines[8], "        y = loss.item()  # synclint: ignore[item-in-hot-path]");
    const after = await client.diagnostics(uri, version);
    assert.ok(!after.diagnostics.some((d) => d.code === "item-in-hot-path"), JSON.stringify(after.diagnostics));
    assert.deepStrictEqual(simplify(after.diagnostics), expected(text, "actions.py", "utf-16"));
  });

  it("documents not edited lately give their trees up and still edit, hover and offer actions like fresh ones", async () => {
    client = new TestClient();
    await client.initialize({});
    // More open documents than keep their trees (8): the first ones are re-parsed when next used.
    const names = Array.from({ length: 12 }, (_, n) => `warm-${n}.py`);
    for (const name of names) {
      await client.open(uriOf(name), TRAIN);
      await client.diagnostics(uriOf(name), 1);
    }
    const uri = uriOf(names[0]);
    const hover = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 7, character: 21 } });
    assert.match(hover.contents.value, /Copy and wait/);
    // An incremental edit of a document whose trees were freed: the same diagnostics as a fresh lint.
    const text = TRAIN.replace("        print(loss.item())", "        print(loss.item())\n        if loss:\n            pass");
    await client.change(uri, 2, [{ range: { start: { line: 7, character: 26 }, end: { line: 7, character: 26 } }, text: "\n        if loss:\n            pass" }]);
    const published = await client.diagnostics(uri, 2);
    assert.deepStrictEqual(simplify(published.diagnostics), expected(text, names[0], "utf-16"));
    assert.ok(published.diagnostics.some((d) => d.code === "implicit-host-read"), "the edit's new finding");
    const item = published.diagnostics.find((d) => d.code === "item-in-hot-path");
    const actions: any[] = await client.request("textDocument/codeAction", { textDocument: { uri: uriOf(names[1]) }, range: item.range, context: { diagnostics: [item] } });
    assert.ok(actions.some((a) => a.title === "Disable `item-in-hot-path` for this line"), actions.map((a) => a.title).join());
  });

  it("reports its own didChange → diagnostics time per published version only when asked (reportTimings)", async () => {
    for (const reportTimings of [true, false]) {
      client = new TestClient();
      await client.initialize({}, null, { reportTimings });
      const uri = uriOf(`timing-${reportTimings}.py`);
      await client.open(uri, TRAIN);
      await client.diagnostics(uri, 1);
      await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# a\n" }]);
      await client.change(uri, 3, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# b\n" }]);
      await client.diagnostics(uri, 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (!reportTimings) {
        assert.deepStrictEqual(client.timings, []);
        continue;
      }
      // Opening is not an edit; a burst of two changes may be published once, at its last version.
      assert.ok(client.timings.length >= 1 && client.timings.length <= 2, JSON.stringify(client.timings));
      assert.ok(client.timings.every((t) => t.uri === uri && t.version >= 2 && t.milliseconds > 0 && t.milliseconds < 10000), JSON.stringify(client.timings));
      assert.strictEqual(client.timings[client.timings.length - 1].version, 3);
      client.kill();
    }
  });

  it("answers pull diagnostics when the client supports them", async () => {
    client = new TestClient();
    const init = await client.initialize({ textDocument: { diagnostic: { dynamicRegistration: false } } });
    assert.strictEqual(init.capabilities.diagnosticProvider.interFileDependencies, false);
    const uri = uriOf("pull.py");
    await client.open(uri, TRAIN);
    await client.change(uri, 2, [{ range: { start: { line: 11, character: 0 }, end: { line: 11, character: 0 } }, text: "\nwhile True:\n    print(torch.ones(1).cuda().item())\n" }]);
    const report = await client.request("textDocument/diagnostic", { textDocument: { uri } });
    assert.strictEqual(report.kind, "full");
    const text = TRAIN + "\nwhile True:\n    print(torch.ones(1).cuda().item())\n";
    assert.deepStrictEqual(simplify(report.items), expected(text, "pull.py", "utf-16"));
    assert.ok(report.items.length >= 2);
    assert.strictEqual(client.published.length, 0, "no push diagnostics when the client pulls");
  });

  it("publishes a region with a syntax error at once, then the fresh parse's diagnostics once typing stops", async () => {
    client = new TestClient();
    await client.initialize({}, null, { reportTimings: true, settleDelayMs: 100 });
    const uri = uriOf("settle.py");
    await client.open(uri, TRAIN);
    await client.settledDiagnostics(uri, 1);
    // `loss.backward(` leaves a parenthesis open inside `train`: only the statements around it are parsed again.
    const at = TRAIN.indexOf("loss.backward()") + "loss.backward(".length;
    const line = TRAIN.slice(0, at).split("\n").length - 1;
    const character = at - TRAIN.lastIndexOf("\n", at - 1) - 1;
    await client.change(uri, 2, [{ range: { start: { line, character }, end: { line, character: character + 1 } }, text: "" }]);
    const first = await client.diagnostics(uri, 2);
    assert.ok(first.diagnostics.some((d: { code?: unknown }) => d.code === "parse-error"), JSON.stringify(first.diagnostics));
    assert.ok(!client.settled.some((s) => s.version === 2), "a provisional result is not settled");
    await client.settledDiagnostics(uri, 2);
    const settled = client.published.filter((p) => p.uri === uri && p.version === 2);
    assert.strictEqual(settled.length, 2, "published once from the region, once from the fresh parse");
    const text = TRAIN.slice(0, at) + TRAIN.slice(at + 1);
    assert.deepStrictEqual(simplify(settled[1].diagnostics), expected(text, "settle.py", "utf-16"));
    const timing = client.timings.find((t) => t.uri === uri && t.version === 2) as { syntaxErrors?: boolean } | undefined;
    assert.strictEqual(timing?.syntaxErrors, true);
  });

  it("asks a pulling client to pull again once a region with a syntax error has been parsed afresh", async () => {
    client = new TestClient();
    await client.initialize({ textDocument: { diagnostic: { dynamicRegistration: false } }, workspace: { diagnostics: { refreshSupport: true } } }, null, { settleDelayMs: 50 });
    const uri = uriOf("pull-settle.py");
    await client.open(uri, TRAIN);
    await client.request("textDocument/diagnostic", { textDocument: { uri } });
    const at = TRAIN.indexOf("optimizer.step()") + "optimizer.step(".length;
    const line = TRAIN.slice(0, at).split("\n").length - 1;
    const character = at - TRAIN.lastIndexOf("\n", at - 1) - 1;
    await client.change(uri, 2, [{ range: { start: { line, character }, end: { line, character: character + 1 } }, text: "" }]);
    const before = client.refreshes;
    const provisional = await client.request("textDocument/diagnostic", { textDocument: { uri } });
    assert.ok(provisional.items.some((d: { code?: unknown }) => d.code === "parse-error"));
    await client.until(() => client!.refreshes > before, "a diagnostic refresh request");
    const report = await client.request("textDocument/diagnostic", { textDocument: { uri } });
    const text = TRAIN.slice(0, at) + TRAIN.slice(at + 1);
    assert.deepStrictEqual(simplify(report.items), expected(text, "pull-settle.py", "utf-16"));
  });

  it("applies client settings (severity override, enable) via workspace/configuration", async () => {
    client = new TestClient();
    client.settings = { severity: { "item-in-hot-path": "error" } };
    await client.initialize({ workspace: { configuration: true } });
    const uri = uriOf("settings.py");
    await client.open(uri, TRAIN);
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    const deadline = Date.now() + 10000;
    let severity: number | undefined;
    while (Date.now() < deadline) {
      severity = client.published.filter((p) => p.uri === uri).at(-1)?.diagnostics.find((d) => d.code === "item-in-hot-path")?.severity;
      if (severity === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.strictEqual(severity, 1);
    client.settings = { enable: false };
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    // An earlier configuration request may still be answered in flight: wait for the settled state.
    await client.until(() => client.latest(uri)?.diagnostics.length === 0, "diagnostics cleared by enable: false");
  });

  it("shuts down and exits with code 0", async () => {
    client = new TestClient();
    await client.initialize({});
    assert.strictEqual(await client.shutdown(), 0);
  });
});
