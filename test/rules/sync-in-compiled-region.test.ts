import * as assert from "assert";
import { initParser } from "synclint-rules";
import { py } from "../helpers";
import { lintWithRule, ruleTester } from "../rule-tester";

/** The rules whose findings sync-in-compiled-region re-labels; the tests select them beside it. */
const DETECTORS = ["item-in-hot-path", "implicit-host-read", "data-dependent-shape", "explicit-synchronize", "host-transfer-in-hot-path", "tensor-formatting"];
const options = { alsoSelect: DETECTORS };

ruleTester.run("sync-in-compiled-region", {
  valid: [
    {
      name: "@torch.jit.script: TorchScript runs each op as eager code would, so a sync there breaks no graph (item-in-hot-path reports it)",
      options,
      code: py`
        import torch
        @torch.jit.script
        def f(x):
            return x.sum().item()
      `,
    },
    {
      name: "compiled function without syncs",
      options,
      code: py`
        import torch
        @torch.compile
        def fused(x, y):
            return torch.where(x > 0, x, y).sum()
      `,
    },
    {
      name: "an .item() after a CUDA-graph capture, in a function called once",
      options,
      code: py`
        import torch
        def capture(model, static_x):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = model(static_x)
            v = out.sum().item()
      `,
    },
    {
      name: "non-compiled code is left to the detecting rules",
      options: { alsoSelect: [] },
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                lv = loss.item()
      `,
    },
    {
      name: "the compiled function's caller is not compiled",
      options,
      code: py`
        import torch
        @torch.compile
        def fwd(model, x):
            return model(x)
        def main(model, x):
            out = fwd(model, x)
            return out.sum().item()
      `,
    },
    {
      name: "shape arithmetic in a compiled function",
      options,
      code: py`
        import torch
        @torch.compile
        def split_heads(x: torch.Tensor, heads: int):
            b, n, d = x.shape
            if x.dim() != 3:
                raise ValueError("expected 3 dims")
            return x.view(b, n, heads, d // heads)
      `,
    },
    {
      name: "torch.compile of a function defined elsewhere does not compile same-named locals",
      options,
      code: py`
        import torch
        from mylib import loss_fn
        compiled = torch.compile(loss_fn)
        def helper(x: torch.Tensor):
            return x
      `,
    },
    {
      name: "masked reduction kept on the device",
      options,
      code: py`
        import torch
        @torch.compile
        def masked_mean(x: torch.Tensor, mask: torch.Tensor):
            total = torch.where(mask, x, 0).sum()
            return total / mask.sum().clamp_min(1)
      `,
    },
    {
      name: "graph capture body without syncs",
      options,
      code: py`
        import torch
        def capture(model, static_x, static_y):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                static_y.copy_(model(static_x))
            return g
      `,
    },
  ],
  invalid: [
    {
      name: "`.item()` in a @torch.compile function",
      options,
      code: py`
        import torch
        @torch.compile
        def clipped(x, limit):
            if x.norm().item() > limit:
                x = x * 0.5
            return x
      `,
      errors: [
        {
          line: 4,
          column: 17,
          detectedBy: "item-in-hot-path",
          severity: "error",
          messageIncludes: ["`x.norm().item()` (item-in-hot-path)", "in the compiled function `clipped()`", "graph break under `torch.compile`"],
        },
      ],
    },
    {
      name: "@torch.compile(...) with arguments",
      options,
      code: py`
        import torch
        @torch.compile(mode="max-autotune")
        def select_fn(x: torch.Tensor):
            return torch.nonzero(x)
      `,
      errors: [{ line: 4, column: 12, detectedBy: "data-dependent-shape" }],
    },
    {
      name: "torch.compile(Net()) compiles forward",
      options,
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x
                return -x
        model = torch.compile(Net())
      `,
      errors: [{ line: 5, column: 12, detectedBy: "implicit-host-read", messageIncludes: "in the compiled function `Net.forward()`" }],
    },
    {
      name: "torch.compile(instance) through a variable",
      options,
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                return x.sum().item()
        net = Net()
        opt_net = torch.compile(net)
      `,
      errors: [{ line: 5, column: 24, detectedBy: "item-in-hot-path" }],
    },
    {
      name: "torch.compile(function)",
      options,
      code: py`
        import torch
        def loss_fn(pred: torch.Tensor, target: torch.Tensor):
            mask = target > 0
            return pred[mask].mean()
        compiled_loss = torch.compile(loss_fn)
      `,
      errors: [{ line: 4, column: 12, detectedBy: "data-dependent-shape" }],
    },
    {
      name: "helper called from a compiled function",
      options,
      code: py`
        import torch
        def helper(x):
            return x.max().item()
        @torch.compile
        def fwd(x):
            return x * helper(x)
      `,
      errors: [{ line: 3, column: 20, detectedBy: "item-in-hot-path", messageIncludes: "called at line 6 in the compiled function `fwd()`" }],
    },
    {
      name: "@compile imported from torch",
      options,
      code: py`
        import torch
        from torch import compile
        @compile
        def f(x: torch.Tensor):
            return x.sum().item()
      `,
      errors: [{ line: 5, column: 20 }],
    },
    {
      name: "@torch._dynamo.optimize",
      options,
      code: py`
        import torch
        import torch._dynamo
        @torch._dynamo.optimize("inductor")
        def f(x: torch.Tensor):
            return float(x.sum())
      `,
      errors: [{ line: 5, column: 12, detectedBy: "implicit-host-read" }],
    },
    {
      name: "`.item()` inside a CUDA-graph capture",
      options,
      code: py`
        import torch
        def capture(model, static_x):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = model(static_x)
                peak = out.max().item()
            return g
      `,
      errors: [{ line: 6, column: 26, hot: true, messageIncludes: ["inside the CUDA-graph capture at line 4", "operation not permitted when stream is capturing"] }],
    },
    {
      name: "synchronize inside a CUDA-graph capture (relabelled although it does not break torch.compile graphs)",
      options,
      code: py`
        import torch
        def capture(model, static_x):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = model(static_x)
                torch.cuda.synchronize()
            return g
      `,
      errors: [{ line: 6, column: 9, detectedBy: "explicit-synchronize" }],
    },
    {
      name: "print inside a capture under a second with-item",
      options,
      code: py`
        import torch
        def capture(model, static_x):
            g = torch.cuda.CUDAGraph()
            s = torch.cuda.Stream()
            with torch.cuda.stream(s), torch.cuda.graph(g) as cap:
                out = model(static_x)
                print(out)
      `,
      errors: [{ line: 7, column: 15, detectedBy: "tensor-formatting" }],
    },
    {
      name: "severity override of sync-in-compiled-region",
      options: { ...options, severity: { "sync-in-compiled-region": "warning" } },
      code: py`
        import torch
        @torch.compile
        def f(x: torch.Tensor):
            return x.sum().item()
      `,
      errors: [{ line: 4, column: 20, severity: "warning" }],
    },
  ],
});

describe("sync-in-compiled-region (relabelling)", () => {
  before(() => initParser());

  it("does not relabel hazards of rules that do not break graphs (explicit-synchronize under torch.compile)", () => {
    const code = py`
      import torch
      @torch.compile
      def f(x: torch.Tensor):
          torch.cuda.synchronize()
          return x
    `;
    const result = lintWithRule("sync-in-compiled-region", code, options);
    assert.deepStrictEqual(result.findings.map((f) => [f.rule, f.line]), [["explicit-synchronize", 4]]);
  });

  it("without sync-in-compiled-region selected, the detecting rule reports under its own name", () => {
    const code = py`
      import torch
      @torch.compile
      def f(x: torch.Tensor):
          return x.sum().item()
    `;
    const result = lintWithRule("item-in-hot-path", code);
    assert.deepStrictEqual(result.findings.map((f) => [f.rule, f.detectedBy, f.line]), [["item-in-hot-path", undefined, 4]]);
    assert.ok(result.findings[0].message.includes("in the compiled function `f()`"));
  });

  it("a suppression naming the detecting rule suppresses the relabelled finding", () => {
    const code = py`
      import torch
      @torch.compile
      def f(x: torch.Tensor):
          return x.sum().item()  # synclint: ignore[item-in-hot-path]
    `;
    assert.strictEqual(lintWithRule("sync-in-compiled-region", code, options).findings.length, 0);
  });

  it("a suppression naming SYN301 suppresses the relabelled finding", () => {
    const code = py`
      import torch
      @torch.compile
      def f(x: torch.Tensor):
          return x.sum().item()  # noqa: SYN301
    `;
    assert.strictEqual(lintWithRule("sync-in-compiled-region", code, options).findings.length, 0);
  });

  it("a suppression naming an unrelated rule does not suppress it", () => {
    const code = py`
      import torch
      @torch.compile
      def f(x: torch.Tensor):
          return x.sum().item()  # synclint: ignore[tensor-formatting]
    `;
    assert.strictEqual(lintWithRule("sync-in-compiled-region", code, options).findings.length, 1);
  });
});
