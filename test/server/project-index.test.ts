/**
 * The server lints the workspace as one project, as `synclint <folder>` does: a function that another file
 * calls from a hot path is hot in an open document and in workspace diagnostics, and follows the caller's edits,
 * its closing, and changes on disk.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { initParser, lintProject, lintSource } from "synclint-rules";
import { collectPythonFiles } from "synclint-rules/out/cli/files";
import { TestClient } from "./lsp-client";

const ENGINE = [
  "import torch",
  "from util.misc import all_reduce_mean",
  "",
  "",
  "def train(model, loader, optimizer, device):",
  "    for batch in loader:",
  "        batch = batch.to(device, non_blocking=True)",
  "        loss = model(batch).mean()",
  "        loss.backward()",
  "        optimizer.step()",
  "        all_reduce_mean(loss)",
  "",
].join("\n");
const CALL_LINE = 10;
const MISC = ["import torch", "", "", "def all_reduce_mean(x):", "    return x.item()", ""].join("\n");

/** The project; `fillers` more files in `other/` make the index lint on its worker thread. */
function makeProject(fillers = 0): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-project-"));
  fs.mkdirSync(path.join(root, "util"));
  fs.mkdirSync(path.join(root, "other"));
  for (let i = 0; i < fillers; i++) fs.writeFileSync(path.join(root, "other", `clean_${i}.py`), "import torch\n\n\ndef f(x):\n    return x + 1\n");
  fs.writeFileSync(path.join(root, "engine.py"), ENGINE);
  fs.writeFileSync(path.join(root, "util", "__init__.py"), "");
  fs.writeFileSync(path.join(root, "util", "misc.py"), MISC);
  return root;
}

/** What the engine's `lintProject` (the CLI's) reports for `name`, as code + line + message. */
async function projectLint(root: string, name: string): Promise<Array<{ code: string; line: number; message: string }>> {
  const files = ["engine.py", "util/__init__.py", "util/misc.py"].map((f) => path.join(root, ...f.split("/")));
  const results = await lintProject(files, async (requests) =>
    new Map(requests.map(({ file, entries }) => [file, lintSource(fs.readFileSync(file, "utf8"), { filePath: file, hotEntries: entries, linkModules: true })])),
  );
  return results.get(path.join(root, ...name.split("/")))!.findings.map((f) => ({ code: f.rule, line: f.line - 1, message: f.message }));
}

const simple = (diagnostics: any[]) => diagnostics.map((d) => ({ code: d.code, line: d.range.start.line, message: d.message }));

