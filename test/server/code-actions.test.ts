/**
 * In-process tests of how the server turns the engine's fixes (`finding.fixes`, the shape the fixes issue adds:
 * `{ title, safe, edits: [{ start, end, text }] }` in UTF-16 offsets) into code actions. The engine does not
 * produce fixes yet, so the fixes here are attached by hand to real findings: what is tested is the server's
 * conversion (positions in each encoding, one quick fix per fix, fix-all taking only safe, non-overlapping fixes),
 * not any rewrite. Replace with protocol-level tests once the engine produces fixes.
 */
import * as assert from "assert";
import { buildSyntaxTree, initParser, lintSource, parsePython, resolveConfig } from "synclint-rules";
import type { Finding } from "synclint-rules";
import { codeActionsFor, fixAllAction } from "synclint-server/out/code-actions";
import { toDiagnostics } from "synclint-server/out/diagnostics";
import type { DocumentLint } from "synclint-server/out/linting";

const TEXT = [
  "import torch",
  "",
  "def train(model, loader):",
  "    for x in loader:",
  "        loss = model(x).mean()",
  "        print(\"😀\", loss.item())",
  "        torch.cuda.synchronize()",
  "",
].join("\n");

function lintOf(text: string): DocumentLint {
  const config = resolveConfig({}, "/tmp");
  const tree = parsePython(text);
  try {
    return { version: 1, text, result: lintSource(text, { filePath: "/tmp/fixes.py", config }), syntax: buildSyntaxTree(tree, text), config };
  } finally {
    tree.delete();
  }
}

type Fix = { title: string; safe: boolean; edits: Array<{ start: number; end: number; text: string }> };
const withFixes = (finding: Finding, fixes: unknown) => Object.assign(finding, { fixes }) as Finding & { fixes: Fix[] };

function apply(text: string, edits: Array<{ range: any; newText: string }>): string {
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const edit of sorted) text = text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
  return text;
}

describe("code actions from the engine's fixes (in process)", () => {
  before(async () => {
    await initParser();
  });

  it("offers one quick fix per fix, placed exactly in UTF-16 and UTF-8, preferred when safe", () => {
    const lint = lintOf(TEXT);
    const item = lint.result.findings.find((f) => f.rule === "item-in-hot-path")!;
    const call = TEXT.indexOf("loss.item()");
    withFixes(item, [
      { title: "Log the loss without a sync", safe: false, edits: [{ start: call, end: call + "loss.item()".length, text: "loss.detach()" }] },
      { title: "Safe variant", safe: true, edits: [{ start: call, end: call + 4, text: "l2" }] },
    ]);
    for (const encoding of ["utf-16", "utf-8"] as const) {
      const diagnostic = toDiagnostics(lint.result, encoding).find((d) => d.code === "item-in-hot-path")!;
      const actions = codeActionsFor("file:///tmp/fixes.py", lint, [diagnostic], encoding);
      assert.deepStrictEqual(actions.slice(0, 2).map((a) => [a.title, a.kind, a.isPreferred]), [["Log the loss without a sync", "quickfix", false], ["Safe variant", "quickfix", true]]);
      const [edit] = actions[0].edit!.changes!["file:///tmp/fixes.py"];
      const line = TEXT.split("\n")[5];
      const column = line.indexOf("loss.item()");
      const character = encoding === "utf-16" ? column : Buffer.byteLength(line.slice(0, column));
      assert.deepStrictEqual(edit.range, { start: { line: 5, character }, end: { line: 5, character: character + 11 } });
      if (encoding === "utf-16") assert.strictEqual(apply(TEXT, [edit]), TEXT.replace("loss.item()", "loss.detach()"));
      assert.strictEqual(actions[2].title, "Disable `item-in-hot-path` for this line");
    }
  });

  it("source.fixAll applies the safe fixes of one pass that do not overlap, and ignores malformed fixes", () => {
    const lint = lintOf(TEXT);
    const item = lint.result.findings.find((f) => f.rule === "item-in-hot-path")!;
    const sync = lint.result.findings.find((f) => f.rule === "explicit-synchronize")!;
    const call = TEXT.indexOf("loss.item()");
    const syncAt = TEXT.indexOf("torch.cuda.synchronize()");
    withFixes(item, [
      { title: "a", safe: true, edits: [{ start: call, end: call + 11, text: "loss" }] },
      { title: "overlaps a", safe: true, edits: [{ start: call + 5, end: call + 11, text: "x" }] },
      { title: "unsafe", safe: false, edits: [{ start: 0, end: 0, text: "# unsafe\n" }] },
      { title: "malformed", safe: true, edits: [{ start: "0", end: 1, text: 3 }] },
    ]);
    withFixes(sync, [{ title: "b", safe: true, edits: [{ start: syncAt, end: syncAt + 24, text: "pass" }] }]);
    const action = fixAllAction("file:///tmp/fixes.py", lint, "utf-16")!;
    assert.strictEqual(action.kind, "source.fixAll.synclint");
    const fixed = apply(TEXT, action.edit!.changes!["file:///tmp/fixes.py"] as any);
    assert.strictEqual(fixed, TEXT.replace("loss.item()", "loss").replace("torch.cuda.synchronize()", "pass"));
    const only = codeActionsFor("file:///tmp/fixes.py", lint, [], "utf-16", ["source.fixAll"]);
    assert.deepStrictEqual(only.map((a) => a.kind), ["source.fixAll.synclint"]);
    // Without fixes on the findings there is nothing to offer.
    assert.strictEqual(fixAllAction("file:///tmp/fixes.py", lintOf(TEXT), "utf-16"), undefined);
  });
});
