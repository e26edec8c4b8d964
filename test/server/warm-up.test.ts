import * as assert from "assert";
import { initParser, lintSource, rules } from "synclint-rules";
import { WARM_UP_SOURCE, warmUp } from "synclint-server/out/warm-up";
import { TestClient } from "./lsp-client";

describe("language server: warm-up", function () {
  this.timeout(60000);
  before(async () => {
    await initParser();
  });

  it("runs every rule's reporting code: each rule has a finding in the warm-up file", () => {
    const reported = new Set(lintSource(WARM_UP_SOURCE).findings.map((finding) => finding.rule));
    assert.deepStrictEqual([...reported].sort(), rules.map((rule) => rule.meta.name).sort());
  });

  it("types into every line and deletes it again, and stops when its budget is spent", () => {
    const lines = WARM_UP_SOURCE.split("\n").length;
    assert.strictEqual(warmUp("utf-16", 2, Infinity), 4 * lines);
    assert.strictEqual(warmUp("utf-16", 2, -1), 0);
  });

  it("leaves nothing behind: a server that warmed up diagnoses and re-diagnoses like one that did not", async () => {
    const text = ["import torch", "", "def train(model, loader):", "    for x in loader:", "        loss = model(x.cuda())", "        print(loss.item())", ""].join("\n");
    const uri = "file:///tmp/synclint-warm-up-test/train.py";
    const runs = [];
    for (const warm of [true, false]) {
      const client = new TestClient();
      try {
        await client.initialize({}, null, { warmUp: warm });
        await client.open(uri, text);
        const opened = await client.diagnostics(uri, 1);
        // An edit that removes the finding: `loss.item()` becomes `loss.items()`.
        await client.change(uri, 2, [{ range: { start: { line: 5, character: 24 }, end: { line: 5, character: 24 } }, text: "s" }]);
        const edited = await client.diagnostics(uri, 2);
        runs.push({ opened: opened.diagnostics, edited: edited.diagnostics });
        assert.deepStrictEqual(client.logs.filter((log) => /synclint: /.test(log)), []);
      } finally {
        client.kill();
      }
    }
    assert.ok(runs[0].opened.some((d: any) => d.code === "item-in-hot-path"), JSON.stringify(runs[0].opened));
    assert.ok(!runs[0].edited.some((d: any) => d.code === "item-in-hot-path"), JSON.stringify(runs[0].edited));
    assert.deepStrictEqual(runs[0], runs[1]);
  });
});
