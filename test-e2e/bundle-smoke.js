#!/usr/bin/env node
/**
 * Proves dist/server.js is self-contained: copies dist/ to an empty temporary folder (no node_modules anywhere
 * above it), starts the bundled server there over --stdio and checks diagnostics, a hover and the code actions
 * for test-e2e/fixtures/workspace/train.py. Run `node scripts/bundle-extension.js` first.
 */
const assert = require("assert");
const cp = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { pathToFileURL } = require("url");
const rpc = require("vscode-jsonrpc/node");

async function main() {
  const root = path.resolve(__dirname, "..");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-bundle-"));
  for (const file of fs.readdirSync(path.join(root, "dist"))) fs.copyFileSync(path.join(root, "dist", file), path.join(tmp, file));
  const workspace = path.join(root, "test-e2e/fixtures/workspace");
  const file = path.join(workspace, "train.py");
  const uri = pathToFileURL(file).href;
  const child = cp.spawn(process.execPath, [path.join(tmp, "server.js"), "--stdio"], { cwd: tmp, stdio: ["pipe", "pipe", "inherit"] });
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const diagnostics = new Promise((resolve) => connection.onNotification("textDocument/publishDiagnostics", (p) => p.uri === uri && resolve(p.diagnostics)));
  connection.onRequest("workspace/configuration", (p) => p.items.map(() => null));
  connection.onRequest("client/registerCapability", () => null);
  connection.onNotification("window/logMessage", (p) => console.log(`  server: ${p.message}`));
  connection.listen();
  try {
    const init = await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(workspace).href, capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "workspace" }] });
    console.log(`  server ${init.serverInfo?.name} ${init.serverInfo?.version}; commands: ${JSON.stringify(init.capabilities.executeCommandProvider?.commands ?? [])}; code action kinds: ${JSON.stringify(init.capabilities.codeActionProvider?.codeActionKinds ?? [])}`);
    connection.sendNotification("initialized", {});
    connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text: fs.readFileSync(file, "utf8") } });
    const items = await diagnostics;
    const lines = items.map((d) => `${d.range.start.line + 1}:${d.code}`).sort();
    console.log(`  diagnostics: ${lines.join(", ")}`);
    assert.deepStrictEqual(lines, ["15:item-in-hot-path", "6:dataloader-pin-memory"]);
    const item = items.find((d) => d.code === "item-in-hot-path");
    const hover = await connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: { line: 14, character: item.range.start.character + 6 } });
    const text = hover.contents.value;
    for (const heading of ["Why this site is considered hot", "Why it costs", "What happens", "Use instead"]) assert.ok(text.includes(heading), `hover lacks "${heading}"`);
    const actions = await connection.sendRequest("textDocument/codeAction", { textDocument: { uri }, range: item.range, context: { diagnostics: [item] } });
    console.log(`  code actions: ${actions.map((a) => a.title).join(" | ")}`);
    assert.ok(actions.some((a) => /Disable `item-in-hot-path` for this line/.test(a.title)));
    await connection.sendRequest("shutdown");
    connection.sendNotification("exit");
    console.log("bundle smoke test: ok");
  } finally {
    setTimeout(() => child.kill(), 500).unref();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(`bundle smoke test failed: ${error && error.stack ? error.stack : error}`);
  process.exit(1);
});