describe("language server: the workspace as one project", function () {
  this.timeout(60000);
  let client: TestClient;

  before(() => initParser());
  afterEach(() => {
    if (client) assert.ok(!client.logs.join("").includes("unhandled rejection"), client.logs.join(""));
    client?.kill();
  });

  it("gives an open helper the findings another file's step loop gives it, following that file's edits and closing", async () => {
    const root = makeProject();
    const engineUri = pathToFileURL(path.join(root, "engine.py")).href;
    const miscUri = pathToFileURL(path.join(root, "util", "misc.py")).href;
    const expected = await projectLint(root, "util/misc.py");
    assert.strictEqual(expected.length, 1);
    assert.match(expected[0].message, /which `\.\.\/engine\.py` calls at line 11 in the step loop of `train\(\)`/);

    client = new TestClient();
    await client.initialize({}, pathToFileURL(root).href, { reportTimings: true, warmUp: false });
    await client.open(miscUri, MISC);
    const found = await client.until(() => client.latest(miscUri)?.diagnostics.length === 1 && client.latest(miscUri), "the cross-file finding in util/misc.py");
    assert.deepStrictEqual(simple(found.diagnostics), expected);
    const hover = await client.request("textDocument/hover", { textDocument: { uri: miscUri }, position: { line: 4, character: 14 } });
    assert.match(hover.contents.value, /engine\.py/);

    // The caller stops calling it (unsaved): once the edit settles, the helper has no hot path.
    await client.open(engineUri, ENGINE);
    await client.change(engineUri, 2, [{ range: { start: { line: CALL_LINE, character: 0 }, end: { line: CALL_LINE + 1, character: 0 } }, text: "" }]);
    await client.until(() => client.latest(miscUri)?.diagnostics.length === 0, "util/misc.py without the finding after the caller's edit");

    // Closed without saving: the file on disk, which still calls it, counts again.
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri: engineUri } });
    const back = await client.until(() => client.latest(miscUri)?.diagnostics.length === 1 && client.latest(miscUri), "the finding back after closing the caller");
    assert.deepStrictEqual(simple(back.diagnostics), expected);
  });

  it("settles an open trainer's branch on an option that the workspace's parser file defines (`if opt.eval_oracle_wh:`), and unsettles it when a caller sets the option", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-options-"));
    fs.mkdirSync(path.join(root, "trains"));
    const opts = ["import argparse", "def parse():", "    parser = argparse.ArgumentParser()", "    parser.add_argument('--eval_oracle_wh', action='store_true')", "    return parser.parse_args()", ""].join("\n");
    const main = ["from opts import parse", "from trains.trainer import train", "opt = parse()", "train(opt, None, [])", ""].join("\n");
    const trainer = [
      "import torch",
      "def train(opt, model, loader):",
      "    for batch in loader:",
      "        output = model(batch.cuda(non_blocking=True))",
      "        if opt.eval_oracle_wh:",
      "            print(output.cpu().numpy())",
      "        print(output.sum().item())",
      "        output.mean().backward()",
      "",
    ].join("\n");
    fs.writeFileSync(path.join(root, "opts.py"), opts);
    fs.writeFileSync(path.join(root, "main.py"), main);
    fs.writeFileSync(path.join(root, "trains", "__init__.py"), "");
    fs.writeFileSync(path.join(root, "trains", "trainer.py"), trainer);
    const trainerUri = pathToFileURL(path.join(root, "trains", "trainer.py")).href;
    const mainUri = pathToFileURL(path.join(root, "main.py")).href;

    client = new TestClient();
    await client.initialize({}, pathToFileURL(root).href, { reportTimings: true, warmUp: false });
    await client.open(trainerUri, trainer);
    const settled = await client.until(() => client.latest(trainerUri)?.diagnostics.length === 1 && client.latest(trainerUri), "only the unconditional sync, once the index knows the option");
    assert.deepStrictEqual(simple(settled.diagnostics).map((d) => [d.code, d.line]), [["item-in-hot-path", 6]]);

    await client.open(mainUri, main);
    await client.change(mainUri, 2, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: "opt.eval_oracle_wh = True\n" }]);
    const unsettled = await client.until(() => client.latest(trainerUri)?.diagnostics.length === 2 && client.latest(trainerUri), "the branch's sync back once main.py sets the option");
    assert.deepStrictEqual(simple(unsettled.diagnostics).map((d) => [d.code, d.line]), [["host-transfer-in-hot-path", 5], ["item-in-hot-path", 6]]);
  });

  it("does not report an open model file's classes that nothing in the workspace names, reading configs for names as the CLI does", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-unused-"));
    fs.mkdirSync(path.join(root, "models"));
    fs.mkdirSync(path.join(root, "configs"));
    fs.writeFileSync(path.join(root, "models", "__init__.py"), "from .nets import Net\n");
    const nets = [
      "import torch.nn as nn",
      "",
      "",
      "class Net(nn.Module):",
      "    def forward(self, x):",
      "        return x.item()",
      "",
      "",
      "class OldNet(nn.Module):",
      "    def forward(self, x):",
      "        return x.item()",
      "",
      "",
      "class Head(nn.Module):",
      "    def forward(self, x):",
      "        return x.item()",
      "",
    ].join("\n");
    fs.writeFileSync(path.join(root, "models", "nets.py"), nets);
    fs.writeFileSync(path.join(root, "train.py"), "from models import Net\n\nmodel = Net()\n");
    fs.writeFileSync(path.join(root, "configs", "head.yaml"), "head:\n  target: models.nets.Head\n");
    const netsUri = pathToFileURL(path.join(root, "models", "nets.py")).href;
    client = new TestClient();
    await client.initialize({}, pathToFileURL(root).href, { reportTimings: true, warmUp: false });
    await client.until(() => client.indexed > 0, "the workspace index");
    await client.open(netsUri, nets);
    const found = await client.until(() => client.latest(netsUri)?.diagnostics.length === 2 && client.latest(netsUri), "Net's and Head's findings, not OldNet's");
    assert.deepStrictEqual(found.diagnostics.map((d: any) => d.range.start.line), [5, 15]);
  });

  it("walks at most a budget of folders for the index (a home folder is not a project)", () => {
    const root = makeProject();
    const files = ["engine.py", "util/__init__.py", "util/misc.py"].map((f) => path.join(root, ...f.split("/")));
    assert.deepStrictEqual(collectPythonFiles([root], 3), { files, missing: [] });
    assert.deepStrictEqual(collectPythonFiles([root], 2).truncated, true);
  });

  it("answers workspace diagnostics with cross-file findings (indexed on a worker), and refreshes them when a caller changes on disk", async () => {
    const root = makeProject(12);
    const miscUri = pathToFileURL(path.join(root, "util", "misc.py")).href;
    client = new TestClient();
    await client.initialize({ textDocument: { diagnostic: {} }, workspace: { diagnostics: { refreshSupport: true }, didChangeWatchedFiles: { dynamicRegistration: true } } }, pathToFileURL(root).href, {
      reportTimings: true,
      warmUp: false,
    });
    await client.until(() => client.indexed > 0, "the workspace index");
    const first = await client.request("workspace/diagnostic", { previousResultIds: [] });
    assert.doesNotMatch(client.logs.join(""), /worker failed/);
    const misc = first.items.find((item: any) => item.uri === miscUri);
    assert.deepStrictEqual(simple(misc.items), await projectLint(root, "util/misc.py"));

    fs.writeFileSync(path.join(root, "engine.py"), ENGINE.replace("        all_reduce_mean(loss)\n", ""));
    const refreshes = client.refreshes;
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(path.join(root, "engine.py")).href, type: 2 }] });
    await client.until(() => client.refreshes > refreshes, "a diagnostic refresh after the caller changed on disk");
    const second = await client.request("workspace/diagnostic", { previousResultIds: first.items.map((item: any) => ({ uri: item.uri, value: item.resultId })) });
    const again = second.items.find((item: any) => item.uri === miscUri);
    assert.strictEqual(again.kind, "full");
    assert.deepStrictEqual(again.items, []);
    assert.deepStrictEqual(await projectLint(root, "util/misc.py"), []);
  });
});
