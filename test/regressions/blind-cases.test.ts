/**
 * Misses and false alarms found by acceptance-style files that helpers wrote from pytorch-sync-facts.md alone,
 * without reading synclint: detection post-processing outside any step loop, a batch moved to the GPU by a dict
 * comprehension, Python reading tensors in ways a rule had not listed, and a loop over two named splits.
 */
import * as assert from "assert";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { py } from "../helpers";

function findings(code: string): Array<[number, string]> {
  return lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings.map((f) => [f.line, f.rule]);
}

describe("cases written blind from the facts", () => {
  before(() => initParser());

  describe("a loop that post-processes a model's outputs where autograd is off", () => {
    // `postprocess` is no step loop: it goes over the images of one batch. Its values are tensors of unknown device.
    const detector = (decorator: string) => py`
      """Post-processing of a detector's outputs on the GPU."""
      import torch
      def nms(boxes: torch.Tensor, scores: torch.Tensor, threshold: float) -> list:
          order = scores.argsort(descending=True)
          keep = []
          while order.numel() > 0:
              i = order[0].item()
              keep.append(i)
              order = order[1:][boxes[order[1:], 0] <= threshold]
          return keep
      ${decorator}
      def postprocess(cls_logits, box_preds, threshold=0.05):
          results = []
          for logits, boxes in zip(cls_logits, box_preds):
              scores, labels = logits.sigmoid().max(dim=-1)
              keep = scores > threshold
              boxes, scores = boxes[keep], scores[keep]
              results.append(nms(boxes, scores, 0.5))
          return results
    `;

    it("reports values known to be tensors under `@torch.no_grad()` and `@torch.inference_mode()`, in the loop and in what it calls", () => {
      const expected: Array<[number, string]> = [
        [7, "item-in-hot-path"],
        [9, "data-dependent-shape"],
        [17, "data-dependent-shape"],
      ];
      assert.deepStrictEqual(findings(detector("@torch.no_grad()")), expected);
      assert.deepStrictEqual(findings(detector("@torch.inference_mode()")), expected);
    });

    it("keeps asking for positive GPU evidence in such a loop where autograd may be on (a list of tensors of any device)", () => {
      assert.deepStrictEqual(findings(detector("@staticmethod")), []);
    });

    it("counts `with torch.no_grad():` around the loop, and still needs tensors: a Python list's items stay quiet", () => {
      const code = (block: string) => py`
        import torch
        def summarize(logits: torch.Tensor, names: list):
            ${block}:
                for row, name in zip(logits, names):
                    print(name, row.max().item())
                    print(name.upper())
        def device_of(model):
            return torch.device("cuda")
      `;
      assert.deepStrictEqual(findings(code("with torch.no_grad()")), [[5, "item-in-hot-path"]]);
      assert.deepStrictEqual(findings(code("with torch.autocast(\"cuda\")")), []);
    });
  });

  describe("a dict comprehension that moves a batch", () => {
    const predict = (move: string) => py`
      import torch
      @torch.no_grad()
      def predict(model, loader, device):
          gold, predictions = [], []
          for batch in loader:
              batch = {k: v${move} for k, v in batch.items()}
              logits = model(batch["input_ids"])
              predictions.append(logits.argmax(-1))
              gold.extend(batch["labels"].tolist())
          return torch.cat(predictions).cpu(), gold
    `;

    it("holds GPU tensors under every key when each value is moved to the GPU", () => {
      assert.deepStrictEqual(findings(predict(".to(device, non_blocking=True)")), [[9, "host-transfer-in-hot-path"]]);
    });

    it("holds nothing known when the values are not moved", () => {
      assert.deepStrictEqual(findings(predict("")), []);
      assert.deepStrictEqual(findings(predict(".float()")), []);
    });
  });

  describe("Python reading a GPU tensor where a rule had not looked", () => {
    const step = (line: string) => py`
      import math
      import torch
      def train(model, loader, optimizer, device, eos_id):
          for x, y in loader:
              x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
              out = model(x)
              loss = torch.nn.functional.mse_loss(out, y)
              loss.backward()
              optimizer.step()
              ${line}
    `;
    const rulesAt10 = (line: string) => findings(step(line)).filter(([at]) => at === 10).map(([, rule]) => rule);

    it("`math` functions of one or two doubles call `__float__`: `math.log10(1.0 / mse)` (PSNR), `math.pow`, `math.atan2`", () => {
      assert.deepStrictEqual(rulesAt10("psnr = 10.0 * math.log10(1.0 / loss)"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("value = math.pow(loss, 2)"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("angle = math.atan2(out.mean(), 1.0)"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("psnr = 10.0 * math.log10(1.0 / 0.5)"), []);
      // `math.floor` asks `__floor__` first; it is not listed.
      assert.deepStrictEqual(rulesAt10("n = math.floor(x.size(0) / 2)"), []);
    });

    it("`any()` / `all()` over a generator of tensors reads each one as a bool", () => {
      assert.deepStrictEqual(rulesAt10("bad = any(torch.isnan(p).any() for p in [out, loss])"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("bad = all([torch.isfinite(p).all() for p in (out, loss)])"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("bad = any(name.startswith('a') for name in ['a', 'b'])"), []);
    });

    it("`x in t` asks `Tensor.__contains__`, which reads `(x == t).any()`; a string is looked up in a dict-like output", () => {
      assert.deepStrictEqual(rulesAt10("done = eos_id in out.argmax(-1)"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("done = eos_id not in out.argmax(-1)"), ["implicit-host-read"]);
      assert.deepStrictEqual(rulesAt10("has_loss = 'loss' in out"), []);
      assert.deepStrictEqual(rulesAt10("seen = eos_id in [1, 2]"), []);
      // A name bound to a string (open_clip's `key = f"{name}_features"`), or a container read with a string key.
      assert.deepStrictEqual(rulesAt10("key = f'{eos_id}_features'; paired = key in out"), []);
      assert.deepStrictEqual(rulesAt10("paired = eos_id in out and out['logits'] is not None"), []);
    });

    it("a parameter annotated `dict[str, Tensor]` is a dict: its keys are strings, its values tensors (Lightning's `ModelCheckpoint`)", () => {
      const code = py`
        from typing import Dict, Optional
        import torch
        from torch import Tensor
        def train_step(model, batch, metrics: dict[str, Tensor], extra: Optional[Dict[str, torch.Tensor]], monitor: str):
            out = model(batch.cuda(non_blocking=True))
            if monitor not in metrics:
                return out
            for name in metrics:
                print(name)
            return metrics[monitor].item() + extra["loss"].item()
      `;
      assert.deepStrictEqual(findings(code), [[10, "item-in-hot-path"], [10, "item-in-hot-path"]]);
    });

    it("`torch.allclose` and `t.allclose(u)` end in `.item()`, like `torch.equal`", () => {
      assert.deepStrictEqual(rulesAt10("same = torch.allclose(out, y, atol=1e-3)"), ["data-dependent-shape"]);
      assert.deepStrictEqual(rulesAt10("same = out.allclose(y)"), ["data-dependent-shape"]);
      assert.deepStrictEqual(rulesAt10("same = torch.isclose(out, y).all()"), []);
    });

    it("a value whose `.backward()` is called is a tensor, whatever computed it", () => {
      const code = (backward: string) => py`
        import torch
        from losses import si_snr
        def train(model, loader, optimizer, device, log):
            for noisy, clean in loader:
                noisy, clean = noisy.to(device, non_blocking=True), clean.to(device, non_blocking=True)
                loss = -si_snr(model(noisy), clean)
                ${backward}
                optimizer.step()
                log.write("%.5f" % loss)
      `;
      assert.deepStrictEqual(findings(code("loss.backward()")), [[9, "tensor-formatting"]]);
      assert.deepStrictEqual(findings(code("self.loss.backward()")), []);
      assert.deepStrictEqual(findings(code("(loss * 2).backward()")), []);
    });
  });

  it("a loop over the items of a tuple written out runs that many times: `for split in (\"train\", \"val\")` is no per-item loop", () => {
    const code = (splits: string) => py`
      import torch
      @torch.no_grad()
      def estimate_loss(model, get_batch, eval_iters, device):
          result = {}
          for split in ${splits}:
              losses = torch.zeros(eval_iters, device=device)
              for k in range(eval_iters):
                  x, y = get_batch(split)
                  losses[k] = model(x, y)
              result[split] = losses.mean().item()
          return result
    `;
    assert.deepStrictEqual(findings(code(`("train", "val")`)), []);
    assert.deepStrictEqual(findings(code(`"train", "val"`)), []);
    // Not written out: a list of any length.
    assert.deepStrictEqual(findings(code("splits")), [[10, "item-in-hot-path"]]);
  });

  it("a loop over a name for a tuple written out runs that many times: a parameter every call leaves at its default, or a name bound once", () => {
    const code = (loop: string) => py`
      import torch
      def min_dcf(scores, labels, p_targets=(0.01, 0.001)):
          fnr = 1 - labels.float().cumsum(0) / labels.sum()
          splits = ("train", "val")
          found = {}
          for p in ${loop}:
              found[p] = (p * fnr.cuda()).min().item()
          return found
      def evaluate(scores, labels):
          return min_dcf(scores, labels)
    `;
    assert.deepStrictEqual(findings(code("p_targets")), []);
    assert.deepStrictEqual(findings(code("splits")), []);
    // A list of unknown length: each pass waits.
    assert.deepStrictEqual(findings(code("scores.tolist()")), [[7, "item-in-hot-path"]]);
  });

  it("the sum of a generator whose items are not known to be numbers is not a number: `.item()` on an all-reduced token count", () => {
    const code = py`
      import torch
      import torch.distributed as dist
      def train(model, loader, optimizer, device, accum):
          for group in zip(*[iter(loader)] * accum):
              group = [(x.to(device, non_blocking=True), y.to(device, non_blocking=True)) for x, y in group]
              n_tokens = sum((y != -100).sum() for _, y in group)
              dist.all_reduce(n_tokens)
              n_tokens = n_tokens.item()
              for x, y in group:
                  (model(x, y) / n_tokens).backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code), [[8, "item-in-hot-path"]]);
  });

  it("names read from a generator that is unpacked get its items: `train_mask, val_mask = (... .to(device) for k in splits)`", () => {
    const code = py`
      import torch
      import torch.nn.functional as F
      def main(model, raw, opt, epochs):
          device = torch.device("cuda")
          x = torch.from_numpy(raw["x"]).to(device)
          y = torch.from_numpy(raw["y"]).to(device)
          train_mask, val_mask = (torch.from_numpy(raw[k]).bool().to(device) for k in ("train", "val"))
          for epoch in range(epochs):
              out = model(x)
              loss = F.cross_entropy(out[train_mask], y[train_mask])
              opt.zero_grad()
              loss.backward()
              opt.step()
    `;
    assert.deepStrictEqual(findings(code), [[10, "data-dependent-shape"], [10, "data-dependent-shape"]]);
  });

  it("`pos` and `neg` name a mask only where their value is one: edges selected by an index are not (link prediction)", () => {
    const code = (pos: string) => py`
      import torch
      def train(model, edges, labels, opt):
          for perm in torch.randperm(edges.size(1), device="cuda").split(1024):
              pos = ${pos}
              h = model(edges)
              score = h[pos].sum()
              score.backward()
              opt.step()
    `;
    assert.deepStrictEqual(findings(code("edges[0, perm]")), []);
    assert.deepStrictEqual(findings(code("labels.cuda()[perm] > 0")), [[4, "blocking-host-to-device"], [6, "data-dependent-shape"]]);
  });

  it("objects made by an assignment that unpacks several calls are followed like those of a plain one: `mae, hits = MAE(), HitRate()`", () => {
    const code = (made: string) => py`
      import torch
      class HitRate:
          def __init__(self):
              self.hits = 0
          def update(self, scores, target):
              self.hits += (scores.argmax(-1) == target).sum().item()
      class Count:
          def __init__(self):
              self.n = 0
          def update(self, target):
              self.n += target.size(0)
      @torch.no_grad()
      def evaluate(model, loader, device):
          ${made}
          for x, y in loader:
              scores = model(x.to(device, non_blocking=True))
              hits.update(scores, y.to(device, non_blocking=True))
              count.update(y)
          return hits.hits / count.n
    `;
    assert.deepStrictEqual(findings(code("count, hits = Count(), HitRate()")), [[6, "item-in-hot-path"]]);
    assert.deepStrictEqual(findings(code("(count, hits) = (Count(), HitRate())")), [[6, "item-in-hot-path"]]);
    assert.deepStrictEqual(findings(code("count = Count(); hits = HitRate()")), [[6, "item-in-hot-path"]]);
  });

  it("a module's tensor attribute that is no parameter or buffer stays on the host when the module moves: moving it each step is a blocking copy", () => {
    const code = (made: string, extra = "pass") => py`
      import torch
      import torch.nn as nn
      import torch.nn.functional as F
      class Classifier(nn.Module):
          def __init__(self, weights):
              super().__init__()
              self.head = nn.Linear(128, 10)
              ${made}
          def forward(self, x, y):
              weight = self.class_weights.to(x.device)
              return F.cross_entropy(self.head(x), y, weight=weight)
          def helper(self):
              ${extra}
    `;
    assert.deepStrictEqual(findings(code("self.class_weights = torch.FloatTensor(weights)")), [[10, "blocking-host-to-device"]]);
    assert.deepStrictEqual(findings(code("self.class_weights = torch.tensor(weights)")), [[10, "blocking-host-to-device"]]);
    // A buffer moves with the module; so may an attribute the class moves itself, or one also set on the GPU.
    assert.deepStrictEqual(findings(code("self.register_buffer('class_weights', torch.tensor(weights))")), []);
    assert.deepStrictEqual(findings(code("self.class_weights = torch.tensor(weights)", "self.class_weights = self.class_weights.cuda()")), []);
  });

  it("an attribute set a few lines up in the same method is that value there, whatever later lines make of it (faster-rcnn's grid generators)", () => {
    const code = py`
      import numpy as np
      import torch
      import torch.nn as nn
      class GridGen(nn.Module):
          def __init__(self, height, width):
              super().__init__()
              self.grid = torch.from_numpy(np.zeros([height, width, 3], dtype=np.float32))
          def forward(self, x):
              self.batchgrid = torch.zeros(torch.Size([x.size(0)]) + self.grid.size())
              for i in range(x.size(0)):
                  self.batchgrid[i] = self.grid
              if x.is_cuda:
                  self.batchgrid = self.batchgrid.cuda()
              return torch.bmm(self.batchgrid.view(x.size(0), -1, 3), x)
    `;
    // The host-to-host fill in the loop is no copy to the GPU; moving the grid it built, on every forward pass, is.
    assert.deepStrictEqual(findings(code), [[13, "blocking-host-to-device"]]);
 
    // The latest of several assignments above wins: a state moved at the top of the loop, then replaced by the
    // environment's next observation, is on the host again where the loop's end moves it (Lightning's PPO example).
    const rollout = py`
      import torch
      class Agent(torch.nn.Module):
          def rollout(self, env, steps):
              for step in range(steps):
                  self.state = self.state.to(device=self.device)
                  action = self(self.state)
                  next_state, done = env.step(action)
                  self.state = torch.FloatTensor(next_state)
                  value = self.critic(self.state.to(device=self.device))
    `;
    assert.ok(findings(rollout).some(([line, rule]) => line === 9 && rule === "blocking-host-to-device"));
  });

  describe("code a step loop reaches without calling it by a `def`'s name", () => {
    it("a lambda bound to a name runs where a hot path calls it, and its parameter is what every call passes", () => {
      const code = py`
        import torch
        to_np = lambda t: t.detach().cpu().numpy()
        scalar = lambda t: t.item()
        rounded = lambda v: round(v.item(), 2)
        def train(model, loader, optimizer, device):
            for x, y in loader:
                out = model(x.to(device, non_blocking=True))
                loss = torch.nn.functional.cross_entropy(out, y.to(device, non_blocking=True))
                loss.backward()
                optimizer.step()
                preds = to_np(out.argmax(1))
                print(scalar(loss))
        def evaluate(model, loader):
            get = lambda b: b.cpu()
            for x in loader:
                res = get(model(x.cuda(non_blocking=True)))
      `;
      // `rounded` is never called: a lambda nothing calls runs nowhere hot.
      assert.deepStrictEqual(findings(code), [
        [2, "host-transfer-in-hot-path"],
        [3, "item-in-hot-path"],
        [14, "host-transfer-in-hot-path"],
      ]);
      const messages = lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings.map((f) => f.message);
      // What every call passes is a model's output on the GPU: no "if it is a CUDA tensor" in the message.
      assert.match(messages[0], /in the lambda `to_np` \(line 2\), called at line 11 in the step loop of `train\(\)`/);
      assert.doesNotMatch(messages[0], /\(if /);
    });

    it("a lambda that every call gives a Python number or a host array stays quiet; one called only outside loops too", () => {
      const code = py`
        import numpy as np
        import torch
        fmt = lambda v: v.item()
        listed = lambda a: a.tolist()
        def train(model, loader, optimizer):
            for step, (x, y) in enumerate(loader):
                loss = model(x.cuda(non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                fmt(np.float32(step))
                listed(np.arange(4))
            last = lambda t: t.item()
            print(last(loss))
      `;
      assert.deepStrictEqual(findings(code), []);
    });

    it("a module hook runs on every forward pass: a method, `partial` of one, a factory's closure, a lambda; a backward hook on every backward pass", () => {
      const code = py`
        from functools import partial
        import torch
        import torch.nn as nn
        class Recorder:
            def __init__(self, model):
                self.means = {}
                for name, module in model.named_modules():
                    module.register_forward_hook(partial(self._hook, name))
                    module.register_forward_hook(self._make_hook(name))
            def _hook(self, name, module, inputs, output):
                self.means[name] = output.detach().mean().item()
            def _make_hook(self, name):
                def hook(module, inputs, output):
                    print(output.norm().item())
                return hook
            def summary(self):
                return {k: v for k, v in self.means.items()}
        def attach(model, log):
            def monitor(module, grad_input, grad_output):
                log.append(grad_output[0].norm().item())
            return [m.register_full_backward_hook(monitor) for m in model.modules()]
        @torch.no_grad()
        def features(model, layer, loader):
            feats = []
            layer.register_forward_hook(lambda m, i, o: feats.append(o.flatten(1).cpu()))
            for x in loader:
                model(x)
            return torch.cat(feats)
      `;
      assert.deepStrictEqual(findings(code), [
        [11, "item-in-hot-path"],
        [14, "item-in-hot-path"],
        [20, "item-in-hot-path"],
        [25, "host-transfer-in-hot-path"],
      ]);
      const messages = lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings.map((f) => `${f.line} ${f.message}`);
      assert.match(messages[0], /^11 .*a hook that `register_forward_hook` registers at line 8 .* on every forward pass/);
      assert.match(messages[2], /^20 .*a hook that `register_full_backward_hook` registers at line 21 .* on every backward pass/);
    });

    it("`register_hook` hands a gradient hook to a tensor only: a trainer's registry of callbacks runs them when it likes", () => {
      const code = (receiver: string) => py`
        import torch
        def clip(grad):
            print(grad.norm().item())
            return grad
        def attach(model, trainer):
            for p in model.parameters():
                ${receiver}.register_hook(clip)
      `;
      assert.deepStrictEqual(findings(code("p")), [[3, "item-in-hot-path"]]);
      assert.deepStrictEqual(findings(code("trainer")), []);
    });

    it("a function called through a name bound to `partial(f, ...)` runs where that name is called", () => {
      const code = py`
        from collections import defaultdict
        from functools import partial
        import torch
        def record(history, key, value: torch.Tensor):
            history[key].append(value.item())
        def report(history, key, value: torch.Tensor):
            history[key].append(value.item())
        def train(model, loader, optimizer):
            history = defaultdict(list)
            log_loss = partial(record, history, "loss")
            log_once = partial(report, history, "final")
            for x, y in loader:
                loss = model(x.cuda(non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                log_loss(loss)
            log_once(loss)
      `;
      // `report` is called through its partial once, after the loop.
      assert.deepStrictEqual(findings(code), [[5, "item-in-hot-path"]]);
    });
  });

  describe("what a plain class of the file returns", () => {
    it("a method called on an instance, or the instance called (`__call__`), returns what the class's code returns", () => {
      const code = py`
        import torch
        class Matcher:
            def __call__(self, iou):
                values, matches = iou.max(dim=0)
                return torch.where(values > 0.5, matches, torch.full_like(matches, -1))
        class Task:
            def __init__(self, n, device="cuda"):
                self.obs = torch.zeros(n, 4, device=device)
                self.done = torch.zeros(n, device=device)
            def step(self, actions):
                return self.obs, self.done
        class Loss(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.matcher = Matcher()
            def forward(self, iou, logits):
                matched = self.matcher(iou)
                foreground = matched >= 0
                return logits[foreground].sum()
        @torch.no_grad()
        def collect(task: Task, policy, steps: int):
            obs = task.obs
            for _ in range(steps):
                obs, done = task.step(policy(obs))
                finished = (done > 0).nonzero()
      `;
      assert.deepStrictEqual(findings(code), [
        [19, "data-dependent-shape"],
        [25, "data-dependent-shape"],
      ]);
      // `self.matcher = Matcher` keeps the class, not an instance: calling it constructs one.
      assert.deepStrictEqual(findings(code.replace("self.matcher = Matcher()", "self.matcher = Matcher")), [[25, "data-dependent-shape"]]);
    });
  });

  describe("a script that never mentions a device", () => {
    const script = (setup: string) => py`
      import torch
      import torch.nn as nn
      ${setup}
      model = nn.Linear(2, 1)
      optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
      X = torch.randn(256, 2)
      y = torch.randn(256, 1)
      for epoch in range(10):
          for start in range(0, 256, 32):
              loss = nn.functional.mse_loss(model(X[start:start + 32]), y[start:start + 32])
              optimizer.zero_grad()
              loss.backward()
              optimizer.step()
              print(loss.item())
    `;

    it("runs its model on the CPU: the model's outputs are tensors of unknown device, and nothing says GPU", () => {
      assert.deepStrictEqual(findings(script("")), []);
    });

    it("is reported once anything may place the model: a device, a changed default device, a framework that places models", () => {
      assert.deepStrictEqual(findings(script('model_device = "cuda"')), [[14, "item-in-hot-path"]]);
      assert.deepStrictEqual(findings(script('torch.set_default_device("cuda")')), [[14, "item-in-hot-path"]]);
      assert.deepStrictEqual(findings(script("import accelerate")), [[14, "item-in-hot-path"]]);
    });
  });

  describe("what inference code hands from one step to the next", () => {
    it("a TorchServe handler's `postprocess(data)` gets what its `inference` returns: a TorchScript model's output", () => {
      const handler = (model: string) => py`
        import torch
        import torch.nn.functional as F
        from ts.torch_handler.base_handler import BaseHandler
        class Classifier(BaseHandler):
            def initialize(self, context):
                self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
                self.model = ${model}
            def inference(self, data, *args, **kwargs):
                with torch.no_grad():
                    return self.model(data)
            def postprocess(self, data):
                top_p, top_idx = F.softmax(data, dim=1).topk(5, dim=1)
                return [top_p[i].tolist() for i in range(top_p.size(0))]
      `;
      assert.deepStrictEqual(findings(handler('torch.jit.load("model.pt", map_location=self.device)')), [[13, "host-transfer-in-hot-path"]]);
      // What a handler's model is, nothing says: its output may be anything, and the loop is no step loop.
      assert.deepStrictEqual(findings(handler("load_model()")), []);
    });

    it("`top = sims.topk(k)`, then `top.indices`: the named tuple's tensors through a name, as through the call", () => {
      // The file mentions a device: its tensors of unknown device may be on it.
      const code = py`
        import torch
        DEVICE = torch.device("cuda")
        @torch.no_grad()
        def knn_search(gallery: torch.Tensor, queries: torch.Tensor, k: int = 5):
            results = []
            for q in queries:
                top = (gallery @ q).topk(k)
                results.append(top.indices.tolist())
                stats = summarize(q)
                results.append(stats.indices)
            return results
      `;
      assert.deepStrictEqual(findings(code), [[8, "host-transfer-in-hot-path"]]);
    });

    it("an image made a tensor with `to_tensor` is in host memory: moving it in a step loop is a blocking copy", () => {
      const code = py`
        import torch
        from torchvision.transforms import functional as TF
        def train(model, images, optimizer, device):
            for image in images:
                x = TF.to_tensor(image).to(device)
                loss = model(x[None]).mean()
                loss.backward()
                optimizer.step()
      `;
      assert.deepStrictEqual(findings(code), [[5, "blocking-host-to-device"]]);
    });
  });
});
