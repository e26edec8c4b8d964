/**
 * Syncs hidden inside library calls (pytorch-sync-facts.md §2 op table): GradScaler.step / get_scale and
 * clip_grad_norm_(error_if_nonfinite=True).
 */
import * as assert from "assert";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { py } from "../helpers";

function lines(code: string, rule: string): number[] {
  return lintSource(code, { config: resolveConfig({ select: [rule] }, process.cwd()) }).findings.map((f) => f.line);
}

describe("hidden syncs in library calls", () => {
  before(() => initParser());

  it("GradScaler.step in the step loop syncs unless the optimizer is fused", () => {
    const code = (fused: string) => py`
      import torch
      def train(model, loader, device):
          optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3${fused})
          scaler = torch.amp.GradScaler("cuda")
          for x, y in loader:
              with torch.autocast("cuda"):
                  loss = model(x.to(device, non_blocking=True)).mean()
              scaler.scale(loss).backward()
              scaler.step(optimizer)
              scaler.update()
    `;
    assert.deepStrictEqual(lines(code(""), "item-in-hot-path"), [9]);
    assert.deepStrictEqual(lines(code(", fused=True"), "item-in-hot-path"), []);
  });

  it("a GradScaler kept on self, and get_scale(), are followed too; other .step() calls are not", () => {
    const code = py`
      import torch
      from torch.cuda.amp import GradScaler
      class Trainer:
          def __init__(self, model):
              self.scaler = GradScaler()
              self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
              self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, 10)
          def fit(self, model, loader, device):
              for x in loader:
                  loss = model(x.to(device, non_blocking=True)).mean()
                  self.scaler.scale(loss).backward()
                  self.scaler.step(self.optimizer)
                  self.scheduler.step()
                  self.optimizer.step()
                  print(self.scaler.get_scale())
    `;
    assert.deepStrictEqual(lines(code, "item-in-hot-path"), [12, 15]);
  });

  it("GradScaler.step: reported unless the optimizer may be fused, and hedged when the scaler may be off", () => {
    const code = (scaler: string, optimizer: string) => py`
      import torch
      def train(model, loader, device, dtype, amp, grad_scaler):
          optimizer = ${optimizer}
          scaler = ${scaler}
          for x in loader:
              scaler.scale(model(x.to(device, non_blocking=True)).mean()).backward()
              scaler.step(optimizer)
              scaler.update()
    `;
    const messages = (scaler: string, optimizer: string) => lintSource(code(scaler, optimizer), { config: resolveConfig({ select: ["item-in-hot-path"] }, process.cwd()) }).findings.filter((f) => f.rule === "item-in-hot-path").map((f) => `${f.line}: ${f.message}`);
    // A scaler that may be off and an optimizer that may be fused (nanoGPT: bf16 when supported, `fused=True` when available).
    assert.deepStrictEqual(messages("torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))", "model.configure_optimizers(0.1)"), []);
    assert.deepStrictEqual(messages("torch.cuda.amp.GradScaler()", "torch.optim.AdamW(model.parameters(), fused=True)"), []);
    assert.deepStrictEqual(messages("torch.cuda.amp.GradScaler(enabled=False)", "torch.optim.AdamW(model.parameters())"), []);
    assert.deepStrictEqual(messages("grad_scaler", "model.configure_optimizers(0.1)"), []);
    const [enabled] = messages("torch.cuda.amp.GradScaler(enabled=True)", "torch.optim.AdamW(model.parameters(), fused=False)");
    assert.match(enabled, /^7: `scaler\.step\(optimizer\)` in the step loop .* waits for the GPU every step; an optimizer created with `fused=True`/);
    assert.match(messages("torch.amp.GradScaler('cuda')", "model.configure_optimizers(0.1)")[0], /^7: .*every step; /);
    assert.match(messages("torch.cuda.amp.GradScaler(enabled=amp)", "torch.optim.SGD(model.parameters(), lr=0.1)")[0], /^7: .*every step \(when AMP is enabled\);/);
    assert.match(messages("grad_scaler", "torch.optim.SGD(model.parameters(), lr=0.1)")[0], /^7: .*every step \(if `scaler` is an enabled `GradScaler`\);/);
    // nnU-Net: a scaler on a GPU, `None` elsewhere; both branches scalers, one on and one maybe off, say nothing sure.
    assert.match(messages("torch.amp.GradScaler('cuda') if device.type == 'cuda' else None", "model.configure_optimizers(0.1)")[0], /^7: .*every step; /);
    assert.match(messages("(torch.amp.GradScaler('cuda') if new else torch.cuda.amp.GradScaler()) if cuda else None", "model.configure_optimizers(0.1)")[0], /^7: .*every step; /);
    assert.deepStrictEqual(messages("torch.amp.GradScaler('cuda') if new else torch.cuda.amp.GradScaler(enabled=amp)", "model.configure_optimizers(0.1)"), []);
    // nanochat: a scaler only for float16, beside an optimizer made elsewhere, may well be off.
    assert.deepStrictEqual(messages("torch.amp.GradScaler() if dtype == torch.float16 else None", "model.configure_optimizers(0.1)"), []);
    assert.match(messages("torch.amp.GradScaler() if dtype == torch.float16 else None", "torch.optim.SGD(model.parameters(), lr=0.1)")[0], /^7: .*every step \(when AMP is enabled\);/);
  });

  it("GradScaler.get_scale() and state_dict() read the scale, also on a scaler passed in", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, loss_scaler, scheduler):
          for x in loader:
              loss_scaler.scale(model(x).mean()).backward()
              scale = loss_scaler.state_dict()["scale"]
              other = loss_scaler.get_scale()
              state = scheduler.state_dict()
    `;
    assert.deepStrictEqual(lines(code, "item-in-hot-path"), [5, 6]);
  });

  it("a scaler and an optimizer passed to the training function are what its callers in the file pass", () => {
    const code = (scaler: string) => py`
      import torch
      from utils import NativeScaler
      def train_one_epoch(model, loader, optimizer, fp16_scaler):
          for x in loader:
              fp16_scaler.scale(model(x).mean()).backward()
              fp16_scaler.step(optimizer)
              fp16_scaler.update()
      def main(model, loader, params, use_fp16):
          optimizer = torch.optim.AdamW(params)
          fp16_scaler = None
          if use_fp16:
              fp16_scaler = ${scaler}
          train_one_epoch(model, loader, optimizer, fp16_scaler=fp16_scaler)
    `;
    assert.deepStrictEqual(lines(code("torch.cuda.amp.GradScaler()"), "item-in-hot-path"), [6]);
    assert.deepStrictEqual(lines(code("torch.cuda.amp.GradScaler(enabled=False)"), "item-in-hot-path"), []);
    // Not a GradScaler: what its own methods do is for its file to say (cross-file hot paths).
    assert.deepStrictEqual(lines(code("NativeScaler()"), "item-in-hot-path"), []);
  });

  it("a scaler passed in and called with the loss and the optimizer (timm's NativeScaler in DeiT's engine) runs GradScaler.step", () => {
    const code = (setUp: string, call: string) => py`
      import torch
      from timm.utils import NativeScaler
      def train_one_epoch(model, criterion, loader, optimizer, device, loss_scaler, max_norm=None):
          ${setUp}
          for samples, targets in loader:
              with torch.cuda.amp.autocast():
                  loss = criterion(model(samples.to(device, non_blocking=True)), targets.to(device, non_blocking=True))
              optimizer.zero_grad()
              ${call}
    `;
    const run = (setUp: string, call: string) =>
      lintSource(code(setUp, call), { config: resolveConfig({ select: ["item-in-hot-path"] }, process.cwd()) }).findings.map((f) => `${f.line}:${f.column}: ${f.message}`);
    const deit = "loss_scaler(loss, optimizer, clip_grad=max_norm, parameters=model.parameters())";
    const [found, ...others] = run("model.train()", deit);
    assert.deepStrictEqual(others, []);
    assert.match(found, /^9:9: `loss_scaler\(loss, optimizer, clip_grad=…` in the step loop of `train_one_epoch\(\)` \(line 5\) runs `GradScaler\.step\(optimizer\)` inside the scaler's `__call__`.* every step \(if `loss_scaler` wraps an enabled `GradScaler`, as timm's `NativeScaler` does\);/);
    assert.strictEqual(run("model.train()", "grad_norm = loss_scaler(loss, optimizer)").length, 1);
    // Made in this file: the wrapper's own `__call__` is followed where the project has it, and reported there.
    assert.deepStrictEqual(run("loss_scaler = NativeScaler()", deit), []);
    // A fused optimizer made here lets GradScaler skip its `.item()`.
    assert.deepStrictEqual(run("optimizer = torch.optim.AdamW(model.parameters(), fused=True)", deit), []);
    // Not a scaler's call: one argument, a second argument that is no optimizer, a callee not named like a scaler.
    assert.deepStrictEqual(run("model.train()", "loss_scaler(loss)"), []);
    assert.deepStrictEqual(run("model.train()", "loss_scaler(loss, targets)"), []);
    assert.deepStrictEqual(run("model.train()", "criterion(loss, optimizer)"), []);
  });

  it("clip_grad_norm_ syncs only with error_if_nonfinite=True", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, device):
          for x in loader:
              model(x.to(device, non_blocking=True)).mean().backward()
              torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
              torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
              optimizer.step()
    `;
    assert.deepStrictEqual(lines(code, "implicit-host-read"), [6]);
  });
});
