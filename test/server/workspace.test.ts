import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { CancellationTokenSource } from "vscode-jsonrpc";
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
].join("\n");
const CLEAN = "import torch\n\ndef f(x):\n    return x + 1\n";

/** A workspace: hot code, clean code, a binary .py, a .gitignored file, a virtualenv and an excluded folder. */
function makeWorkspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-ws-"));
  const write = (name: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  };
  write("train.py", TRAIN);
  write("pkg/clean.py", CLEAN);
  write("pkg/more.py", TRAIN.replace("print(loss.item())", "torch.cuda.synchronize()"));
  write("junk.py", Buffer.from([0x69, 0x6d, 0x70, 0x00, 0x01, 0x02, 0x0a]));
  write("ignored_by_git.py", TRAIN);
  write(".gitignore", "ignored_by_git.py\n");
  write(".venv/lib/site.py", TRAIN);
  write("generated/gen.py", TRAIN);
  write("synclint.toml", 'exclude = ["generated"]\n');
  return root;
}

/** The diagnostics a fresh lint of a file on disk gives, as code + message + line. */
function freshLint(root: string, name: string): Array<{ code: string; line: number }> {
  const text = fs.readFileSync(path.join(root, name), "utf8");
  const result = lintSource(text, { filePath: path.join(root, name), config: resolveConfig({ exclude: ["generated"] }, root) });
  return result.findings.map((f) => ({ code: f.rule, line: f.line - 1 }));
}

const simple = (diagnostics: any[]) => diagnostics.map((d) => ({ code: d.code, line: d.range.start.line }));

