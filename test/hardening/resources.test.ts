/** Resource bounds of the server: memory over 500 open/close cycles, and a clean exit with nothing left running. */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { TestClient } from "../server/lsp-client";

function status(pid: number): { rssKb: number; peakKb: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
  return { rssKb: field("VmRSS"), peakKb: field("VmHWM") };
}

const DOCUMENT = (i: number) =>
  [
    "import torch",
    "",
    `def train_${i}(model, loader, optimizer):`,
    "    for step, (x, y) in enumerate(loader):",
    "        loss = model(x).mean()",
    "        loss.backward()",
    "        optimizer.step()",
    `        print(loss.item(), "😀 ${i}")`,
    "        if loss:",
    "            torch.cuda.synchronize()",
    "",
    "# padding ".repeat(200),
    "",
  ].join("\n");

export const memoryReport: { beforeMb?: number; afterMb?: number; peakMb?: number } = {};

describe("hardening: server resource bounds", function () {
  this.timeout(60000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-resources-"));
  const linux = fs.existsSync("/proc/self/status");

  it("open and close 500 documents: RSS stays bounded (growth < 100 MB) and every close clears diagnostics", async function () {
    if (!linux) this.skip();
    const client = new TestClient();
    try {
      await client.initialize({});
      const pid = client.child.pid!;
      // Warm up (parser, JIT) before the baseline.
      for (let i = 0; i < 20; i++) {
        const uri = pathToFileURL(path.join(dir, `warm${i}.py`)).href;
        await client.open(uri, DOCUMENT(i));
        await client.diagnostics(uri, 1);
        await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
      }
      const before = status(pid);
      for (let i = 0; i < 500; i++) {
        const uri = pathToFileURL(path.join(dir, `doc${i}.py`)).href;
        await client.open(uri, DOCUMENT(i));
        const published = await client.diagnostics(uri, 1);
        assert.ok(published.diagnostics.length >= 2);
        // An edit too, so the incremental tree is exercised before the close.
        await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# edited\n" }]);
        await client.diagnostics(uri, 2);
        await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
      }
      // The close of the last document clears its diagnostics.
      const lastUri = pathToFileURL(path.join(dir, "doc499.py")).href;
      const since = client.published.length;
      const deadline = Date.now() + 5000;
      while (!client.published.slice(since - 1).some((p) => p.uri === lastUri && p.diagnostics.length === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.ok(client.published.some((p) => p.uri === lastUri && p.diagnostics.length === 0), "didClose clears diagnostics");
      const after = status(pid);
      memoryReport.beforeMb = before.rssKb / 1024;
      memoryReport.afterMb = after.rssKb / 1024;
      memoryReport.peakMb = after.peakKb / 1024;
      console.log(`      server RSS before ${memoryReport.beforeMb.toFixed(1)} MB, after 500 open/edit/close ${memoryReport.afterMb.toFixed(1)} MB, peak (VmHWM) ${memoryReport.peakMb.toFixed(1)} MB`);
      assert.ok(after.rssKb - before.rssKb < 100 * 1024, `RSS grew by ${((after.rssKb - before.rssKb) / 1024).toFixed(1)} MB`);
      const started = Date.now();
      assert.strictEqual(await client.shutdown(), 0);
      assert.ok(Date.now() - started < 5000);
    } finally {
      client.kill();
    }
  });

  it("shutdown + exit ends the process promptly with code 0 (no timer or handle keeps it alive)", async () => {
    const client = new TestClient();
    try {
      await client.initialize({});
      const uri = pathToFileURL(path.join(dir, "exit.py")).href;
      await client.open(uri, DOCUMENT(1));
      await client.diagnostics(uri, 1);
      const started = Date.now();
      const code = await Promise.race([client.shutdown(), new Promise<string>((r) => setTimeout(() => r("still running after 5 s"), 5000))]);
      assert.strictEqual(code, 0);
      assert.ok(Date.now() - started < 5000);
    } finally {
      client.kill();
    }
  });

  it("exit without shutdown ends the process with code 1, and a closed stdin ends it too", async () => {
    const first = new TestClient();
    try {
      await first.initialize({});
      await first.connection.sendNotification("exit");
      const code = await Promise.race([first.exitCode, new Promise<string>((r) => setTimeout(() => r("still running after 5 s"), 5000))]);
      assert.strictEqual(code, 1);
    } finally {
      first.kill();
    }
    const second = new TestClient();
    try {
      await second.initialize({});
      second.child.stdin!.end();
      const code = await Promise.race([second.exitCode, new Promise<string>((r) => setTimeout(() => r("still running after 5 s"), 5000))]);
      assert.notStrictEqual(code, "still running after 5 s", "the server exits when its client goes away");
    } finally {
      second.kill();
    }
  });
});
