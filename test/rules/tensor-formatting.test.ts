import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("tensor-formatting", {
  valid: [
    {
      name: "a warning printed only when a tensor's least or greatest value is out of range (HiFi-GAN's `mel_spectrogram`): the test waits every step, its branch is an error path",
      code: py`
        import torch
        def mel(y):
            if torch.min(y) < -1.:
                print("min value is ", torch.min(y))
            if y.max() > 1:
                print("max value is ", y.max())
            return torch.stft(y, 1024)
        def train(loader, model):
            for x in loader:
                spec = mel(model(x.cuda(non_blocking=True)))
                spec.mean().backward()
      `,
    },
    {
      name: "an input of `forward` named like a string (`split`, `stage`) prefixes logged keys: it is no tensor",
      code: py`
        import torch.nn as nn
        import torch.nn.functional as F
        class BCELossWithQuant(nn.Module):
            def forward(self, qloss, target, prediction, split):
                loss = F.binary_cross_entropy_with_logits(prediction, target) + qloss
                return loss, {"{}/total_loss".format(split): loss.detach().mean(), f"{split}/quant_loss": qloss.detach().mean()}
      `,
    },
    {
      name: "f-string under a periodic guard",
      code: py`
        import torch
        def train(loader, model):
            for step, (x, y) in enumerate(loader):
                loss = model(x).mean()
                if step % 100 == 0:
                    print(f"loss {loss:.4f}")
      `,
    },
    {
      name: "Python numbers in an f-string",
      code: py`
        import torch
        def train(loader, model):
            for step, (x, y) in enumerate(loader):
                print(f"step {step} of {len(loader)}")
      `,
    },
    {
      name: "shape and dtype are host metadata",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                print(f"shape {out.shape} dtype {out.dtype}")
      `,
    },
    {
      name: "print after the loop",
      code: py`
        import torch
        def train(loader, model):
            total = torch.zeros((), device="cuda")
            for x, y in loader:
                total += model(x).mean().detach()
            print(f"total {total}")
      `,
    },
    {
      name: "printing a host batch",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                print(y)
      `,
    },
    {
      name: "an already-read Python float (the .item() is another rule's finding)",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                print(f"{loss.item():.3f}")
      `,
    },
    {
      name: "logger with a float",
      code: py`
        import torch
        import logging
        log = logging.getLogger(__name__)
        def train(loader, model, lr: float):
            for x, y in loader:
                log.info("lr %f", lr)
      `,
    },
    {
      name: "add_scalar of a float",
      code: py`
        import torch
        def train(loader, model, writer, lr: float):
            for step, (x, y) in enumerate(loader):
                writer.add_scalar("lr", lr, step)
      `,
    },
    {
      name: "printing a CPU tensor",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                counts = torch.zeros(10)
                print(counts)
      `,
    },
    {
      name: "`%` formatting of Python values",
      code: py`
        import torch
        def train(loader, model, epoch: int):
            for step, (x, y) in enumerate(loader):
                msg = "epoch %d step %d" % (epoch, step)
      `,
    },
    {
      name: "a value added to a string is text: adding a string to a tensor raises",
      code: py`
        import torch
        def generate(loader, model, tokenizer):
            for batch in loader:
                out = model.generate(batch["input_ids"].cuda(non_blocking=True))
                for prompt, continuation in zip(batch["prompt"], tokenizer.batch_decode(out)):
                    print("\\033[92m" + prompt + "\\033[0m" + continuation)
      `,
    },
  ],
  invalid: [
    {
      name: "a branch on a tensor's range that does more than warn runs on some steps' data",
      code: py`
        import torch
        def train(loader, model):
            for x in loader:
                y = model(x.cuda(non_blocking=True))
                if y.max() > 1:
                    print("max value is ", y.max())
                    y = y / y.max()
                y.mean().backward()
      `,
      errors: [{ line: 6, messageIncludes: "`y.max()`" }],
    },
    {
      name: "the norm `clip_grad_norm_` returns is a tensor on the parameters' device",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for step, batch in enumerate(loader):
                model(batch).mean().backward()
                norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                print(f"step {step} | norm {norm:.4f}")
      `,
      errors: [{ line: 7, messageIncludes: ["`{norm:.4f}`", "every step"] }],
    },
    {
      name: "`%` formatting with a format built by `*` and `+`, and a tensor unpacked into it",
      code: py`
        import torch
        def train(loader, model, device):
            mloss = torch.zeros(3, device=device)
            for i, (x, y) in enumerate(loader):
                loss, items = model(x.to(device, non_blocking=True))
                mloss = (mloss * i + items) / (i + 1)
                pbar.set_description(("%11s" * 2 + "%11.4g" * 3) % ("a", "b", *mloss))
                print("%d %s" % (i, "x" * 3))
      `,
      errors: [{ line: 7, column: 71, endColumn: 77, messageIncludes: "`*mloss`" }],
    },
    {
      name: "print(loss)",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                print(loss)
      `,
      errors: [{ line: 5, column: 15, endColumn: 19, messageIncludes: ["`loss`", "formats a GPU tensor as text", "step loop of `train()` (line 3)"] }],
    },
    {
      name: "f-string interpolation with a format spec",
      code: py`
        import torch
        def train(loader, model):
            for step, (x, y) in enumerate(loader):
                loss = model(x).mean()
                print(f"step {step}: loss={loss:.4f}")
      `,
      errors: [{ line: 5, column: 35, endColumn: 45, messageIncludes: "`{loss:.4f}`" }],
    },
    {
      name: "f-string self-documenting `=`",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                print(f"{loss=}")
      `,
      errors: [{ line: 5, column: 17 }],
    },
    {
      name: "`%` formatting",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                msg = "loss %.3f" % loss
      `,
      errors: [{ line: 5, column: 29 }],
    },
    {
      name: "str.format",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                msg = "loss {}".format(loss)
      `,
      errors: [{ line: 5, column: 32 }],
    },
    {
      name: "logger.info with a tensor argument",
      code: py`
        import torch
        import logging
        logger = logging.getLogger(__name__)
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                logger.info("loss %s", loss)
      `,
      errors: [{ line: 7, column: 32 }],
    },
    {
      name: "logging.info with an f-string",
      code: py`
        import torch
        import logging
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                logging.info(f"loss {loss}")
      `,
      errors: [{ line: 6, column: 29 }],
    },
    {
      name: "tqdm set_postfix",
      code: py`
        import torch
        from tqdm import tqdm
        def train(loader, model):
            pbar = tqdm(loader)
            for x, y in pbar:
                loss = model(x).mean()
                pbar.set_postfix(loss=loss)
      `,
      errors: [{ line: 7, column: 31, messageIncludes: "step loop of `train()` (line 5)" }],
    },
    {
      name: "TensorBoard add_scalar",
      code: py`
        import torch
        def train(loader, model, writer):
            for step, (x, y) in enumerate(loader):
                loss = model(x).mean()
                writer.add_scalar("train/loss", loss, step)
      `,
      errors: [{ line: 5, column: 41, messageIncludes: "`add_scalar` converts it with `.cpu().numpy()`" }],
    },
    {
      name: "TensorBoard add_scalars with a dict: each value converted with `.cpu().numpy()`, not formatted",
      code: py`
        import torch
        def train(loader, model, writer):
            for step, (x, y) in enumerate(loader):
                loss = model(x).mean()
                writer.add_scalars("losses", {"train": loss}, step)
      `,
      errors: [{ line: 5, column: 48, messageIncludes: "`add_scalar` converts it with `.cpu().numpy()`", messageExcludes: "as text" }],
    },
    {
      name: "str(tensor)",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                s = str(loss)
      `,
      errors: [{ line: 5, column: 17 }],
    },
    {
      name: "print in forward of a module output",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
            def forward(self, x):
                h = self.fc(x)
                print("h", h)
                return h
      `,
      errors: [{ line: 9, column: 20, messageIncludes: "in `Net.forward()`", messageExcludes: "(if `" }],
    },
    {
      name: "print of a forward input states the assumption",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                print(x)
                return x
      `,
      errors: [{ line: 5, column: 15, messageIncludes: "(if `x` is on a GPU)" }],
    },
    {
      name: "strict preset reports a print after the loop",
      preset: "strict",
      code: py`
        import torch
        def train(loader, model):
            total = torch.zeros((), device="cuda")
            for x, y in loader:
                total += model(x).mean().detach()
            print(f"total {total}")
      `,
      errors: [{ line: 6, column: 19, hot: false }],
    },
  ],
});
