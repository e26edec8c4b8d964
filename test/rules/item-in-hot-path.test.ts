import * as assert from "assert";
import { initParser, lintSource } from "synclint-rules";
import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("item-in-hot-path", {
  valid: [
    {
      name: "a file of another framework with the same names (Paddle's `loss.backward()`, `.cuda()`) is not PyTorch code",
      code: py`
        import paddle
        from engine import Engine
        class MyEngine(Engine):
            def forward_backward(self, data):
                imgs = data.cuda()
                loss = self.compute_loss(self.model(imgs))
                self.optimizer.clear_grad()
                loss.backward()
                self.optimizer.step()
                return {"loss": loss.item()}
      `,
    },
    {
      name: "a loop in a reference implementation that only the file's test functions call (mamba's `*_ref_varlen` kernels' references)",
      code: py`
        import torch
        def segsum_ref_varlen(x, cu_seqlens):
            out = []
            for i in range(cu_seqlens.numel() - 1):
                start = int(cu_seqlens[i].item())
                end = int(cu_seqlens[i + 1].item())
                out.append(x[start:end].cumsum(0))
            return torch.cat(out)
        def test_segsum_varlen():
            x = torch.randn(64, device="cuda")
            cu_seqlens = torch.tensor([0, 10, 64], device="cuda")
            torch.testing.assert_close(segsum_ref_varlen(x, cu_seqlens), segsum_ref_varlen(x, cu_seqlens))
      `,
    },
    {
      name: "a branch taken once a time interval has passed (`if eval_delta > config.eval_every_seconds:`) runs now and then, not every step",
      code: py`
        import torch
        def train(model, loader, optimizer, timer, config):
            for x, y in loader:
                loss = model(x.cuda(non_blocking=True), y.cuda(non_blocking=True))
                loss.backward()
                optimizer.step()
                eval_delta = timer.elapsed()
                if eval_delta > config.data.eval_every_seconds:
                    print(loss.item())
                    timer.reset()
      `,
    },
    {
      name: "what a tokenizer returns (`self.tokenizer(text, return_tensors=\"pt\")`) is in host memory",
      code: py`
        import torch
        def score(model, tokenizer, prompts):
            for prompt in prompts:
                ids = tokenizer(prompt, return_tensors="pt").input_ids
                logits = model(ids.cuda(non_blocking=True))
                print(ids.sum().item(), logits.shape)
      `,
    },
    {
      name: "a plain loader reaches the training function as a parameter, and is cycled over: its batches stay on the host",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from litgpt.utils import CycleIterator

        def fit(model, optimizer, train_dataloader: DataLoader, max_steps: int):
            train_iterator = CycleIterator(train_dataloader)
            tokens = 0
            for step in range(max_steps):
                batch = next(train_iterator)
                loss = model(batch["input_ids"].cuda(non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                tokens += batch["token_counts"].sum().item()

        def main(model, optimizer, dataset):
            fit(model, optimizer, train_dataloader=DataLoader(dataset, pin_memory=True), max_steps=100)
      `,
    },
    {
      name: "a batch element that the loop leaves on the host while it moves another of the same batch to the device",
      code: py`
        import torch
        def evaluate(loader, model, device, metric_logger):
            results = []
            for n, (image, question, question_id) in enumerate(metric_logger.log_every(loader, 50)):
                image = image.to(device, non_blocking=True)
                answers = model(image, question)
                for answer, qid in zip(answers, question_id):
                    results.append((int(qid.item()), answer))
      `,
    },
    {
      name: "CPU tensor built without device= is not a GPU read",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for x, y in loader:
                counts = torch.zeros(3)
                n = counts.sum().item()
      `,
    },
    {
      name: "the result of .cpu() is on the host",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x)
                v = loss.detach().cpu().item()
      `,
    },
    {
      name: "numpy look-alikes: np.float64(...).item() and array reductions",
      code: py`
        import torch
        import numpy as np
        def train(loader, model):
            for x, y in loader:
                a = np.float64(3.0).item()
                arr = np.zeros(4)
                b = arr.sum().item()
      `,
    },
    {
      name: "periodic guard `if step % 100 == 0:`",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for step, (x, y) in enumerate(loader):
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
                if step % 100 == 0:
                    print(loss.item())
      `,
    },
    {
      name: "periodic guard `if (i + 1) % log_every == 0:`",
      code: py`
        import torch
        def train(loader, model, optimizer, log_every):
            for i, batch in enumerate(loader):
                loss = model(batch).mean()
                loss.backward()
                optimizer.step()
                if (i + 1) % log_every == 0:
                    print(loss.item())
      `,
    },
    {
      name: "periodic guard on the right of `and`",
      code: py`
        import torch
        def train(loader, model, optimizer, rank):
            for it, batch in enumerate(loader):
                loss = model(batch).mean()
                loss.backward()
                if rank == 0 and it % 50 == 0:
                    print(loss.item())
      `,
    },
    {
      name: "last-batch guard `if i == len(loader) - 1:`",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for i, batch in enumerate(loader):
                loss = model(batch).mean()
                loss.backward()
                if i == len(loader) - 1:
                    last = loss.item()
      `,
    },
    {
      name: "`if not step % 10:` is periodic",
      code: py`
        import torch
        def train(loader, model):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if not step % 10:
                    print(loss.item())
      `,
    },
    {
      name: "`if step % 10 != 0: continue` makes the rest of the body periodic",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                loss.backward()
                optimizer.step()
                if step % 10 != 0:
                    continue
                print(loss.item())
      `,
    },
    {
      name: "periodic conditional expression",
      code: py`
        import torch
        def train(loader, model):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                shown = loss.item() if step % 10 == 0 else None
      `,
    },
    {
      name: "code after the step loop in an epoch loop runs once per epoch",
      code: py`
        import torch
        def train(loader, model, optimizer, epochs):
            for epoch in range(epochs):
                total = torch.zeros((), device="cuda")
                for x, y in loader:
                    loss = model(x).mean()
                    loss.backward()
                    optimizer.step()
                    total += loss.detach()
                print(total.item())
      `,
    },
    {
      name: "an outer loop that only wraps a data loop is an epoch loop whatever its name",
      code: py`
        import torch
        def main(model, loader, optimizer):
            for e in range(10):
                total = torch.zeros((), device="cuda")
                for x, y in loader:
                    loss = model(x).mean()
                    loss.backward()
                    optimizer.step()
                    total += loss.detach()
                print(total.item())
      `,
    },
    {
      name: "epoch loop calling a same-file function that holds the step loop",
      code: py`
        import torch
        def train_one_epoch(model, loader, optimizer):
            total = torch.zeros((), device="cuda")
            for x, y in loader:
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
                total += loss.detach()
            return total
        def main(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                total = train_one_epoch(model, loader, optimizer)
                print(total.item())
      `,
    },
    {
      name: "helper called once (not from a hot path)",
      code: py`
        import torch
        def summarize(t):
            return t.mean().item()
        def main(model, a, b):
            print(summarize(model(a)))
            print(summarize(model(b)))
      `,
    },
    {
      name: "helper called only under a periodic guard",
      code: py`
        import torch
        def log_metrics(loss):
            print(loss.item())
        def train(loader, model, optimizer):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                loss.backward()
                if step % 100 == 0:
                    log_metrics(loss)
      `,
    },
    {
      name: "module top level is cold in the recommended preset",
      code: py`
        import torch
        x = torch.randn(3, device="cuda")
        print(x.sum().item())
      `,
    },
    {
      name: "files that do not import torch make no GPU assumption",
      code: py`
        def train(loader):
            for batch in loader:
                v = batch.item()
      `,
    },
    {
      name: "`.to(device)` with a CPU device variable",
      code: py`
        import torch
        device = torch.device("cpu")
        def train(loader, model):
            for x, y in loader:
                x = x.to(device)
                v = x.sum().item()
      `,
    },
    {
      name: "Lightning global_step guard inside training_step",
      code: py`
        import torch
        import pytorch_lightning as pl
        class Lit(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                loss = self.model(batch).mean()
                if self.global_step % 100 == 0:
                    print(loss.item())
                return loss
      `,
    },
    {
      name: "batches straight from the loader are host tensors",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                first_label = y[0].item()
      `,
    },
    {
      name: "`.item()` with an argument is not Tensor.item",
      code: py`
        import torch
        def train(loader, model, table):
            for x, y in loader:
                entry = table.item(3)
      `,
    },
    {
      name: "a host tensor made in one branch is not taken for the GPU tensor of the other branch",
      code: py`
        import torch
        def train(loader, model, optimizer, clip_grad=None):
            for batch in loader:
                model(batch.cuda(non_blocking=True)).mean().backward()
                if clip_grad is not None:
                    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad)
                else:
                    grad_norm = torch.norm(torch.tensor([1.0, 2.0]))
                print(grad_norm.item())
                optimizer.step()
      `,
    },
    {
      name: "reading a method that is not a property (to pass it on) does not run it",
      code: py`
        import torch
        class Meter:
            def __init__(self):
                self.total = torch.zeros(1, device="cuda")
            def report(self):
                return self.total.item()
        def train(loader, model, optimizer, hooks):
            meter = Meter()
            for x in loader:
                model(x.cuda(non_blocking=True)).mean().backward()
                optimizer.step()
                hooks.append(meter.report)
      `,
    },
  ],
  invalid: [
    {
      name: "a method called in the step loop on an instance made with `Cls(...).to(device)` runs per step (`.to()` returns the module)",
      code: py`
        import torch
        class QNetwork(torch.nn.Module):
            def __init__(self, n):
                super().__init__()
                self.net = torch.nn.Linear(n, 2)
            def best_value(self, x):
                return self.net(x).max().item()
        def main(device, obs, num_steps):
            q_network = QNetwork(4).to(device)
            for step in range(num_steps):
                value = q_network.best_value(obs)
      `,
      errors: [{ line: 7, messageIncludes: ["in `QNetwork.best_value()`, called at line 11 in the step loop of `main()`"] }],
    },
    {
      name: "a file that trains on a device without importing torch itself gets its tensors through the project's modules (torchreid's `ImageSoftmaxEngine`)",
      code: py`
        from torchreid.engine import Engine
        class ImageSoftmaxEngine(Engine):
            def forward_backward(self, data):
                imgs, pids = self.parse_data_for_train(data)
                if self.use_gpu:
                    imgs = imgs.cuda()
                loss = self.compute_loss(self.criterion, self.model(imgs), pids)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                return {"loss": loss.item()}
      `,
      errors: [{ line: 11, messageIncludes: ["`loss.item()` in `ImageSoftmaxEngine.forward_backward()` waits for the GPU every step"] }],
    },
    {
      name: "a loop over the batches of one step (one per domain) whose loss the function then steps is part of that step: the function runs once per step (DomainBed's IRM)",
      code: py`
        import torch
        import torch.nn.functional as F
        class IRM(torch.nn.Module):
            def __init__(self, network, optimizer):
                super().__init__()
                self.network = network
                self.optimizer = optimizer
            def update(self, minibatches):
                penalty = 0.
                for x, y in minibatches:
                    logits = self.network(x)
                    penalty += F.cross_entropy(logits, y)
                loss = penalty / len(minibatches)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                return {"loss": loss.item()}
      `,
      errors: [{ line: 17, messageIncludes: ["`loss.item()` in `IRM.update()` waits for the GPU every step"] }],
    },
    {
      name: "a property that reads a GPU buffer with `.item()`, read in `forward`'s loop, runs where it is read (Real-Time-Voice-Cloning's `Tacotron.r`)",
      code: py`
        import torch
        from torch import nn
        class Tacotron(nn.Module):
            def __init__(self, decoder):
                super().__init__()
                self.decoder = decoder
            @property
            def r(self):
                return self.decoder.r.item()
            @r.setter
            def r(self, value):
                self.decoder.r = self.decoder.r.new_tensor(value)
            def forward(self, x, steps):
                self.r = 2
                outputs = []
                for t in range(0, steps, 1):
                    outputs.extend([self.decoder(x)] * self.r)
                return torch.cat(outputs)
      `,
      errors: [{ line: 9, messageIncludes: ["`self.decoder.r.item()` in `Tacotron.r()`, read at line 17 in the step loop of `Tacotron.forward()` (line 16)"] }],
    },
    {
      name: "a loop over one of several loaders kept by split (`dataloaders[\"train\"]`) is the step loop, though it trains each of a few models in a nested loop",
      code: py`
        import torch
        def train(trainer, dataloaders, device):
            counts = torch.zeros(1, device=device)
            for i, (img, txt) in enumerate(dataloaders["train"]):
                counts[0] = len(img)
                seen = counts.sum().item()
                for unet in range(1, trainer.num_unets + 1):
                    loss = trainer.forward(img.to(device, non_blocking=True), unet_number=unet)
                    loss.backward()
                    trainer.optimizer.step()
      `,
      errors: [{ line: 6, messageIncludes: ["`counts.sum().item()`", "step loop of `train()` (line 4)"] }],
    },
    {
      name: "`Tokenizer(path)` builds a tokenizer, not token ids on the host: what its `encode(..., device=device)` returns is a tensor made for that device",
      code: py`
        import torch
        from litgpt import Tokenizer
        def score(model, checkpoint_dir, prompts, device):
            tokenizer = Tokenizer(checkpoint_dir)
            for prompt in prompts:
                ids = tokenizer.encode(prompt, device=device)
                logits = model(ids)
                print(ids.sum().item(), logits.shape)
      `,
      errors: [{ line: 8, messageIncludes: ["`ids.sum().item()`", "if `ids.sum()` is on a GPU"] }],
    },
    {
      name: "a loader that Fabric set up reaches the training function as a parameter, and is cycled over: its batches are on the device",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from litgpt.utils import CycleIterator

        def get_dataloaders(fabric, data):
            train_dataloader = data.train_dataloader()
            train_dataloader = fabric.setup_dataloaders(train_dataloader)
            return train_dataloader

        def fit(fabric, model, optimizer, train_dataloader: DataLoader, max_steps: int):
            train_iterator = CycleIterator(train_dataloader)
            tokens = 0
            for step in range(max_steps):
                batch = next(train_iterator)
                loss = model(batch["input_ids"]).mean()
                fabric.backward(loss)
                optimizer.step()
                tokens += batch["token_counts"].sum().item()

        def main(fabric, model, optimizer, data):
            train_dataloader = get_dataloaders(fabric, data)
            fit(fabric, model, optimizer, train_dataloader=train_dataloader, max_steps=100)
      `,
      errors: [{ line: 18, messageIncludes: ["`batch[\"token_counts\"].sum().item()`", "every step"] }],
    },
    {
      name: "a function scripted with `@torch.jit.script` runs on every call: its `.item()` waits, with no graph to break",
      code: py`
        import torch
        device = torch.device("cuda")
        @torch.jit.script
        def f(x: torch.Tensor):
            return x.sum().item()
      `,
      errors: [{ line: 5, column: 20, messageIncludes: ["in the scripted function `f()`"] }],
    },
    {
      name: "batch elements are not known to stay on the host when the loop only casts another one, or they come through `zip`",
      code: py`
        import torch
        def evaluate(loader, extra, model, device, metric_logger, source):
            for images, ids in metric_logger.log_every(source, 50):
                images = images.to(torch.float16)
                out = model(images)
                first = ids.item()
            for images, ids in zip(loader, extra):
                images = images.to(device)
                second = ids.item()
      `,
      errors: [
        { line: 6, messageIncludes: ["`ids.item()`"] },
        { line: 9, messageIncludes: ["`ids.item()`"] },
      ],
    },
    {
      name: "plain step loop over a loader",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for x, y in loader:
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
                total = loss.item()
      `,
      errors: [{ line: 7, column: 22, endColumn: 28, hot: true, messageIncludes: ["`loss.item()`", "in the step loop of `train()` (line 3)", "every step"], messageExcludes: "(if `" }],
    },
    {
      name: "enumerate(loader) with a running sum",
      code: py`
        import torch
        def train(loader, model, optimizer):
            running = 0.0
            for step, (x, y) in enumerate(loader):
                loss = model(x.cuda()).mean()
                loss.backward()
                running += loss.item()
      `,
      errors: [{ line: 7, column: 25, messageIncludes: "step loop of `train()` (line 4)" }],
    },
    {
      name: "tqdm(loader)",
      code: py`
        import torch
        from tqdm import tqdm
        def train(train_loader, model, optimizer):
            for batch in tqdm(train_loader):
                loss = model(batch).mean()
                loss.backward()
                optimizer.step()
                v = loss.item()
      `,
      errors: [{ line: 8, column: 18, messageIncludes: "step loop of `train()` (line 4)" }],
    },
    {
      name: "while True loop with optimizer.step()",
      code: py`
        import torch
        def train(model, optimizer, get_batch):
            while True:
                x = get_batch()
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
                print(loss.item())
      `,
      errors: [{ line: 8, column: 20, messageIncludes: "step loop of `train()` (line 3)" }],
    },
    {
      name: "while step < max_steps with next(data_iter)",
      code: py`
        import torch
        def train(model, data_iter, optimizer, max_steps):
            step = 0
            while step < max_steps:
                batch = next(data_iter)
                loss = model(batch).mean()
                lv = loss.item()
                step += 1
      `,
      errors: [{ line: 7, column: 19, messageIncludes: "step loop of `train()` (line 4)" }],
    },
    {
      name: "for i in range(num_steps)",
      code: py`
        import torch
        def train(model, optimizer, num_steps, get_batch):
            for i in range(num_steps):
                loss = model(get_batch()).mean()
                lv = loss.item()
      `,
      errors: [{ line: 5, column: 19, messageIncludes: "step loop of `train()` (line 3)" }],
    },
    {
      name: "forward of an nn.Module",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                scale = x.abs().max().item()
                return x / scale
      `,
      errors: [{ line: 5, column: 31, messageIncludes: ["in `Net.forward()`", "on every forward pass", "(if `x.abs().max()` is on a GPU)"] }],
    },
    {
      name: "Lightning training_step",
      code: py`
        import torch
        import pytorch_lightning as pl
        class Lit(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                loss = self.compute(batch)
                self.log("loss", loss.item())
                return loss
      `,
      errors: [{ line: 6, column: 31, messageIncludes: ["in `Lit.training_step()`", "every step", "(if `loss` is a CUDA tensor)"] }],
    },
    {
      name: "same-file helper called from a step loop",
      code: py`
        import torch
        def log_loss(loss):
            return loss.item()
        def train(loader, model, optimizer, device):
            for x, y in loader:
                loss = model(x.to(device, non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                log_loss(loss)
      `,
      // Every call passes `loss`, the model's output: no "(if `loss` is a CUDA tensor)".
      errors: [{ line: 3, column: 17, messageIncludes: ["in `log_loss()`, called at line 9 in the step loop of `train()`", "every step"], messageExcludes: ["CUDA tensor)"] }],
    },
    {
      name: "method helper called from forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def check(self, h):
                return h.max().item()
            def forward(self, x):
                h = self.fc(x)
                self.check(h)
                return h
      `,
      errors: [{ line: 5, column: 24, messageIncludes: ["in `Net.check()`, called at line 8 in `Net.forward()`", "on every forward pass"] }],
    },
    {
      name: "step loop nested in an epoch loop",
      code: py`
        import torch
        def train(loader, model, optimizer, epochs):
            for epoch in range(epochs):
                for x, y in loader:
                    loss = model(x).mean()
                    loss.backward()
                    optimizer.step()
                    print(loss.item())
      `,
      errors: [{ line: 8, column: 24, messageIncludes: "step loop of `train()` (line 4)" }],
    },
    {
      name: "the else branch of a periodic guard runs on most steps",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for step, batch in enumerate(loader):
                loss = model(batch).mean()
                if step % 100 == 0:
                    pass
                else:
                    v = loss.item()
      `,
      errors: [{ line: 8, column: 22 }],
    },
    {
      name: "validation loop accumulating correct predictions",
      code: py`
        import torch
        @torch.no_grad()
        def evaluate(model, val_loader):
            correct = 0
            for images, labels in val_loader:
                preds = model(images.cuda(non_blocking=True)).argmax(1)
                correct += (preds == labels.cuda(non_blocking=True)).sum().item()
            return correct
      `,
      errors: [{ line: 7, column: 68, messageIncludes: "step loop of `evaluate()` (line 5)" }],
    },
    {
      name: "comprehension inside a step loop runs several times per step",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                outs = model(batch)
                vals = [o.item() for o in outs]
      `,
      errors: [{ line: 5, column: 19, messageIncludes: ["in the loop at line 5, inside the step loop of `train()` (line 3)", "several times per step"] }],
    },
    {
      name: "Hugging Face style outputs.loss",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for batch in loader:
                outputs = model(**batch)
                outputs.loss.backward()
                optimizer.step()
                lv = outputs.loss.item()
      `,
      errors: [{ line: 7, column: 27 }],
    },
    {
      name: "torch.set_default_device makes factory tensors possibly GPU",
      code: py`
        import torch
        torch.set_default_device("cuda")
        def train(loader, model):
            for batch in loader:
                acc = torch.zeros(1)
                acc.item()
      `,
      errors: [{ line: 6, column: 13, messageIncludes: "(if `acc` is on a GPU)" }],
    },
    {
      name: "extra-step-functions makes a custom per-step function hot",
      code: py`
        import torch
        def run_batch(model, batch):
            loss = model(batch).mean()
            return loss.item()
      `,
      options: { extraStepFunctions: ["run_batch"] },
      errors: [{ line: 4, column: 17, messageIncludes: "in `run_batch()`" }],
    },
    {
      name: "strict preset reports a top-level read as cold",
      preset: "strict",
      code: py`
        import torch
        x = torch.randn(3, device="cuda")
        print(x.sum().item())
      `,
      errors: [{ line: 3, column: 15, hot: false, messageIncludes: "at the module's top level" }],
    },
    {
      name: "strict preset reports periodic and once-per-epoch reads",
      preset: "strict",
      code: py`
        import torch
        def train(loader, model, optimizer, epochs):
            for epoch in range(epochs):
                for step, (x, y) in enumerate(loader):
                    loss = model(x).mean()
                    loss.backward()
                    if step % 100 == 0:
                        print(loss.item())
                print(loss.item())
      `,
      errors: [
        { line: 8, column: 28, hot: false, messageIncludes: "in `train()`" },
        { line: 9, column: 20, hot: false },
      ],
    },
    {
      name: "strict preset reports a helper called once",
      preset: "strict",
      code: py`
        import torch
        def summarize(t):
            return t.mean().item()
        def main(model, x):
            print(summarize(model(x)))
      `,
      errors: [{ line: 3, column: 21, hot: false, messageIncludes: "in `summarize()`" }],
    },
    {
      name: "a property read in the step loop runs on every step; a meter's sum that values are added to is no number",
      code: py`
        import torch
        class Meter:
            def __init__(self):
                self.sum = 0
                self.count = 0
            def update(self, value, n=1):
                self.sum += value * n
                self.count += n
            @property
            def avg(self):
                avg = self.sum / self.count
                return avg.item() if isinstance(avg, torch.Tensor) else avg
        def train(loader, model, optimizer):
            meter = Meter()
            for x in loader:
                loss = model(x.cuda(non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                meter.update(loss.detach())
                print(meter.avg)
      `,
      errors: [{ line: 12, messageIncludes: ["`avg.item()`", "`Meter.avg()`"] }],
    },
  ],
});

describe("item-in-hot-path: the Lightning logging fix says whether the sync goes", () => {
  before(() => initParser());

  it("names the per-batch read of a progress-bar metric logged on step in its title", () => {
    const result = lintSource(py`
      import torch
      import torch.nn.functional as F
      import lightning as L
      class Model(L.LightningModule):
          def training_step(self, batch, batch_idx):
              loss = F.cross_entropy(self.model(batch[0]), batch[1])
              self.log("shown", loss.item(), prog_bar=True)
              self.log("logged", loss.item())
              self.log("hidden", loss.item(), prog_bar=False)
              self.log("per_epoch", loss.item(), prog_bar=True, on_step=False)
              return loss
          def validation_step(self, batch, batch_idx):
              loss = F.cross_entropy(self.model(batch[0]), batch[1])
              self.log("val_loss", loss.item(), prog_bar=True)
              self.log("val_step", loss.item(), prog_bar=True, on_step=True)
    `);
    const titles = result.findings
      .filter((finding) => finding.rule === "item-in-hot-path")
      .map((finding) => finding.fixes.find((fix) => fix.safe)?.title);
    const kept = "Log the tensor; with prog_bar=True Lightning still reads it on every batch";
    const removed = "Log the tensor; Lightning reads it when it logs";
    // `on_step` defaults to True in `training_step` and to False in `validation_step`.
    assert.deepStrictEqual(titles, [kept, removed, removed, removed, removed, kept]);
  });
});
