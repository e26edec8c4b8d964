#!/usr/bin/env node
// Latency of the built server: one-character didChange → publishDiagnostics on a generated 5,000-line file,
// 200 edits, measured at the client (includes JSON-RPC over stdio). Run `npx tsc -b` first.
// Usage: node server/bench/latency.js [lines] [edits]
const path = require("path");
const { spawn } = require("child_process");
const { StreamMessageReader, StreamMessageWriter, createMessageConnection } = require("vscode-jsonrpc/node");

const LINES = Number(process.argv[2] ?? 5000);
const EDITS = Number(process.argv[3] ?? 200);
const block = [
  "def train_{n}(model, loader, optimizer):",
  "    for step, (x, y) in enumerate(loader):",
  "        loss = model(x.cuda(non_blocking=True)).mean()",
  "        loss.backward()",
  "        optimizer.step()",
  "        if step % 100 == 0:",
  "            print(loss.item())",
  "        total = loss.detach()",
  "",
];
const lines = ["import torch", ""];
for (let n = 0; lines.length < LINES; n++) lines.push(...block.map((l) => l.replace("{n}", String(n))));
const text = lines.slice(0, LINES).join("\n") + "\n";

(async () => {
  const child = spawn(process.execPath, [path.join(__dirname, "..", "bin", "synclint-server.js"), "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification("textDocument/publishDiagnostics", (p) => waiting.get(p.version)?.(p));
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  await connection.sendNotification("initialized", {});
  const uri = "file:///tmp/synclint-bench.py";
  const published = (version) => new Promise((resolve) => waiting.set(version, resolve));
  let done = published(1);
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text } });
  const first = await done;
  const times = [];
  for (let i = 0; i < EDITS; i++) {
    const version = i + 2;
    const line = 2 + ((i * 37) % (LINES - 4));
    done = published(version);
    const start = process.hrtime.bigint();
    // Alternate inserting and deleting one character so the file stays the same size.
    const change = i % 2 === 0 ? { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: " " } : { range: { start: { line: 2 + (((i - 1) * 37) % (LINES - 4)), character: 0 }, end: { line: 2 + (((i - 1) * 37) % (LINES - 4)), character: 1 } }, text: "" };
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
    await done;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  console.log(`${LINES} lines, ${first.diagnostics.length} diagnostics, ${EDITS} one-character edits: median ${pick(0.5).toFixed(2)} ms, p99 ${pick(0.99).toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms`);
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
