import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { TestClient } from "./lsp-client";

const TRAIN = [
  "import torch",
  "",
  "def train(model, loader, optimizer):",
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

const codes = (diagnostics: any[]) => diagnostics.map((d) => `${d.code}@${d.range.start.line}`);

describe("language server: robustness and configuration", function () {
  this.timeout(60000);
  let client: TestClient;
  let dir: string;
  const uriOf = (name: string) => pathToFileURL(path.join(dir, name)).href;

  before(async () => {
    await initParser();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-robust-"));
  });
  afterEach(() => {
    if (client) assert.ok(!client.logs.join("").includes("unhandled rejection"), client.logs.join(""));
    client?.kill();
  });

  it("gives binary junk (NUL bytes) one informational diagnostic and keeps serving", async () => {
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const junk = uriOf("junk.py");
    await client.open(junk, "import torch\n\u0000\u0001\u0002" + "\uFFFD".repeat(1000) + "\nprint(x.item())\n");
    const published = await client.diagnostics(junk, 1);
    assert.strictEqual(published.diagnostics.length, 1);
    assert.strictEqual(published.diagnostics[0].severity, 3);
    assert.strictEqual(published.diagnostics[0].code, "file-skipped");
    assert.match(published.diagnostics[0].message, /NUL bytes/);
    assert.strictEqual(await client.request("textDocument/hover", { textDocument: { uri: junk }, position: { line: 2, character: 9 } }), null);
    // Removing the junk makes it an ordinary document again.
    await client.change(junk, 2, [{ text: TRAIN }]);
    const fixed = await client.diagnostics(junk, 2);
    assert.ok(codes(fixed.diagnostics).includes("item-in-hot-path@7"), codes(fixed.diagnostics).join());
  });

  it("skips a document over the 20 MB limit with one diagnostic, without stalling other documents", async () => {
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const huge = uriOf("huge.py");
    const line = "x = 1  # " + "a".repeat(90) + "\n";
    const text = line.repeat(Math.ceil((20 * 1024 * 1024 + 1) / line.length));
    const started = Date.now();
    await client.open(huge, text);
    const published = await client.diagnostics(huge, 1, 0, 30000);
    assert.strictEqual(published.diagnostics.length, 1);
    assert.match(published.diagnostics[0].message, /over the 20 MB limit/);
    // A keystroke in the huge document costs no parse either.
    await client.change(huge, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "y" }]);
    await client.diagnostics(huge, 2, 0, 30000);
    const small = uriOf("small.py");
    await client.open(small, TRAIN);
    const answered = await client.diagnostics(small, 1);
    assert.ok(codes(answered.diagnostics).includes("item-in-hot-path@7"));
    assert.ok(Date.now() - started < 20000, `took ${Date.now() - started} ms`);
  });

  it("applies the configuration's exclude to open documents", async () => {
    fs.writeFileSync(path.join(dir, "synclint.toml"), 'exclude = ["generated"]\n');
    fs.mkdirSync(path.join(dir, "generated"));
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const excluded = uriOf("generated/model.py");
    const included = uriOf("model.py");
    await client.open(excluded, TRAIN);
    await client.open(included, TRAIN);
    assert.deepStrictEqual((await client.diagnostics(excluded, 1)).diagnostics, []);
    assert.ok((await client.diagnostics(included, 1)).diagnostics.length > 0);
  });

  it("re-lints open documents when pyproject.toml changes (didChangeWatchedFiles)", async () => {
    client = new TestClient();
    await client.initialize({ workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } }, pathToFileURL(dir).href);
    const uri = uriOf("train.py");
    const text = TRAIN.replace("        optimizer.step()\n", "        optimizer.step()\n        torch.cuda.synchronize()\n");
    await client.open(uri, text);
    assert.deepStrictEqual(codes((await client.diagnostics(uri, 1)).diagnostics), ["explicit-synchronize@7", "item-in-hot-path@8"]);
    const pyproject = path.join(dir, "pyproject.toml");
    fs.writeFileSync(pyproject, '[tool.synclint]\nignore = ["item-in-hot-path"]\n');
    const before = client.published.length;
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(pyproject).href, type: 1 }] });
    const after = await client.diagnostics(uri, undefined, before);
    assert.deepStrictEqual(codes(after.diagnostics), ["explicit-synchronize@7"]);
  });

  it("keeps the last good configuration when pyproject.toml turns bad, says so, and recovers", async () => {
    const pyproject = path.join(dir, "pyproject.toml");
    const pyprojectUri = pathToFileURL(pyproject).href;
    fs.writeFileSync(pyproject, '[tool.synclint]\nignore = ["item-in-hot-path"]\n');
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const uri = uriOf("train.py");
    await client.open(uri, TRAIN);
    const good = await client.diagnostics(uri, 1);
    assert.ok(!codes(good.diagnostics).some((c) => c.startsWith("item-in-hot-path")));
    fs.writeFileSync(pyproject, '[tool.synclint]\nignore = ["item-in-hot-path"]\nselect = [unterminated\n');
    let before = client.published.length;
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pyprojectUri, type: 2 }] });
    const message = await client.until(() => client.messages.find((m) => m.type === 1), "a showMessage error");
    assert.match(message.message, /pyproject\.toml/);
    assert.match(message.message, /invalid TOML at line 3/);
    assert.match(message.message, /last good configuration/);
    const onConfig = await client.diagnostics(pyprojectUri, undefined, before);
    assert.strictEqual(onConfig.diagnostics.length, 1);
    assert.strictEqual(onConfig.diagnostics[0].range.start.line, 2);
    const during = await client.diagnostics(uri, undefined, before);
    assert.deepStrictEqual(codes(during.diagnostics), codes(good.diagnostics), "still the last good configuration");
    // The server keeps serving.
    await client.change(uri, 2, [{ range: { start: { line: 8, character: 0 }, end: { line: 8, character: 0 } }, text: "        torch.cuda.synchronize()\n" }]);
    assert.ok(codes((await client.diagnostics(uri, 2)).diagnostics).includes("explicit-synchronize@8"));
    // Fixed: the configuration diagnostic goes away and the file's configuration applies again.
    fs.writeFileSync(pyproject, "[tool.synclint]\n");
    before = client.published.length;
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pyprojectUri, type: 2 }] });
    await client.until(() => client.published.slice(before).some((p) => p.uri === pyprojectUri && p.diagnostics.length === 0), "the config diagnostic cleared");
    const recovered = await client.diagnostics(uri, 2, before);
    assert.ok(codes(recovered.diagnostics).includes("item-in-hot-path@7"));
    assert.strictEqual(client.messages.filter((m) => m.type === 1).length, 1, "the error was shown once");
  });

  it("shows a bad configuration with the defaults when there never was a good one", async () => {
    fs.writeFileSync(path.join(dir, "synclint.toml"), 'preset = "everything"\n');
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const uri = uriOf("train.py");
    await client.open(uri, TRAIN);
    const published = await client.diagnostics(uri, 1);
    const message = await client.until(() => client.messages.find((m) => m.type === 1), "a showMessage error");
    assert.match(message.message, /synclint\.toml: \[tool\.synclint\] "preset"/);
    assert.match(message.message, /default configuration/);
    assert.ok(codes(published.diagnostics).includes("item-in-hot-path@7"));
  });

  for (const reportCold of [false, true]) {
    it(`synclint.reportCold ${reportCold ? "on reports cold syncs (strict preset)" : "off reports only hot ones"}`, async () => {
      client = new TestClient();
      client.settings = { reportCold };
      await client.initialize({ workspace: { configuration: true } }, pathToFileURL(dir).href);
      const uri = uriOf("cold.py");
      await client.open(uri, TRAIN);
      const want = lintSource(TRAIN, { filePath: path.join(dir, "cold.py"), config: resolveConfig({}, dir, reportCold ? { preset: "strict" } : {}) });
      const wantCodes = want.findings.map((f) => `${f.rule}@${f.line - 1}`);
      assert.strictEqual(wantCodes.includes("item-in-hot-path@10"), reportCold, `fixture: the cold .item() is strict-only (${wantCodes.join()})`);
      const published = await client.until(() => {
        const latest = client.latest(uri);
        return latest && codes(latest.diagnostics).join() === wantCodes.join() ? latest : undefined;
      }, `diagnostics ${wantCodes.join()}`);
      assert.strictEqual(codes(published.diagnostics).includes("item-in-hot-path@10"), reportCold);
    });
  }

  it("publishes a burst of queued changes in version order, ending with the last one", async () => {
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const uri = uriOf("burst.py");
    await client.open(uri, TRAIN);
    await client.diagnostics(uri, 1);
    let text = TRAIN;
    const sends: Array<Promise<void>> = [];
    for (let version = 2; version <= 42; version++) {
      const insert = version % 2 === 0 ? "        torch.cuda.synchronize()\n" : "";
      // Alternately add a line before the print and remove it again.
      const range = version % 2 === 0 ? { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } } : { start: { line: 7, character: 0 }, end: { line: 8, character: 0 } };
      const lines = text.split("\n");
      text = version % 2 === 0 ? [...lines.slice(0, 7), insert.trimEnd(), ...lines.slice(7)].join("\n") : [...lines.slice(0, 7), ...lines.slice(8)].join("\n");
      sends.push(client.change(uri, version, [{ range, text: insert }]));
    }
    await Promise.all(sends);
    const last = await client.diagnostics(uri, 42);
    const want = lintSource(text, { filePath: path.join(dir, "burst.py"), config: resolveConfig({}, dir) });
    assert.deepStrictEqual(codes(last.diagnostics), want.findings.map((f) => `${f.rule}@${f.line - 1}`));
    assert.ok(codes(last.diagnostics).includes("explicit-synchronize@7"));
    const versions = client.published.filter((p) => p.uri === uri).map((p) => p.version!);
    assert.deepStrictEqual(versions, [...versions].sort((a, b) => a - b), "never an older version after a newer one");
    assert.strictEqual(versions.at(-1), 42);
  });

  it("offers no fix actions while the engine's findings carry no fixes", async () => {
    client = new TestClient();
    await client.initialize({}, pathToFileURL(dir).href);
    const uri = uriOf("nofix.py");
    // Arithmetic on the value logged: the batched-logging suggestion declines, so the finding carries no fix.
    await client.open(uri, TRAIN.replace("print(loss.item())", "print(2 * loss.item())"));
    const published = await client.diagnostics(uri, 1);
    const fixAll = await client.request("textDocument/codeAction", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 11, character: 0 } }, context: { diagnostics: published.diagnostics, only: ["source.fixAll"] } });
    assert.deepStrictEqual(fixAll, []);
    const item = published.diagnostics.find((d) => d.code === "item-in-hot-path");
    const actions: any[] = await client.request("textDocument/codeAction", { textDocument: { uri }, range: item.range, context: { diagnostics: [item] } });
    assert.deepStrictEqual(actions.map((a) => a.title), ["Disable `item-in-hot-path` for this line", "Disable `item-in-hot-path` for this file", "Show documentation for `item-in-hot-path`"]);
  });
});