describe("language server: workspace", function () {
  this.timeout(60000);
  let client: TestClient;

  before(async () => {
    await initParser();
  });
  afterEach(() => {
    if (client) assert.ok(!client.logs.join("").includes("unhandled rejection"), client.logs.join(""));
    client?.kill();
  });

  it("declares synclint.lintWorkspace and lints closed files with work-done progress it creates", async () => {
    const root = makeWorkspace();
    const uri = (name: string) => pathToFileURL(path.join(root, name)).href;
    client = new TestClient();
    const init = await client.initialize({ window: { workDoneProgress: true } }, pathToFileURL(root).href);
    assert.ok(init.capabilities.executeCommandProvider.commands.includes("synclint.lintWorkspace"));
    const summary = await client.request("workspace/executeCommand", { command: "synclint.lintWorkspace", arguments: [] });
    // train.py, pkg/clean.py, pkg/more.py, junk.py and generated/gen.py are collected; the .venv and the
    // .gitignored file are not; generated/ is excluded by synclint.toml.
    assert.deepStrictEqual(summary, { files: 5, diagnostics: freshLint(root, "train.py").length + freshLint(root, "pkg/more.py").length + 1, skipped: 1, cancelled: false });
    await client.until(() => client.latest(uri("pkg/more.py")), "diagnostics for pkg/more.py");
    assert.deepStrictEqual(simple(client.latest(uri("train.py"))!.diagnostics), freshLint(root, "train.py"));
    assert.ok(freshLint(root, "train.py").some((d) => d.code === "item-in-hot-path"));
    assert.deepStrictEqual(simple(client.latest(uri("pkg/more.py"))!.diagnostics), freshLint(root, "pkg/more.py"));
    assert.ok(freshLint(root, "pkg/more.py").some((d) => d.code === "explicit-synchronize"));
    assert.deepStrictEqual(client.latest(uri("pkg/clean.py"))!.diagnostics, []);
    const junk = client.latest(uri("junk.py"))!.diagnostics;
    assert.strictEqual(junk.length, 1);
    assert.strictEqual(junk[0].severity, 3);
    assert.strictEqual(junk[0].code, "file-skipped");
    assert.match(junk[0].message, /binary content \(NUL bytes\)/);
    for (const name of ["ignored_by_git.py", ".venv/lib/site.py", "generated/gen.py"]) assert.strictEqual(client.latest(uri(name)), undefined, name);
    // Progress: created by the server, then begin … report … end on that token.
    assert.strictEqual(client.progressCreated.length, 1);
    const token = client.progressCreated[0];
    const kinds = client.progress.filter((p) => p.token === token).map((p) => p.value.kind);
    assert.strictEqual(kinds[0], "begin");
    assert.ok(kinds.includes("report"), kinds.join());
    assert.strictEqual(kinds.at(-1), "end");
  });

  it("reports progress on the client's workDoneToken, keeps open documents' live diagnostics, and lints a file from disk when it closes", async () => {
    const root = makeWorkspace();
    const trainUri = pathToFileURL(path.join(root, "train.py")).href;
    client = new TestClient();
    await client.initialize({}, pathToFileURL(root).href);
    // The editor holds unsaved text without the .item().
    await client.open(trainUri, CLEAN);
    await client.diagnostics(trainUri, 1);
    const summary = await client.request("workspace/executeCommand", { command: "synclint.lintWorkspace", arguments: [], workDoneToken: "tok-1" });
    assert.strictEqual(summary.cancelled, false);
    assert.deepStrictEqual(client.progressCreated, [], "no create request when the client gave a token");
    const kinds = client.progress.filter((p) => p.token === "tok-1").map((p) => p.value.kind);
    assert.deepStrictEqual([kinds[0], kinds.at(-1)], ["begin", "end"]);
    // The open document's diagnostics are those of its unsaved text, not of the file on disk.
    assert.deepStrictEqual(client.latest(trainUri)!.diagnostics, []);
    const before = client.published.length;
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri: trainUri } });
    const closed = await client.diagnostics(trainUri, undefined, before);
    assert.deepStrictEqual(simple(closed.diagnostics), freshLint(root, "train.py"));
    assert.ok(closed.diagnostics.length > 0);
  });

  it("still lints the workspace when the client refuses to create progress", async () => {
    const root = makeWorkspace();
    client = new TestClient();
    client.refuseProgress = true;
    await client.initialize({ window: { workDoneProgress: true } }, pathToFileURL(root).href);
    const summary = await client.request("workspace/executeCommand", { command: "synclint.lintWorkspace", arguments: [] });
    assert.strictEqual(summary.files, 5);
    assert.ok(client.latest(pathToFileURL(path.join(root, "train.py")).href));
  });

  it("stops a workspace lint when the request is cancelled, and ends its progress", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-ws-cancel-"));
    for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(root, `m${i}.py`), TRAIN);
    client = new TestClient();
    await client.initialize({}, pathToFileURL(root).href);
    const source = new CancellationTokenSource();
    const reply = client.connection.sendRequest("workspace/executeCommand", { command: "synclint.lintWorkspace", arguments: [], workDoneToken: "cancel-me" }, source.token);
    await client.until(() => client.published.length > 0, "the first file's diagnostics");
    source.cancel();
    const outcome = await reply.then((summary: any) => summary, (error: any) => ({ error: error.code }));
    if ("error" in outcome) assert.strictEqual(outcome.error, -32800);
    else {
      assert.strictEqual(outcome.cancelled, true);
      assert.ok(outcome.files < 400, `${outcome.files}`);
    }
    await client.until(() => client.progress.some((p) => p.token === "cancel-me" && p.value.kind === "end"), "progress end");
    assert.ok(client.published.length < 400, `${client.published.length} files published after the cancel`);
  });

  it("answers workspace/diagnostic with every file, then `unchanged` by result id until a file changes", async () => {
    const root = makeWorkspace();
    const uri = (name: string) => pathToFileURL(path.join(root, name)).href;
    client = new TestClient();
    const init = await client.initialize({ textDocument: { diagnostic: {} } }, pathToFileURL(root).href);
    assert.strictEqual(init.capabilities.diagnosticProvider.workspaceDiagnostics, true);
    const first = await client.request("workspace/diagnostic", { previousResultIds: [] });
    const byUri = new Map<string, any>(first.items.map((item: any) => [item.uri, item]));
    assert.deepStrictEqual([...byUri.keys()].sort(), ["junk.py", "pkg/clean.py", "pkg/more.py", "train.py"].map(uri).sort());
    assert.deepStrictEqual(simple(byUri.get(uri("train.py")).items), freshLint(root, "train.py"));
    assert.strictEqual(byUri.get(uri("train.py")).kind, "full");
    assert.strictEqual(byUri.get(uri("train.py")).version, null);
    const second = await client.request("workspace/diagnostic", { previousResultIds: first.items.map((i: any) => ({ uri: i.uri, value: i.resultId })) });
    assert.ok(second.items.every((i: any) => i.kind === "unchanged"), JSON.stringify(second.items));
    fs.writeFileSync(path.join(root, "pkg/clean.py"), CLEAN + "\nfor x in loader:\n    print(x.cuda().item())\n");
    const future = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(root, "pkg/clean.py"), future, future);
    const third = await client.request("workspace/diagnostic", { previousResultIds: first.items.map((i: any) => ({ uri: i.uri, value: i.resultId })) });
    const changed = third.items.filter((i: any) => i.kind === "full");
    assert.deepStrictEqual(changed.map((i: any) => i.uri), [uri("pkg/clean.py")]);
    assert.deepStrictEqual(simple(changed[0].items), freshLint(root, "pkg/clean.py"));
    assert.ok(changed[0].items.length > 0);
    assert.strictEqual(client.published.length, 0, "a pulling client gets no pushed diagnostics");
  });
});
