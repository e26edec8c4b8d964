import * as assert from "assert";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import type { LintResult } from "synclint-rules";
import { py } from "./helpers";

/** A step loop with one `.item()` per line from line 5 on, each followed by `comment` where given. */
function loop(...comments: string[]): string {
  const lines = ["import torch", "def train(loader, model):", "    for x, y in loader:", "        loss = model(x).mean()"];
  comments.forEach((comment, index) => lines.push(`        v${index} = loss.item()${comment ? `  ${comment}` : ""}`));
  return `${lines.join("\n")}\n`;
}

function lint(code: string, reportUnusedSuppressions = false): LintResult {
  return lintSource(code, { config: resolveConfig({}, process.cwd()), reportUnusedSuppressions });
}

const findingLines = (result: LintResult) => result.findings.map((f) => f.line);
const unused = (result: LintResult) => result.problems.filter((p) => p.kind === "unused-suppression");

describe("suppressions", () => {
  before(() => initParser());

  it("reports every line of the fixture without comments (control)", () => {
    assert.deepStrictEqual(findingLines(lint(loop("", "", ""))), [5, 6, 7]);
  });

  it("`# synclint: ignore` suppresses everything on its line only", () => {
    assert.deepStrictEqual(findingLines(lint(loop("", "# synclint: ignore", ""))), [5, 7]);
  });

  it("`# synclint: ignore[rule] reason` suppresses that rule", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# synclint: ignore[item-in-hot-path] logged on purpose", ""))), [6]);
  });

  it("`# synclint: ignore[SYN101]` accepts codes, in any case, and lists", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# synclint: ignore[SYN101]", "# synclint: ignore[syn101]", "# synclint: ignore[tensor-formatting, item-in-hot-path]"))), []);
  });

  it("`# synclint: ignore[other-rule]` does not suppress a different rule", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# synclint: ignore[implicit-host-read]"))), [5]);
  });

  it("`# noqa: SYN101` suppresses, alone or among other tools' codes", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# noqa: SYN101", "# noqa: E501, SYN101", "# noqa:SYN101"))), []);
  });

  it("`# noqa: E501` is for another tool and does not suppress", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# noqa: E501", "# noqa: E501,W291"))), [5, 6]);
  });

  it("blanket `# noqa` suppresses", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# noqa", "# NOQA"))), []);
  });

  it("`# noqa: SYN103` (another synclint rule) does not suppress SYN101", () => {
    assert.deepStrictEqual(findingLines(lint(loop("# noqa: SYN103"))), [5]);
  });

  it("a `#` inside a string is not a comment", () => {
    const code = py`
      import torch
      def train(loader, model):
          for x, y in loader:
              loss = model(x).mean()
              print("# synclint: ignore", loss.item())
    `;
    assert.deepStrictEqual(findingLines(lint(code)), [5]);
  });

  it("a suppression on the last line of a multi-line finding applies", () => {
    const code = py`
      import torch
      def train(loader, model, device):
          for x, y in loader:
              w = torch.tensor(
                  [0.3, 0.7],
                  device=device,
              )  # synclint: ignore[blocking-host-to-device]
    `;
    const config = resolveConfig({ select: ["blocking-host-to-device"] }, process.cwd());
    assert.strictEqual(lintSource(code, { config }).findings.length, 0);
    assert.strictEqual(lintSource(code.replace("  # synclint: ignore[blocking-host-to-device]", ""), { config }).findings.length, 1);
  });

  it("a suppression on the line before does not apply", () => {
    const code = py`
      import torch
      def train(loader, model):
          for x, y in loader:
              loss = model(x).mean()
              # synclint: ignore
              v = loss.item()
    `;
    assert.deepStrictEqual(findingLines(lint(code)), [6]);
  });

  it("`# synclint: disable-file` anywhere turns the file off", () => {
    assert.deepStrictEqual(findingLines(lint(`# synclint: disable-file\n${loop("", "")}`)), []);
    assert.deepStrictEqual(findingLines(lint(`${loop("", "")}# synclint: disable-file\n`)), []);
  });

  it("`# synclint: disable-file` still reports parse errors", () => {
    const result = lint("# synclint: disable-file\nimport torch\ndef broken(:\n    pass\n");
    assert.strictEqual(result.findings.length, 0);
    assert.strictEqual(result.problems.filter((p) => p.kind === "parse-error").length, 1);
  });

  describe("unused suppressions (reportUnusedSuppressions: true)", () => {
    it("are not reported unless asked for", () => {
      const code = `${loop("")}x = 1  # synclint: ignore\n`;
      assert.strictEqual(unused(lint(code)).length, 0);
    });

    it("a used suppression is not reported", () => {
      assert.deepStrictEqual(unused(lint(loop("# synclint: ignore", "# noqa: SYN101"), true)), []);
    });

    it("a suppression on a clean line is reported with its location", () => {
      const code = py`
        import torch
        x = 1  # synclint: ignore
        y = 2  # noqa: SYN102
      `;
      const problems = unused(lint(code, true));
      assert.deepStrictEqual(
        problems.map((p) => [p.line, p.column, p.endColumn, p.severity, p.message]),
        [
          [2, 8, 26, "warning", "Unused suppression: `# synclint: ignore` suppresses nothing on this line"],
          [3, 8, 22, "warning", "Unused suppression: `# noqa` suppresses nothing on this line"],
        ],
      );
    });

    it("a suppression naming the wrong rule is unused, and the finding stays", () => {
      const result = lint(loop("# synclint: ignore[implicit-host-read]"), true);
      assert.deepStrictEqual(findingLines(result), [5]);
      assert.deepStrictEqual(unused(result).map((p) => [p.line, p.message]), [[5, "Unused suppression: `# synclint: ignore` suppresses nothing on this line"]]);
    });

    it("unknown rule names are reported, also next to a known one that was used", () => {
      const result = lint(loop("# synclint: ignore[not-a-rule]", "# synclint: ignore[item-in-hot-path, bogus]"), true);
      assert.deepStrictEqual(findingLines(result), [5]);
      assert.deepStrictEqual(unused(result).map((p) => [p.line, p.message]), [
        [5, "Unused suppression: `# synclint: ignore` names unknown rules (not-a-rule)"],
        [6, "Suppression `# synclint: ignore` names unknown rules (bogus)"],
      ]);
    });

    it("`# noqa: E501` is never reported as unused", () => {
      assert.deepStrictEqual(unused(lint("import torch\nx = 1  # noqa: E501\n", true)), []);
    });
  });
});
