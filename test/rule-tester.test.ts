import * as assert from "assert";
import { initParser } from "synclint-rules";
import { py } from "./helpers";
import { lintWithRule } from "./rule-tester";

describe("test helpers", () => {
  before(() => initParser());

  it("py`` strips the first line break and the common indentation, keeping relative indentation", () => {
    const code = py`
      import torch
      def f(x):
          if x:
              return 1
    `;
    assert.strictEqual(code, "import torch\ndef f(x):\n    if x:\n        return 1\n");
  });

  it("py`` ignores blank lines when computing the indentation", () => {
    assert.strictEqual(py`
        a = 1

        b = 2
    `, "a = 1\n\nb = 2\n");
  });

  it("lintWithRule selects only the rule under test (and the ones asked for)", () => {
    const code = py`
      import torch
      def train(loader, model):
          for x, y in loader:
              loss = model(x).mean()
              print(f"{loss}", loss.item())
    `;
    assert.deepStrictEqual(lintWithRule("item-in-hot-path", code).findings.map((f) => f.rule), ["item-in-hot-path"]);
    assert.deepStrictEqual(lintWithRule("tensor-formatting", code).findings.map((f) => f.rule), ["tensor-formatting"]);
    assert.deepStrictEqual(lintWithRule("item-in-hot-path", code, { alsoSelect: ["tensor-formatting"] }).findings.map((f) => f.rule).sort(), ["item-in-hot-path", "tensor-formatting"]);
  });

  it("lintWithRule passes the preset through", () => {
    const code = py`
      import torch
      x = torch.ones(3, device="cuda")
      y = x.sum().item()
    `;
    assert.strictEqual(lintWithRule("item-in-hot-path", code).findings.length, 0);
    assert.strictEqual(lintWithRule("item-in-hot-path", code, { preset: "strict" }).findings.length, 1);
  });
});
