import * as assert from "assert";
import { initParser } from "synclint-rules";
import { Analysed, analyse, findNode, py } from "../helpers";

/** The context of the node spanning `text` (its `occurrence`-th appearance). */
function contextAt(analysed: Analysed, text: string, occurrence = 0) {
  return analysed.analysis.contextOf(findNode(analysed, text, { occurrence }));
}

function kindAt(analysed: Analysed, text: string, occurrence = 0, type?: string) {
  return analysed.analysis.tensorEvidence(findNode(analysed, text, { occurrence, type })).kind;
}

/** The evidence kind of the identifier `name` that follows the anchor text `after`. */
function kindOfName(analysed: Analysed, name: string, after: string) {
  return analysed.analysis.tensorEvidence(findNode(analysed, name, { after, type: "identifier" })).kind;
}

describe("FileAnalysis", () => {
  before(() => initParser());

  describe("hot paths: contextOf", () => {
    const TRAIN = py`
      import torch
      def train(loader, model, optimizer, epochs):
          for epoch in range(epochs):
              for step, (x, y) in enumerate(loader):
                  loss = model(x).mean()
                  loss.backward()
                  optimizer.step()
                  hot_read = loss.item()
                  if step % 100 == 0:
                      periodic_read = loss.item()
                  if (step + 1) % 10 == 0:
                      plus_one_read = loss.item()
                  last = loss.item() if step == len(loader) - 1 else None
              epoch_read = loss.item()
          final_read = loss.item()
    `;

    it("the body of a step loop is hot, and `where` names the loop and its function", () => {
      const a = analyse(TRAIN);
      const context = contextAt(a, "hot_read = loss.item()");
      assert.strictEqual(context.hot, true);
      assert.strictEqual(context.where, "in the step loop of `train()` (line 4)");
      assert.strictEqual(context.frequency, "every step");
      assert.ok(context.loop, "the loop that makes it hot");
      assert.strictEqual(a.source.position(context.loop!.start).line + 1, 4);
      assert.match(context.reason, /the loop at line 4/);
    });

    it("periodic guards are cold and name the guard's line", () => {
      const a = analyse(TRAIN);
      for (const [text, line] of [["periodic_read = loss.item()", 9], ["plus_one_read = loss.item()", 11]] as const) {
        const context = contextAt(a, text);
        assert.strictEqual(context.hot, false, text);
        assert.strictEqual(context.reason, `it is under the periodic guard at line ${line}`, text);
        assert.strictEqual(context.where, "in `train()`");
      }
      const ternary = a.analysis.contextOf(findNode(a, "loss.item()", { occurrence: 3 }));
      assert.strictEqual(ternary.hot, false, "the consequence of a conditional expression with a last-step test");
    });

    it("code after the step loop in an epoch loop runs once per epoch; code after the epoch loop once", () => {
      const a = analyse(TRAIN);
      const epoch = contextAt(a, "epoch_read = loss.item()");
      assert.strictEqual(epoch.hot, false);
      assert.match(epoch.reason, /once per epoch: it is in the epoch loop at line 3, outside the step loop/);
      const final = contextAt(a, "final_read = loss.item()");
      assert.strictEqual(final.hot, false);
      assert.match(final.reason, /not inside a loop or a per-step function/);
    });

    it("classifies loops as step, epoch or other", () => {
      const a = analyse(py`
        import torch
        def train(loader, model, optimizer, epochs, names):
            for epoch in range(epochs):
                for x, y in loader:
                    optimizer.step()
            for name in names:
                print(name)
            while True:
                model(x).backward()
      `);
      const hp = a.analysis.hotPaths;
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for epoch")), "epoch");
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for x, y in loader")), "step");
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for name in names")), "other");
      assert.strictEqual(hp.loopKind(forLoopAt(a, "while True")), "step");
    });

    it("a loop around a step loop runs its own body once per run of that loop, unless it trains in its own body too", () => {
      const a = analyse(py`
        import torch
        def bench(model, optimizer, x):
            for stage, num_steps in enumerate([10, 20]):
                for k in range(num_steps):
                    model(x).mean().backward()
                    optimizer.step()
                torch.cuda.synchronize()
        def accumulate(model, optimizer, x, max_iters, accum_steps):
            for it in range(max_iters):
                for micro in range(accum_steps):
                    model(x).mean().backward()
                optimizer.step()
                per_update = model.loss.item()
      `);
      const hp = a.analysis.hotPaths;
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for stage")), "epoch");
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for k in")), "step");
      const sync = contextAt(a, "torch.cuda.synchronize()");
      assert.strictEqual(sync.hot, false);
      assert.match(sync.reason, /once per epoch: it is in the epoch loop at line 3, outside the step loop/);
      // The outer loop steps the optimizer itself: each of its iterations is a training step.
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for it in")), "step");
      assert.strictEqual(contextAt(a, "model.loss.item()").hot, true);
    });

    it("nested loops that do not train, loops under a periodic guard and micro-batch loops leave the outer loop a step loop", () => {
      const a = analyse(py`
        import torch
        import torch.nn as nn
        from engine import train_step
        class Refiner(nn.Module):
            def forward(self, x):
                for level in range(self.num_levels):
                    for t in range(self.num_steps):
                        x = self.block(x, t)
                    if x.abs().max().item() > 1e3:
                        x = x.clamp(-1e3, 1e3)
                return x
        def main(model, it, val_loader, optimizer, max_steps):
            for step in range(max_steps):
                loss = train_step(model, next(it), optimizer)
                running = loss.item()
                if step % 500 == 0:
                    for x in val_loader:
                        model(x)
        def accumulate(model, get_batch, optimizer, scheduler, max_steps, grad_accum_steps):
            for step in range(max_steps):
                for micro_step in range(grad_accum_steps):
                    loss = model(get_batch()).mean() / grad_accum_steps
                    loss.backward()
                    if micro_step == grad_accum_steps - 1:
                        optimizer.step()
                scheduler.step()
                logged = loss.item()
      `);
      assert.strictEqual(contextAt(a, "x.abs().max().item()").hot, true, "loops inside forward");
      assert.strictEqual(contextAt(a, "running = loss.item()").hot, true, "an evaluation loop every 500 steps");
      assert.strictEqual(contextAt(a, "logged = loss.item()").hot, true, "gradient-accumulation micro-batches");
    });

    it("an epoch loop stays one when a same-file helper only steps the optimizer, or when it also runs a step loop", () => {
      const a = analyse(py`
        import torch
        class Trainer:
            def optimizer_step(self):
                self.scaler.step(self.optimizer)
                self.optimizer.zero_grad()
            def train_epoch(self):
                for batch in self.train_loader:
                    self.scaler.scale(self.model(batch).mean()).backward()
                    self.optimizer_step()
            def fit(self):
                for epoch in range(self.epochs):
                    self.train_epoch()
                    self.optimizer_step()
                    print(self.evaluate().item())
      `);
      assert.strictEqual(a.analysis.hotPaths.loopKind(forLoopAt(a, "for epoch")), "epoch");
      assert.strictEqual(contextAt(a, "self.evaluate().item()").hot, false);
    });

    it("full-batch training: an `epoch` loop whose callee trains once per call is a step loop", () => {
      const a = analyse(py`
        import torch
        def train_once(model, optimizer, data):
            optimizer.zero_grad()
            loss = model(data).mean()
            loss.backward()
            optimizer.step()
            return loss
        def train_epoch(model, optimizer, loader):
            for x in loader:
                model(x).mean().backward()
                optimizer.step()
        def main(model, optimizer, data, loader, epochs):
            for epoch in range(epochs):
                loss = train_once(model, optimizer, data)
                per_step = loss.item()
            for epoch in range(epochs):
                train_epoch(model, optimizer, loader)
                per_epoch = model.loss.item()
      `);
      const hp = a.analysis.hotPaths;
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for epoch")), "step");
      assert.strictEqual(contextAt(a, "per_step = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "per_epoch = model.loss.item()").hot, false, "a callee with its own data loop runs an epoch");
      assert.strictEqual(contextAt(a, "loss.backward()").hot, true, "the callee runs once per step");
    });

    it("`range(steps_per_epoch)` counts steps, not epochs", () => {
      const a = analyse(py`
        import torch
        def rollout(agent, env, steps_per_epoch, num_batches_per_epoch):
            for t in range(steps_per_epoch):
                action = agent(env.obs)
                chosen = action.argmax().item()
            for b in range(num_batches_per_epoch):
                value = agent(env.obs).max().item()
      `);
      const hp = a.analysis.hotPaths;
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for t in")), "step");
      assert.strictEqual(hp.loopKind(forLoopAt(a, "for b in")), "step");
      assert.strictEqual(contextAt(a, "action.argmax().item()").hot, true);
    });

    it("an exception handler inside a step loop is cold and says why", () => {
      const a = analyse(py`
        import torch
        def train(loader, model, optimizer):
            for x, y in loader:
                try:
                    loss = model(x.cuda()).mean()
                    loss.backward()
                except RuntimeError:
                    print(loss.item())
                    continue
                optimizer.step()
                every_step = loss.item()
      `);
      const handler = contextAt(a, "print(loss.item())");
      assert.strictEqual(handler.hot, false);
      assert.strictEqual(handler.reason, "it runs only when the exception handled at line 7 is raised");
      assert.strictEqual(handler.where, "in `train()`");
      assert.strictEqual(contextAt(a, "every_step = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "loss = model(x.cuda()).mean()").hot, true, "the try body runs every step");
    });

    it("a modulo by gradient-accumulation micro-batches holds on every optimizer step: not a periodic guard", () => {
      const a = analyse(py`
        import torch
        def train(loader, model, optimizer, accum_steps, args):
            for i, (x, y) in enumerate(loader):
                loss = model(x).mean() / accum_steps
                loss.backward()
                if (i + 1) % accum_steps == 0:
                    optimizer.step()
                    per_update = loss.item()
                if i % args.gradient_accumulation_steps != 0:
                    continue
                after_continue = loss.item()
                if i % 100 == 0:
                    logged = loss.item()
                if (i + 1) % (args.gradient_accumulation_steps * args.logging_steps) == 0:
                    reported = loss.item()
      `);
      assert.strictEqual(contextAt(a, "per_update = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "after_continue = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "logged = loss.item()").hot, false, "a modulo by a constant still is");
      assert.strictEqual(contextAt(a, "reported = loss.item()").hot, false, "a modulo by a product of counts still is");
    });

    it("`forward` of a module, `*_step` methods and Lightning hooks are hot", () => {
      const a = analyse(py`
        import torch
        import torch.nn as nn
        import pytorch_lightning as pl
        class Net(nn.Module):
            def forward(self, x):
                return x.sum()
        class Lit(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                return batch.sum()
            def on_train_batch_end(self, outputs, batch, batch_idx):
                return outputs.mean()
            def configure_optimizers(self):
                return self.params.sum()
      `);
      const forward = contextAt(a, "x.sum()");
      assert.deepStrictEqual([forward.hot, forward.where, forward.frequency], [true, "in `Net.forward()`", "on every forward pass"]);
      const step = contextAt(a, "batch.sum()");
      assert.deepStrictEqual([step.hot, step.where, step.frequency], [true, "in `Lit.training_step()`", "every step"]);
      assert.strictEqual(contextAt(a, "outputs.mean()").hot, true);
      const configure = contextAt(a, "self.params.sum()");
      assert.deepStrictEqual([configure.hot, configure.where], [false, "in `Lit.configure_optimizers()`"]);
    });

    it("a same-file helper is hot when a hot path calls it, cold when called once", () => {
      const a = analyse(py`
        import torch
        def accumulate(t):
            return t.sum()
        def once(t):
            return t.mean()
        def train(loader, model):
            for batch in loader:
                accumulate(model(batch))
            once(model(batch))
      `);
      const hot = contextAt(a, "t.sum()");
      assert.strictEqual(hot.hot, true);
      assert.ok(hot.where.startsWith("in `accumulate()`, called at line 8 in the step loop of `train()` (line 7)"), hot.where);
      assert.match(hot.reason, /is called from a hot path/);
      const cold = contextAt(a, "t.mean()");
      assert.strictEqual(cold.hot, false);
      assert.match(cold.reason, /no hot path of this file or of the files linted with it calls it/);
    });

    it("call chains are followed through several helpers", () => {
      const a = analyse(py`
        import torch
        def inner(t):
            return t.norm()
        def middle(t):
            return inner(t)
        def outer(t):
            return middle(t)
        def train(loader, model):
            for batch in loader:
                outer(model(batch))
      `);
      assert.strictEqual(contextAt(a, "t.norm()").hot, true);
    });

    it("recursive helpers terminate and stay cold", () => {
      const a = analyse(py`
        import torch
        def walk(t, n):
            if n == 0:
                return t.sum()
            return walk(t, n - 1)
        def main(t):
            return walk(t, 3)
      `);
      assert.strictEqual(contextAt(a, "t.sum()").hot, false);
    });

    it("a nested loop in a step loop runs several times per step", () => {
      const a = analyse(py`
        import torch
        def train(loader, model):
            for batch in loader:
                for k, v in batch.items():
                    v.sum()
      `);
      const context = contextAt(a, "v.sum()");
      assert.strictEqual(context.hot, true);
      assert.strictEqual(context.frequency, "several times per step");
      assert.strictEqual(context.where, "in the loop at line 4, inside the step loop of `train()` (line 3)");
    });

    it("a loop inside forward inherits forward's frequency", () => {
      const a = analyse(py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, xs):
                for x in xs:
                    x.sum()
                return xs
      `);
      const context = contextAt(a, "x.sum()");
      assert.strictEqual(context.hot, true);
      assert.strictEqual(context.frequency, "several times per forward pass");
      assert.strictEqual(context.where, "in the loop at line 5 in `Net.forward()`");
    });

    it("the iterable of a comprehension runs once, its element expression per item", () => {
      const a = analyse(py`
        import torch
        def report(values):
            return [v.sum() for v in values.keys()]
      `);
      assert.strictEqual(contextAt(a, "v.sum()").hot, true);
      assert.strictEqual(contextAt(a, "values.keys()").hot, false);
    });

    it("`continue` guards and `and` guards are periodic, `or` needs both sides", () => {
      const a = analyse(py`
        import torch
        def train(loader, model, rank, max_steps):
            for step, batch in enumerate(loader):
                if step % 50 != 0:
                    continue
                after_continue = batch.sum()
            for it, batch in enumerate(loader):
                if rank == 0 and it % 10 == 0:
                    and_guard = batch.sum()
                if rank == 0 or it % 10 == 0:
                    or_not_guard = batch.sum()
                if it % 10 == 0 or it == max_steps:
                    or_guard = batch.sum()
      `);
      assert.strictEqual(contextAt(a, "after_continue = batch.sum()").hot, false);
      assert.strictEqual(contextAt(a, "and_guard = batch.sum()").hot, false);
      assert.strictEqual(contextAt(a, "or_not_guard = batch.sum()").hot, true);
      assert.strictEqual(contextAt(a, "or_guard = batch.sum()").hot, false);
    });

    it("early exits through `or`, `and`, flags and elapsed-time tests make the rest periodic only when each way out is", () => {
      const a = analyse(py`
        import time
        import torch
        def train(loader, model, every, enabled, rank):
            last_log = time.time()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if every < 1 or step % every != 0:
                    continue
                after_or = loss.item()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if not enabled or rank != 0:
                    continue
                after_or_without_period = loss.item()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                skip_batch = step % every != 0
                if skip_batch:
                    continue
                after_flag = loss.item()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if step % every != 0 and enabled:
                    continue
                after_and_one_side = loss.item()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                skip_batch = step % every != 0
                if skip_batch and time.time() - last_log < 30:
                    continue
                after_and_both_sides = loss.item()
                last_log = time.time()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                now = time.monotonic()
                if now - last_log >= 60:
                    timed_guard = loss.item()
                if now - last_log < 60:
                    inside_complement = loss.item()
      `);
      assert.strictEqual(contextAt(a, "after_or = loss.item()").hot, false);
      assert.match(contextAt(a, "after_or = loss.item()").reason, /periodic guard at line 7/);
      assert.strictEqual(contextAt(a, "after_or_without_period = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "after_flag = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "after_and_one_side = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "after_and_both_sides = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "timed_guard = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "inside_complement = loss.item()").hot, true);
    });

    it("a loop whose body always leaves on the first pass runs once; a branch that raises or exits runs at most once", () => {
      const a = analyse(py`
        import sys
        import torch
        def throughput(loader, model):
            for images, _ in loader:
                images = images.cuda(non_blocking=True)
                torch.cuda.synchronize()
                model(images)
                once = images.sum().item()
                return
        def train(loader, model):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if step > 10:
                    continue
                after_continue = loss.item()
                break
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                for part in batch:
                    if part is None:
                        continue
                    inner = loss.item()
                last_statement_is_break = loss.item()
                break
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if not torch.isfinite(loss):
                    print(loss.item())
                    sys.exit(1)
                if loss.isnan():
                    report = loss.item()
                    raise RuntimeError("nan")
                else:
                    every_step = loss.item()
      `);
      assert.strictEqual(contextAt(a, "once = images.sum().item()").hot, false);
      assert.match(contextAt(a, "once = images.sum().item()").reason, /not inside a loop/);
      assert.strictEqual(contextAt(a, "after_continue = loss.item()").hot, true, "a `continue` of the loop reaches the next pass");
      assert.strictEqual(contextAt(a, "last_statement_is_break = loss.item()").hot, false, "a nested loop's `continue` does not");
      assert.strictEqual(contextAt(a, "print(loss.item())").hot, false);
      assert.strictEqual(contextAt(a, "print(loss.item())").reason, "it runs at most once: its branch ends by `sys.exit()` at line 29");
      assert.strictEqual(contextAt(a, "report = loss.item()").reason, "it runs at most once: its branch ends by raising at line 32");
      assert.strictEqual(contextAt(a, "every_step = loss.item()").hot, true);
    });

    it("a branch that ends by `break` or `return` straight out of a step loop runs once; out of a loop inside the step, every step", () => {
      const a = analyse(py`
        import torch
        def train(loader, model, max_steps):
            step = 0
            while step < max_steps:
                batch = next(loader)
                loss = model(batch).mean()
                step += 1
                if batch.epoch >= 3:
                    final = loss.item()
                    break
                if step >= max_steps:
                    last = loss.item()
                    return loss
                for name in ("a", "b"):
                    if name in batch.skipped:
                        per_step = loss.item()
                        break
      `);
      assert.strictEqual(contextAt(a, "final = loss.item()").hot, false);
      assert.match(contextAt(a, "final = loss.item()").reason, /its branch ends by `break` at line 10/);
      assert.strictEqual(contextAt(a, "last = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "per_step = loss.item()").hot, true);
    });

    it("`== 0` on the counter of a loop around the step loop holds on every step of that pass: not a periodic guard", () => {
      const a = analyse(py`
        import torch
        def cross_validate(folds, model):
            for i, (train_loader, val_loader) in enumerate(folds):
                for step, batch in enumerate(train_loader):
                    out = model(batch)
                    if i == 0:
                        first_fold = out.sum().item()
                    if step == 0:
                        first_step = out.sum().item()
                    for k in range(3):
                        if step == 0:
                            nested_first_step = out.sum().item()
      `);
      assert.strictEqual(contextAt(a, "first_fold = out.sum().item()").hot, true);
      assert.strictEqual(contextAt(a, "first_step = out.sum().item()").hot, false);
      assert.strictEqual(contextAt(a, "nested_first_step = out.sum().item()").hot, false);
    });

    it("a branch that counts how often it ran, under `count < K`, runs at most K times", () => {
      const a = analyse(py`
        import torch
        def evaluate(loader, model):
            shown = 0
            for batch in loader:
                out = model(batch)
                if out.isnan().any() and shown < 5:
                    shown += 1
                    bounded = out.sum().item()
                if shown < 5 or out.isnan().any():
                    either = out.sum().item()
                if shown < 5:
                    not_counted_here = out.sum().item()
      `);
      assert.strictEqual(contextAt(a, "bounded = out.sum().item()").hot, false);
      assert.strictEqual(contextAt(a, "either = out.sum().item()").hot, true);
      assert.strictEqual(contextAt(a, "not_counted_here = out.sum().item()").hot, true);
    });

    it("a count of the loop's iterations, under `count < K`, holds on the first K iterations only", () => {
      const a = analyse(py`
        import torch
        def evaluate(loader, model):
            seen = 0
            for batch in loader:
                out = model(batch)
                seen += 1
                if seen < 10:
                    first_few = out.sum().item()
            for batch in loader:
                hits = 0
                out = model(batch)
                hits += 1
                if hits < 10:
                    reset_each_step = out.sum().item()
            total = 0
            for batch in loader:
                out = model(batch)
                if out.isnan().any():
                    total += 1
                if total < 10:
                    counted_sometimes = out.sum().item()
      `);
      assert.strictEqual(contextAt(a, "first_few = out.sum().item()").hot, false);
      assert.strictEqual(contextAt(a, "reset_each_step = out.sum().item()").hot, true);
      assert.strictEqual(contextAt(a, "counted_sometimes = out.sum().item()").hot, true);
    });

    it("a loop that passes a model to a function of the file that runs it (directly or one call further) is a step loop", () => {
      const a = analyse(py`
        import torch
        def sample(logits):
            return torch.multinomial(torch.softmax(logits, -1), 1)
        def next_token(model, x):
            logits = model(x)
            return sample(logits)
        def decode_step(model, x):
            return next_token(model, x)
        def describe(model, name):
            return f"{name}: {sum(p.numel() for p in model.parameters())}"
        def generate(model, prompt, steps):
            token = prompt
            for _ in range(steps - len(prompt)):
                token = decode_step(model, token)
                emitted = token.item()
        def report(model, names):
            for name in names:
                line = describe(model, name)
                shown = torch.ones(1).sum().item()
      `);
      assert.strictEqual(contextAt(a, "emitted = token.item()").hot, true);
      assert.match(contextAt(a, "emitted = token.item()").where, /step loop of `generate\(\)`/);
      assert.strictEqual(contextAt(a, "torch.multinomial").hot, true);
      assert.notStrictEqual(contextAt(a, "shown = torch.ones(1).sum().item()").frequency, "every step");
    });

    it("a function whose only loop goes over the micro-batches of one step runs once per step when a step loop calls it", () => {
      const a = analyse(py`
        import torch
        def forward_backward(model, data, microbatch):
            batch, extra = next(data)
            labels = extra["y"].to("cuda")
            for i, (sub_batch, sub_labels) in enumerate(split_microbatches(microbatch, batch, labels)):
                loss = model(sub_batch, sub_labels).mean()
                loss.backward()
        def train(model, data, optimizer, iterations):
            for step in range(iterations):
                forward_backward(model, data, 4)
                optimizer.step()
      `);
      assert.strictEqual(contextAt(a, `extra["y"].to("cuda")`).hot, true);
      assert.match(contextAt(a, `extra["y"].to("cuda")`).where, /called at line 10 in the step loop of `train\(\)`/);
    });

    it("a branch on a parameter that every call of the file passes alike (or leaves at its default) never runs when they fix it otherwise", () => {
      const a = analyse(py`
        import torch
        def top_k(logits, labels, k, reduction="mean"):
            hits = (logits.topk(k).indices == labels[:, None]).float().sum(-1)
            if reduction == "mean":
                return hits.mean().item()
            elif reduction != 'none':
                return hits.sum().item()
            return hits
        def scale(x, factor=1):
            if factor != 1.0:
                return x * factor.item()
            return x
        def train(loader, model):
            for x, y in loader:
                logits = model(x.cuda())
                top1 = top_k(logits, y, k=1, reduction='none')
                top5 = top_k(logits, y, k=5, reduction="none")
                scaled = scale(logits)
      `);
      assert.strictEqual(contextAt(a, "hits.mean().item()").hot, false);
      assert.match(contextAt(a, "hits.mean().item()").reason, /passes `reduction=/);
      assert.strictEqual(contextAt(a, "hits.sum().item()").hot, false);
      assert.strictEqual(contextAt(a, "factor.item()").hot, false);
      const b = analyse(py`
        import torch
        def top_k(logits, labels, k, reduction="mean"):
            if reduction == "mean":
                return logits.mean().item()
            return logits
        def train(loader, model):
            for x, y in loader:
                logits = model(x.cuda())
                top1 = top_k(logits, y, 1, reduction="none")
                top5 = top_k(logits, y, 5)
      `);
      assert.strictEqual(contextAt(b, "logits.mean().item()").hot, true);
    });

    it("`continue` until a count passes the mark the loop last set by an interval makes the rest of the loop periodic", () => {
      const a = analyse(py`
        import torch
        def training_loop(loader, model, total_kimg, kimg_per_tick, batch_size):
            cur_nimg = 0
            cur_tick = 0
            tick_start_nimg = cur_nimg
            for images in loader:
                loss = model(images.cuda()).mean()
                loss.backward()
                cur_nimg += batch_size
                done = (cur_nimg >= total_kimg * 1000)
                if (not done) and (cur_tick != 0) and (cur_nimg < tick_start_nimg + kimg_per_tick * 1000):
                    continue
                per_tick = loss.item()
                cur_tick += 1
                tick_start_nimg = cur_nimg
            for images in loader:
                loss = model(images.cuda()).mean()
                cur_nimg += batch_size
                if cur_nimg < start_nimg + kimg_per_tick * 1000:
                    continue
                never_marked = loss.item()
      `);
      assert.strictEqual(contextAt(a, "per_tick = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "never_marked = loss.item()").hot, true);
    });

    it("a modulo by 1, or by a name the file sets once to 1 (`log_interval = 1`), holds on every step: not a periodic guard", () => {
      const a = analyse(py`
        import torch
        log_interval = 1
        eval_interval = 1
        eval_interval = 100
        def train(loader, model):
            for iter_num, batch in enumerate(loader):
                loss = model(batch.cuda()).mean()
                if iter_num % log_interval == 0:
                    logged = loss.item()
                if iter_num % 1 == 0:
                    literal = loss.item()
                if iter_num % eval_interval == 0:
                    periodic = loss.item()
      `);
      assert.strictEqual(contextAt(a, "logged = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "literal = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "periodic = loss.item()").hot, false);
    });

    it("`compute_loss` runs once per training step (a Hugging Face Trainer's hook)", () => {
      const a = analyse(py`
        import torch
        from transformers import Trainer
        class MyTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                outputs = model(**inputs)
                self.seen = (inputs["attention_mask"].sum()).item()
                return outputs.loss
      `);
      const context = contextAt(a, `(inputs["attention_mask"].sum()).item()`);
      assert.strictEqual(context.hot, true);
      assert.strictEqual(context.frequency, "every step");
    });

    it("an evaluation loop that a training loop runs only every N steps (inline or in a function) is not per step", () => {
      const a = analyse(py`
        import torch
        def sample_images(generator, val_loader):
            for imgs in val_loader:
                fake = generator(imgs.cuda())
                shown = fake.mean().item()
        def evaluate(model, val_loader):
            for x in val_loader:
                per_epoch = model(x.cuda()).mean().item()
        def train(model, generator, loader, val_loader, epochs, every):
            for epoch in range(epochs):
                for step, x in enumerate(loader):
                    loss = model(x.cuda()).mean()
                    loss.backward()
                    if step % every == 0:
                        for _ in range(20):
                            inline = model(next(val_loader).cuda()).mean().item()
                        sample_images(generator, val_loader)
                evaluate(model, val_loader)
      `);
      assert.strictEqual(contextAt(a, "inline = model(next(val_loader).cuda()).mean().item()").hot, false);
      assert.match(contextAt(a, "inline = model(next(val_loader).cuda()).mean().item()").reason, /its loop at line 15 runs only under the periodic guard at line 14 of the step loop at line 11/);
      assert.strictEqual(contextAt(a, "shown = fake.mean().item()").hot, false);
      assert.strictEqual(contextAt(a, "per_epoch = model(x.cuda()).mean().item()").hot, true);
    });

    it("a branch that clears its own flag, which the loop never sets again, runs on the first iteration only", () => {
      const a = analyse(py`
        import torch
        def generate(model, prompt, steps, device):
            prefill = True
            for _ in range(steps):
                logits = model(prompt)
                if prefill:
                    prefill = False
                    first_only = torch.tensor([3], device=device)
                warm = True
                if warm:
                    warm = False
                    every_time = torch.tensor([3], device=device)
      `);
      assert.strictEqual(contextAt(a, "first_only = torch.tensor([3], device=device)").hot, false);
      assert.strictEqual(contextAt(a, "every_time = torch.tensor([3], device=device)").hot, true);
    });

    it("a loop over a model's weights or an optimizer's groups outside per-step code is a checkpoint or a set-up, not a step", () => {
      const a = analyse(py`
        import torch
        def export(model, path):
            params = {name: p.cpu() for name, p in model.named_parameters()}
            state = model.state_dict()
            for key, value in sorted(state.items()):
                exported = value.cpu()
            for group in optimizer.param_groups:
                group["lr"] = torch.tensor(float(group["lr"]), device="cuda")
            for chunk in torch.split(model.weight, 4):
                plain = chunk.cpu()
        def train(loader, model, optimizer):
            for batch in loader:
                loss = model(batch.cuda()).mean()
                for p in model.parameters():
                    per_step = p.grad.norm().item()
      `);
      assert.strictEqual(contextAt(a, "p.cpu()").hot, false);
      assert.match(contextAt(a, "p.cpu()").reason, /goes over a model's weights/);
      assert.strictEqual(contextAt(a, "exported = value.cpu()").hot, false);
      assert.strictEqual(contextAt(a, `torch.tensor(float(group["lr"]), device="cuda")`).hot, false);
      assert.strictEqual(contextAt(a, "plain = chunk.cpu()").hot, true);
      assert.strictEqual(contextAt(a, "per_step = p.grad.norm().item()").hot, true);
    });

    it("a call of a same-file helper that returns a periodic test is a periodic guard", () => {
      const a = analyse(py`
        import torch
        def divisible_by(numer, denom):
            """True every denom steps."""
            return (numer % denom) == 0
        def is_positive(x):
            return x > 0
        def unset_or_large(v):
            return v is None or v > 1
        def train(loader, model, every):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if step != 0 and divisible_by(step, every):
                    saved = loss.item()
                if not divisible_by(step, every):
                    continue
                after_skip = loss.item()
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if is_positive(step):
                    not_periodic = loss.item()
                if unset_or_large(step):
                    not_an_initialisation = loss.item()
      `);
      assert.strictEqual(contextAt(a, "not_an_initialisation = loss.item()").hot, true);
      assert.strictEqual(contextAt(a, "saved = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "after_skip = loss.item()").hot, false);
      assert.strictEqual(contextAt(a, "not_periodic = loss.item()").hot, true);
    });

    it("isPeriodic recognises counters, moduli, last-step tests and flag names", () => {
      const a = analyse(py`
        import torch
        def train(loader, step, i, batch_idx, rank, x, is_last_step, should_log, j, log_every):
            a1 = step % 100 == 0
            a2 = (i + 1) % log_every == 0
            a3 = i == len(loader) - 1
            a4 = batch_idx == 0
            a5 = is_last_step
            a6 = should_log
            a7 = not step % 10
            b1 = step % 100
            b2 = rank == 0
            b3 = x > 0
            b4 = i == j
            b5 = step % 100 != 0
      `);
      const hp = a.analysis.hotPaths;
      const periodic = (name: string) => {
        const assignment = findNode(a, name, { type: "identifier" }).parent!;
        return hp.isPeriodic(assignment.children.find((c) => c.field === "right")!);
      };
      for (const name of ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]) assert.strictEqual(periodic(name), true, name);
      for (const name of ["b1", "b2", "b3", "b4", "b5"]) assert.strictEqual(periodic(name), false, name);
    });

    it("compiled functions and CUDA-graph captures are marked", () => {
      const a = analyse(py`
        import torch
        @torch.compile
        def fused(x):
            return x.sum()
        def capture(model, static_x):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = model(static_x)
            after = out.mean()
      `);
      const compiled = contextAt(a, "x.sum()");
      assert.deepStrictEqual([compiled.hot, compiled.compiled, compiled.where], [true, "torch.compile", "in the compiled function `fused()`"]);
      const captured = contextAt(a, "model(static_x)");
      assert.deepStrictEqual([captured.hot, captured.compiled, captured.where], [true, "cuda-graph", "inside the CUDA-graph capture at line 7"]);
      const after = contextAt(a, "out.mean()");
      assert.strictEqual(after.compiled, undefined);
      assert.strictEqual(after.hot, false);
    });

    it("extraStepFunctions makes a named function hot", () => {
      const code = py`
        import torch
        def run_batch(model, batch):
            return model(batch).sum()
      `;
      assert.strictEqual(contextAt(analyse(code), "model(batch).sum()").hot, false);
      const configured = contextAt(analyse(code, ["run_batch"]), "model(batch).sum()");
      assert.strictEqual(configured.hot, true);
      assert.match(configured.reason, /extra-step-functions/);
    });

    it("module top level is cold", () => {
      const a = analyse(py`
        import torch
        x = torch.ones(3)
        y = x.sum()
      `);
      const context = contextAt(a, "x.sum()");
      assert.deepStrictEqual([context.hot, context.where], [false, "at the module's top level"]);
    });

    it("contextOf is memoised per node", () => {
      const a = analyse(TRAIN);
      const node = findNode(a, "hot_read = loss.item()");
      assert.strictEqual(a.analysis.contextOf(node), a.analysis.contextOf(node));
    });
  });

  describe("device mentions", () => {
    const trainLoop = (extra: string) => py`
      import torch
      ${extra}
      def train(loader, model, optimizer):
          for x, y in loader:
              loss = model(x).mean()
              loss.backward()
              optimizer.step()
              value = loss.item()
    `;
    it("a file that mentions XLA assumes its tensors are on an accelerator; `plt.xlabel` is no mention", () => {
      for (const [extra, expected] of [
        ["import torch_xla.core.xla_model as xm", true],
        ["device = xm.xla_device()", true],
        ["plt.xlabel('step')", false],
        ["XLABEL = 'x'", false],
      ] as const) {
        const a = analyse(trainLoop(extra));
        assert.strictEqual(a.analysis.mentionsDevice, expected, extra);
        assert.strictEqual(a.analysis.assumesGpu(findNode(a, "loss.item()")), expected, extra);
      }
    });
  });

  describe("tensor evidence", () => {
    it("a name tested with `isinstance(name, torch.Tensor)` is a tensor where the test holds, whatever its name says (`def scalar(data)` of `import torch as t`), unless it is bound again after the test", () => {
      const a = analyse(py`
        import numpy as np
        import torch as t
        def scalar(data):
            if isinstance(data, np.ndarray):
                return data.reshape(1)[0]
            if isinstance(data, t.Tensor):
                return data.item()
            return data
        def rebound(data):
            if isinstance(data, t.Tensor):
                data = data.tolist()
                return len(data)
        def on_host(values):
            host = t.from_numpy(values)
            if isinstance(host, t.Tensor):
                return host.sum()
      `);
      assert.strictEqual(kindOfName(a, "data", "def scalar(data):\n    if isinstance(data, np.ndarray):\n        return data.reshape(1)[0]\n    if isinstance(data, t.Tensor):"), "tensor");
      assert.strictEqual(kindOfName(a, "data", "return data.item()"), "loader", "past the test, the name decides");
      assert.notStrictEqual(kindOfName(a, "data", "return len("), "tensor");
      assert.strictEqual(kindOfName(a, "host", "if isinstance(host, t.Tensor):\n        return "), "cpu", "the binding tells the device: the test adds nothing");
    });

    it("a call of a function of the file that returns one of its parameters is what the call passes for it (`layer_init(nn.Linear(...), std=0.01)`)", () => {
      const a = analyse(py`
        import torch
        import torch.nn as nn
        def layer_init(layer, std=1.0, bias_const=0.0):
            torch.nn.init.orthogonal_(layer.weight, std)
            return layer
        def wrap(layer):
            layer = nn.Sequential(layer)
            return layer
        class Agent(nn.Module):
            def __init__(self):
                super().__init__()
                self.actor = layer_init(nn.Linear(512, 6), std=0.01)
                self.critic = layer_init(layer=nn.Linear(512, 1))
            def forward(self, x):
                logits = self.actor(x)
                value = self.critic(x)
                return logits, value
      `);
      assert.strictEqual(kindAt(a, "layer_init(nn.Linear(512, 6), std=0.01)"), "module");
      assert.strictEqual(kindAt(a, "layer_init(layer=nn.Linear(512, 1))"), "module");
      assert.strictEqual(kindOfName(a, "logits", "return "), "gpu");
      assert.strictEqual(kindOfName(a, "value", "return logits, "), "gpu");
    });

    it("loader batches are host batches; moved batches are on the GPU", () => {
      const a = analyse(py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                moved = x.to(device)
                cuda = y.cuda()
                out = model(moved)
                on_cpu = out.cpu()
                host = out.detach().cpu().numpy()
                values = out.tolist()
      `);
      assert.strictEqual(kindAt(a, "x", 0, "identifier"), "batch");
      assert.strictEqual(kindAt(a, "x.to(device)"), "gpu");
      assert.strictEqual(kindAt(a, "y.cuda()"), "gpu");
      assert.strictEqual(kindAt(a, "model(moved)"), "gpu");
      assert.strictEqual(kindAt(a, "out.cpu()"), "cpu");
      assert.strictEqual(kindAt(a, "out.detach().cpu().numpy()"), "numpy");
      assert.strictEqual(kindAt(a, "out.tolist()"), "container");
      assert.strictEqual(kindAt(a, "loader", 1, "identifier"), "loader");
      assert.strictEqual(kindAt(a, "model", 1, "identifier"), "module");
    });

    it("`.item()` of anything is a Python number, and so is an optimizer's hyperparameter", () => {
      const a = analyse(py`
        import torch
        def log(value, optimizer, metrics):
            number = value.item()
            lr = optimizer.param_groups[0]["lr"]
            chosen = metrics.item(3)
            max_lr = 0.0
            for group in optimizer.param_groups:
                max_lr = max(max_lr, group["lr"])
            for entry in metrics:
                other = entry["lr"]
            last = max_lr
      `);
      assert.strictEqual(kindAt(a, "value.item()"), "scalar");
      assert.strictEqual(kindAt(a, 'optimizer.param_groups[0]["lr"]'), "scalar");
      assert.strictEqual(kindAt(a, 'group["lr"]'), "scalar");
      assert.strictEqual(kindAt(a, "max_lr", 3, "identifier"), "scalar");
      assert.strictEqual(kindAt(a, 'entry["lr"]'), "unknown");
      assert.strictEqual(kindAt(a, "metrics.item(3)"), "unknown");
    });

    it("enumerate counters, zip and tqdm wrappers", () => {
      const a = analyse(py`
        import torch
        from tqdm import tqdm
        def train(loader, aux_loader):
            for i, (x, y) in enumerate(tqdm(loader)):
                a = i
                b = x
            for p, q in zip(loader, aux_loader):
                c = q
      `);
      assert.strictEqual(kindOfName(a, "i", "a = "), "scalar");
      assert.strictEqual(kindOfName(a, "x", "b = "), "batch");
      assert.strictEqual(kindOfName(a, "q", "c = "), "batch");
    });

    it("numpy values, Python scalars, containers and namespaces", () => {
      const a = analyse(py`
        import torch
        import numpy as np
        import math
        def f(x: torch.Tensor, items):
            arr = np.zeros(3)
            n = x.shape[0]
            size = x.size(0)
            length = len(items)
            pair = [1, 2]
            root = math.sqrt(2)
            flag = x is None
            dtype = x.dtype
            return arr, n, size, length, pair, root, flag, dtype, np
      `);
      assert.strictEqual(kindAt(a, "np.zeros(3)"), "numpy");
      assert.strictEqual(kindAt(a, "x.shape[0]"), "scalar");
      assert.strictEqual(kindAt(a, "x.size(0)"), "scalar");
      assert.strictEqual(kindAt(a, "len(items)"), "scalar");
      assert.strictEqual(kindAt(a, "[1, 2]"), "container");
      assert.strictEqual(kindAt(a, "math.sqrt(2)"), "scalar");
      assert.strictEqual(kindAt(a, "x is None"), "scalar");
      assert.strictEqual(kindAt(a, "x.dtype"), "scalar");
      assert.strictEqual(kindAt(a, "np", 2, "identifier"), "namespace");
    });

    it("annotated parameters", () => {
      const a = analyse(py`
        import torch
        import numpy as np
        from torch.utils.data import DataLoader
        def f(t: torch.Tensor, o: "Optional[Tensor]", arr: np.ndarray, k: int, dl: DataLoader, m: torch.nn.Module):
            return t, o, arr, k, dl, m
      `);
      const returned = (name: string) => kindOfName(a, name, "return ");
      assert.strictEqual(returned("t"), "tensor");
      assert.strictEqual(returned("o"), "tensor");
      assert.strictEqual(returned("arr"), "numpy");
      assert.strictEqual(returned("k"), "scalar");
      assert.strictEqual(returned("dl"), "loader");
      assert.strictEqual(returned("m"), "module");
    });

    it("factory functions: CPU without device=, GPU with it, *_like follows its source", () => {
      const a = analyse(py`
        import torch
        def f(device, gpu_tensor: torch.Tensor, arr):
            cpu = torch.zeros(3)
            gpu = torch.zeros(3, device="cuda")
            var = torch.ones(3, device=device)
            explicit_cpu = torch.ones(3, device="cpu")
            like = torch.zeros_like(gpu)
            from_np = torch.from_numpy(arr)
            loaded = torch.load("ckpt.pt", map_location="cpu")
            return cpu, gpu, var, explicit_cpu, like, from_np, loaded
      `);
      assert.strictEqual(kindAt(a, "torch.zeros(3)"), "cpu");
      assert.strictEqual(kindAt(a, 'torch.zeros(3, device="cuda")'), "gpu");
      assert.strictEqual(kindAt(a, "torch.ones(3, device=device)"), "gpu");
      assert.strictEqual(kindAt(a, 'torch.ones(3, device="cpu")'), "cpu");
      assert.strictEqual(kindAt(a, "torch.zeros_like(gpu)"), "gpu");
      assert.strictEqual(kindAt(a, "torch.from_numpy(arr)"), "cpu");
      assert.strictEqual(kindAt(a, 'torch.load("ckpt.pt", map_location="cpu")'), "cpu");
    });

    it("set_default_device makes factories possibly GPU", () => {
      const a = analyse(py`
        import torch
        torch.set_default_device("cuda")
        z = torch.zeros(3)
      `);
      assert.strictEqual(kindAt(a, "torch.zeros(3)"), "tensor");
      // nerf-pytorch names the CUDA tensor type in a string: `torch.randperm(n)` is then no CPU index.
      for (const setting of ["torch.set_default_tensor_type('torch.cuda.FloatTensor')", "torch.set_default_tensor_type(torch.cuda.FloatTensor)"]) {
        const typed = analyse(py`
          import torch
          ${setting}
          z = torch.zeros(3)
        `);
        assert.strictEqual(kindAt(typed, "torch.zeros(3)"), "tensor", setting);
      }
      const host = analyse(py`
        import torch
        torch.set_default_tensor_type('torch.DoubleTensor')
        z = torch.zeros(3)
      `);
      assert.strictEqual(kindAt(host, "torch.zeros(3)"), "cpu");
    });

    it("module classes, their outputs, parameters and buffers", () => {
      const a = analyse(py`
        import torch
        import torch.nn as nn
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(4, 4)
                self.scale = nn.Parameter(torch.ones(4))
                self.register_buffer("mask", torch.ones(4, 4))
            def forward(self, x):
                h = self.proj(x)
                return h * self.scale + self.mask.sum()
        def train(model, loader, criterion):
            block = Block()
            for p in model.parameters():
                p.grad
            for name, w in model.named_parameters():
                name.upper()
            for x, y in loader:
                loss = criterion(model(x), y)
      `);
      assert.strictEqual(kindAt(a, "nn.Linear(4, 4)"), "module");
      assert.strictEqual(kindAt(a, "self.proj(x)"), "gpu");
      assert.strictEqual(kindAt(a, "self.scale", 1, "attribute"), "tensor");
      assert.strictEqual(kindAt(a, "self.mask", 0, "attribute"), "tensor");
      assert.strictEqual(kindOfName(a, "x", "self.proj("), "tensor", "an input of forward");
      assert.strictEqual(kindOfName(a, "self", "return h * "), "self");
      assert.strictEqual(kindAt(a, "Block()"), "module");
      assert.strictEqual(kindAt(a, "p.grad"), "gpu");
      assert.strictEqual(kindOfName(a, "name", "named_parameters():\n"), "scalar");
      assert.strictEqual(kindAt(a, "criterion(model(x), y)"), "gpu");
    });

    it("Lightning steps receive GPU batches and scalar indices", () => {
      const a = analyse(py`
        import torch
        import pytorch_lightning as pl
        class Lit(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                return batch, batch_idx
      `);
      assert.strictEqual(kindOfName(a, "batch", "return "), "gpu");
      assert.strictEqual(kindOfName(a, "batch_idx", "return batch, "), "scalar");
    });

    it("bindings take effect after their statement and follow the latest assignment", () => {
      const a = analyse(py`
        import torch
        def f(loader, device):
            for x in loader:
                x = x.to(device)
                y = x
                x = x.cpu()
                z = x
      `);
      assert.strictEqual(kindOfName(a, "x", "x = "), "batch", "the receiver of the first .to() is the batch");
      assert.strictEqual(kindOfName(a, "x", "y = "), "gpu");
      assert.strictEqual(kindOfName(a, "x", "z = "), "cpu");
    });

    it("unknown values stay unknown, and importsTorch is detected", () => {
      const withTorch = analyse(py`
        import torch
        def f(thing):
            return thing.frobnicate()
      `);
      assert.strictEqual(kindAt(withTorch, "thing.frobnicate()"), "unknown");
      assert.strictEqual(withTorch.analysis.importsTorch, true);
      assert.strictEqual(analyse("from torch import nn\n").analysis.importsTorch, true);
      assert.strictEqual(analyse("import torchvision\n").analysis.importsTorch, false);
      assert.strictEqual(analyse("import numpy as np\n# import torch\n").analysis.importsTorch, false);
    });

    it("returns of same-file functions carry their evidence", () => {
      const a = analyse(py`
        import torch
        def make(device):
            return torch.zeros(3, device=device)
        def use(device):
            t = make(device)
            return t
      `);
      assert.strictEqual(kindAt(a, "make(device)", 1), "gpu");
    });

    it("Hugging Face style outputs: `.logits` and `.loss` of a model output", () => {
      const a = analyse(py`
        import torch
        def f(model, batch):
            outputs = model(**batch)
            return outputs.logits, outputs.loss
      `);
      assert.strictEqual(kindAt(a, "outputs.logits"), "gpu");
      assert.strictEqual(kindAt(a, "outputs.loss"), "gpu");
    });

    it("legacy constructors (`torch.Tensor(obs)`) and window functions build on the host; `.to(d)` to a device of unknown kind is no longer known to be there", () => {
      const a = analyse(py`
        import torch
        def act(model, obs, d):
            x = torch.Tensor(obs)
            ids = torch.LongTensor([1, 2])
            window = torch.hann_window(400)
            moved = torch.FloatTensor(obs).to(device=d)
            cast = torch.FloatTensor(obs).to(torch.float16)
            return model(x)
      `);
      assert.strictEqual(kindAt(a, "torch.Tensor(obs)"), "cpu");
      assert.strictEqual(kindAt(a, "torch.LongTensor([1, 2])"), "cpu");
      assert.strictEqual(kindAt(a, "torch.hann_window(400)"), "cpu");
      assert.strictEqual(kindAt(a, "torch.FloatTensor(obs).to(device=d)"), "tensor");
      assert.strictEqual(kindAt(a, "torch.FloatTensor(obs).to(torch.float16)"), "cpu");
      const defaultChanged = analyse(py`
        import torch
        torch.set_default_device("cuda")
        x = torch.Tensor([1.0])
      `);
      assert.strictEqual(kindAt(defaultChanged, "torch.Tensor([1.0])"), "tensor");
    });

    it("a name tested as a Python number (`isinstance(v, (int, float))`, `type(step) is int`) is one where the test holds", () => {
      const a = analyse(py`
        import torch
        def stage(step: torch.Tensor, value, total):
            if type(step) is int:
                first = step + 1
            else:
                second = step + 1
            if isinstance(value, (int, float)) and value > 0:
                third = value * 2
            if isinstance(value, (int, torch.Tensor)):
                fourth = value * 2
            return total
      `);
      assert.strictEqual(kindAt(a, "step + 1", 0), "scalar");
      assert.strictEqual(kindAt(a, "step + 1", 1), "tensor");
      assert.strictEqual(kindOfName(a, "value", "and "), "scalar");
      assert.strictEqual(kindAt(a, "value * 2", 0), "scalar");
      assert.notStrictEqual(kindAt(a, "value * 2", 1), "scalar");
    });

    it("evidence carries a human-readable reason", () => {
      const a = analyse(py`
        import torch
        def f(model, x):
            return model(x)
      `);
      const evidence = a.analysis.tensorEvidence(findNode(a, "model(x)"));
      assert.strictEqual(evidence.kind, "gpu");
      assert.strictEqual(evidence.reason, "the output of `model(...)`");
    });
  });
});

/** The loop statement whose text starts with `prefix`. */
function forLoopAt(a: Analysed, prefix: string) {
  const start = a.source.text.indexOf(prefix);
  if (start < 0) throw new Error(`no ${prefix}`);
  const stack = [a.tree.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ((node.type === "for_statement" || node.type === "while_statement") && node.start === start) return node;
    stack.push(...node.children);
  }
  throw new Error(`no loop at ${prefix}`);
}
