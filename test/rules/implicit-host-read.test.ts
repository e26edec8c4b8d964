import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("implicit-host-read", {
  valid: [
    {
      name: "an input of `forward` named like a hyperparameter (`temp=None`, `tau`, `eps`) is a Python number: asserting on it reads no tensor (taming-transformers' quantizer)",
      code: py`
        import torch
        class VectorQuantizer(torch.nn.Module):
            def forward(self, z, temp=None, rescale_logits=False):
                assert temp is None or temp == 1.0, "Only for interface compatible with Gumbel"
                return self.embedding(z)
        class Gumbel(torch.nn.Module):
            def forward(self, logits, tau=1.0, eps=1e-10):
                if tau > 1.0 and eps:
                    logits = logits / tau
                return logits.softmax(-1)
      `,
    },
    {
      name: "a count saved in a checkpoint (\`cur_itrs = checkpoint[\"cur_itrs\"]\` of \`torch.load(..., map_location=\"cpu\")\`) is a Python number: testing it each step reads no tensor (DeepLabV3Plus)",
      code: py`
        import torch
        def main(model, loader, optimizer, opts):
            cur_itrs = 0
            if opts.ckpt is not None:
                checkpoint = torch.load(opts.ckpt, map_location=torch.device("cpu"))
                model.load_state_dict(checkpoint["model_state"])
                cur_itrs = checkpoint["cur_itrs"]
            while True:
                for images, labels in loader:
                    cur_itrs += 1
                    model(images.cuda(non_blocking=True)).mean().backward()
                    optimizer.step()
                    if cur_itrs % opts.val_interval == 0:
                        print("validate")
                    if cur_itrs >= opts.total_itrs:
                        return
      `,
    },
    {
      name: "distributions do not check their arguments after `Distribution.set_default_validate_args(False)`",
      code: py`
        import torch
        from torch.distributions import Categorical, Distribution
        Distribution.set_default_validate_args(False)
        class Policy(torch.nn.Module):
            def forward(self, logits):
                return Categorical(logits=logits).sample()
      `,
    },
    {
      name: "a tensor made in one branch and `None` in the other, indexed with GPU tensors after the `if` that tests the same option: advanced indexing, no Python index (mamba's `Final_K_State`)",
      code: py`
        import torch
        class Scan(torch.nn.Module):
            def forward(self, x, cu_seqlens, chunk_size, return_final_states=False):
                device = x.device
                if return_final_states:
                    final_state = torch.empty((4, 8, chunk_size), device=device)
                else:
                    final_state = None
                out = x * 2
                if return_final_states:
                    last_chunk_pos = (cu_seqlens[1:] - cu_seqlens[:-1] - 1) % chunk_size
                    final = final_state[torch.arange(4, device=device), :, last_chunk_pos]
                    return out, final
                return out, None
      `,
    },
    {
      name: "a model's own method on a model moved to the GPU returns what the method returns, not a tensor (Real-Time-Voice-Cloning's `get_step()`)",
      code: py`
        import torch
        from synthesizer.models.tacotron import Tacotron
        def train(loader, device, save_every):
            model = Tacotron().to(device)
            for texts, mels in loader:
                loss = model(texts.to(device, non_blocking=True), mels.to(device, non_blocking=True))
                loss.backward()
                step = model.get_step()
                if save_every != 0 and step % save_every == 0:
                    model.save("latest.pt")
      `,
    },
    {
      name: "`max(probs, key=probs.get)` compares a dict's values: `probs` has `.get`, so it is no tensor (whisper's language detection)",
      code: py`
        import torch
        def detect(model, mels):
            for mel in mels:
                _, probs = model.detect_language(mel.cuda(non_blocking=True))
                language = max(probs, key=probs.get)
      `,
    },
    {
      name: "sizes that are Python integers (a shape, a count), a helper of `torch.nn` that makes tuples, and a size tensor of unknown device",
      code: py`
        import torch
        import torch.nn.functional as F
        from torch import nn
        _to_2tuple = nn.modules.utils._ntuple(2)
        class PatchEmbed(nn.Module):
            def __init__(self, patch_size):
                super().__init__()
                self.patch_size = _to_2tuple(patch_size)
            def forward(self, x, counts):
                _, _, H, W = x.size()
                if W % self.patch_size[1] != 0:
                    x = F.pad(x, (0, self.patch_size[1] - W % self.patch_size[1]))
                x = x.view(x.shape[0], -1)
                return x.new_zeros(counts.max(), 3)
      `,
    },
    {
      name: "torch.any kept as a tensor",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                has_nan = torch.any(torch.isnan(out))
                out = torch.where(has_nan, torch.zeros_like(out), out)
      `,
    },
    {
      name: "a Python bool parameter",
      code: py`
        import torch
        def train(loader, model, use_amp: bool):
            for x, y in loader:
                if use_amp:
                    out = model(x)
      `,
    },
    {
      name: "a `forward` input compared with a string is a Python bool (a mode switch, not a tensor comparison)",
      code: py`
        import torch
        from torch import nn
        class Model(nn.Module):
            def forward(self, image, mode):
                if mode == "image":
                    return image
                elif "text" != mode or mode == f"multi{image.ndim}":
                    return image * 2
      `,
    },
    {
      name: "a `forward` input that the function slices with, counts with, tests against strings or sets to a literal is a Python value",
      code: py`
        import math
        import torch
        from torch import nn
        class Attention(nn.Module):
            def forward(self, x, H, W, start_pos=None, reduction_override=None, use_cache=None, steps=1):
                assert reduction_override in (None, "none", "mean")
                H_ = math.ceil(H / 7) * 7
                if start_pos >= 0:
                    x = x[:, start_pos : start_pos + W]
                for _ in range(steps):
                    x = x * 2
                if steps:
                    x = x + 1
                reduction = reduction_override if reduction_override else "mean"
                if self.training and use_cache:
                    use_cache = False
                return x[:, :, :H, :W]
      `,
    },
    {
      name: "string methods give Python values, whatever the receiver (a batch dict's keys)",
      code: py`
        import torch
        def train_step(batch, model):
            out = {}
            for k in batch:
                if k.startswith("chosen") or k.endswith("_ids"):
                    out[k.replace("chosen", "concatenated")] = batch[k]
            return model(**out)
      `,
    },
    {
      name: "a flag-named parameter with a `None` default is a Python bool",
      code: py`
        import torch
        def train(loader, model, use_amp=None, return_dict=None):
            for x, y in loader:
                out = model(x.cuda())
                if use_amp or return_dict:
                    out = out.float()
      `,
    },
    {
      name: "identity test against None",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                if out is not None:
                    pass
      `,
    },
    {
      name: "shape metadata",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                if out.shape[0] > 1 and out.dim() == 2:
                    pass
      `,
    },
    {
      name: "right side of `and` under a periodic left side",
      code: py`
        import torch
        def train(loader, model):
            for step, (x, y) in enumerate(loader):
                loss = model(x).mean()
                if step % 100 == 0 and loss > 10:
                    print("big")
      `,
    },
    {
      name: "self.training",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                if self.training:
                    x = x * 2
                return x
      `,
    },
    {
      name: "float() of a Python value",
      code: py`
        import torch
        def train(loader, model, lr):
            for x, y in loader:
                lr_f = float(lr)
      `,
    },
    {
      name: "requires_grad and dim() are host metadata",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                if x.requires_grad and x.dim() == 2:
                    return x
                return x
      `,
    },
    {
      name: "isinstance",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                if isinstance(batch, dict):
                    batch = batch["x"]
      `,
    },
    {
      name: "a condition on a host batch",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                if y.sum() > 0:
                    pass
      `,
    },
    {
      name: "max() of Python ints",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                n = max(x.shape[0], 1)
      `,
    },
    {
      name: "optional mask test",
      code: py`
        import torch
        import torch.nn as nn
        class Attn(nn.Module):
            def forward(self, x, mask=None):
                if mask is not None:
                    x = x.masked_fill(mask, 0)
                return x
      `,
    },
    {
      name: "once per epoch after the step loop",
      code: py`
        import torch
        def train(loader, model, optimizer, epochs):
            best = float("inf")
            for epoch in range(epochs):
                total = torch.zeros((), device="cuda")
                for x, y in loader:
                    loss = model(x).mean()
                    loss.backward()
                    optimizer.step()
                    total += loss.detach()
                if total < best:
                    best = total
      `,
    },
    {
      name: "sizes unpacked from a tensor's shape, and arithmetic on them, are Python numbers, also as another module's inputs",
      code: py`
        import torch.nn as nn
        import torch.nn.functional as F
        class Head(nn.Module):
            def forward(self, features, patch_h, patch_w):
                return F.interpolate(features, (int(patch_h * 14), int(patch_w * 14)))
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
            def forward(self, x):
                h, w = x.shape[-2:]
                patch_h, patch_w = h // 14, w // 14
                if h > w:
                    x = x.transpose(-1, -2)
                return self.head(x, patch_h, patch_w)
      `,
    },
  ],
  invalid: [
    {
      name: "an entry of a checkpoint under another key (\`best_acc1\`, a tensor in pytorch/examples' ImageNet script) is not taken for a count",
      code: py`
        import torch
        def main(model, loader, optimizer, path):
            checkpoint = torch.load(path, map_location="cpu")
            best_acc1 = checkpoint["best_acc1"].cuda()
            for images, target in loader:
                acc1 = (model(images.cuda()).argmax(1) == target.cuda()).float().mean()
                acc1.backward()
                optimizer.step()
                if acc1 > best_acc1:
                    best_acc1 = acc1
      `,
      errors: [{ line: 9 }],
    },
    {
      name: "a distribution built from GPU logits checks its parameters with `if not valid.all()`, in a method of an instance made with `.to(device)` that the step loop calls (cleanrl's PPO agent); not with `validate_args=False`",
      code: py`
        import torch
        from torch.distributions.categorical import Categorical
        from torch.distributions import Normal
        class Agent(torch.nn.Module):
            def __init__(self, actor):
                super().__init__()
                self.actor = actor
            def get_action(self, x):
                logits = self.actor(x)
                probs = Categorical(logits=logits)
                quiet = Normal(logits, torch.ones_like(logits), validate_args=False)
                return probs.sample(), quiet.sample()
        def main(envs, actor, device, num_steps):
            agent = Agent(actor).to(device)
            obs = torch.zeros(8, 4, device=device)
            for step in range(num_steps):
                action, noise = agent.get_action(obs)
      `,
      errors: [{ line: 10, messageIncludes: ["`Categorical(logits=logits)` in `Agent.get_action()`, called at line 17 in the step loop of `main()`", "pass `validate_args=False`"] }],
    },
    {
      name: "a Python list (named so) indexed with a GPU tensor's element reads it with `__index__`; a stacked tensor named like a list is indexed on the GPU",
      code: py`
        import torch
        def evaluation(model, data_loader, device):
            answer_list = data_loader.dataset.answer_list
            result = []
            for image, question in data_loader:
                answer_ids = model(image.to(device, non_blocking=True), question)
                for answer_id in answer_ids:
                    result.append(answer_list[answer_id])
                feat_list = torch.stack([answer_ids, answer_ids])
                first = feat_list[answer_ids[0]]
      `,
      errors: [{ line: 8, messageIncludes: ["`answer_list[answer_id]`", "Python index"] }],
    },
    {
      name: "`torch.is_nonzero(t)` reads a GPU tensor as a Python bool, like `bool(t)` (NVIDIA's nnU-Net Dice metric); not a host value's",
      code: py`
        import torch
        def validate(model, loader):
            for x, y in loader:
                p = model(x.cuda(non_blocking=True)).argmax(1)
                inter = (p == y.cuda(non_blocking=True)).sum()
                dice = inter / p.numel() if torch.is_nonzero(inter) else 0.0
                flag = torch.is_nonzero(torch.tensor(1))
      `,
      errors: [{ line: 6, messageIncludes: ["`torch.is_nonzero(inter)`", "converts a GPU tensor"] }],
    },
    {
      name: "a GPU tensor given as a size, a count or a padding is read with `item()` (yolov9's `torch.zeros(b, counts.max(), 5)`, `F.pad(x, [0, n])`)",
      code: py`
        import torch
        import torch.nn.functional as F
        def train(loader, model):
            for x, targets in loader:
                out = model(x.cuda(non_blocking=True))
                counts = out.argmax(-1).bincount()
                padded = torch.zeros(8, counts.max(), 5)
                grown = F.pad(out, [0, counts.max()])
                rows = out.new_zeros([counts[0], 3])
                flat = out.view(counts.sum(), -1)
      `,
      errors: [
        { line: 7, messageIncludes: ["`torch.zeros(8, counts.max(), 5)`", "where PyTorch needs a Python number"] },
        { line: 8, messageIncludes: ["`F.pad(out, [0, counts.max()])`"] },
        { line: 9, messageIncludes: ["`out.new_zeros([counts[0], 3])`"] },
        { line: 10, messageIncludes: ["`out.view(counts.sum(), -1)`"] },
      ],
    },
    {
      name: "a size method of a receiver that is itself a call (`torch.arange(n, device=d).view(1, num)`) reads a GPU size the same way (YOLOv5's segment loss)",
      code: py`
        import torch
        def build_targets(targets, device, na):
            ti = []
            for i in range(8):
                num = (targets[:, 0] == i).sum()
                ti.append(torch.arange(4, device=device).float().view(1, num).repeat(na, 1))
            return ti
        def train(model, loader, optimizer, device):
            for imgs, targets in loader:
                loss = model(imgs.to(device, non_blocking=True)).sum()
                build_targets(targets.to(device, non_blocking=True), device, 3)
                optimizer.step()
      `,
      errors: [{ line: 6, messageIncludes: ["`torch.arange(4, device=device).float().…`", "where PyTorch needs a Python number"] }],
    },
    {
      name: "a padding or a size given by keyword (`F.pad(input=x, pad=[mx0, mx1])`, `torch.zeros(size=...)`) is read the same way (stylegan3's augment pipe)",
      code: py`
        import torch
        import torch.nn.functional as F
        def train(loader, model):
            for x, targets in loader:
                out = model(x.cuda(non_blocking=True))
                mx0, mx1 = out.amax(0)[:2].ceil().to(torch.int32)
                padded = torch.nn.functional.pad(input=out, pad=[mx0, mx1], mode="reflect")
                grown = F.pad(out, pad=(0, 2))
                empty = torch.zeros(size=(mx0, 3), device=out.device)
      `,
      errors: [
        { line: 7, messageIncludes: ["`torch.nn.functional.pad(input=out, pad=…`", "where PyTorch needs a Python number"] },
        { line: 9, messageIncludes: ["`torch.zeros(size=(mx0, 3), device=out.d…`"] },
      ],
    },
    {
      name: "a `forward` input used only as a tensor is still a tensor, whatever the function does with its other inputs",
      code: py`
        import torch
        from torch import nn
        class Gate(nn.Module):
            def forward(self, x, gate, mode, H):
                if mode == "fast":
                    x = x[:, :H]
                if gate:
                    x = x * 2
                return x[:, : gate.sum()]
      `,
      errors: [
        { line: 7, column: 12, messageIncludes: ["`if gate`"] },
        { line: 9, column: 16, messageIncludes: ["`x[:, : gate.sum()]`"] },
      ],
    },
    {
      name: "`math.isfinite(loss)` and the other `math` functions that take a double convert a tensor with `__float__` (not a number that `.item()` made)",
      code: py`
        import math
        import torch
        def train(loader, model, optimizer):
            for x in loader:
                loss = model(x.cuda(non_blocking=True)).mean()
                if not math.isfinite(loss):
                    break
                norm = math.sqrt(loss)
                value = loss.item()
                if math.isnan(value):
                    break
                pi = math.floor(3.5)
      `,
      errors: [
        { line: 6, column: 16, endColumn: 35, messageIncludes: ["`math.isfinite(loss)`", "converts a GPU tensor to a Python number", "every step"] },
        { line: 8, column: 16, endColumn: 31, messageIncludes: ["`math.sqrt(loss)`"] },
      ],
    },
    {
      name: "`if torch.isnan(loss).any():`",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for x, y in loader:
                loss = model(x).mean()
                if torch.isnan(loss).any():
                    continue
                loss.backward()
      `,
      errors: [{ line: 5, column: 12, endColumn: 35, messageIncludes: ["`if torch.isnan(loss).any()`", "as a Python bool", "step loop of `train()` (line 3)"] }],
    },
    {
      name: "`if torch.any(t):`",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                if torch.any(out > 1e4):
                    print("overflow")
      `,
      errors: [{ line: 5, column: 12, endColumn: 32 }],
    },
    {
      name: "float(loss)",
      code: py`
        import torch
        def train(loader, model):
            total = 0.0
            for x, y in loader:
                loss = model(x).mean()
                total += float(loss)
      `,
      errors: [{ line: 6, column: 18, messageIncludes: ["`float(loss)`", "converts a GPU tensor to a Python number"] }],
    },
    {
      name: "int(out.argmax())",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                k = int(out.argmax())
      `,
      errors: [{ line: 5, column: 13 }],
    },
    {
      name: "assert on a tensor",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                assert torch.isfinite(out).all()
      `,
      errors: [{ line: 5, column: 16, messageIncludes: "`assert torch.isfinite(out).all()`" }],
    },
    {
      name: "data-dependent while in forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                while x.norm() > 1.0:
                    x = x / 2
                return x
      `,
      errors: [{ line: 5, column: 15, messageIncludes: ["`while x.norm() > 1.0`", "`Net.forward()`"] }],
    },
    {
      name: "data-dependent if in forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                if x.abs().max() > 10:
                    x = x / 10
                return x
      `,
      errors: [{ line: 5, column: 12, messageIncludes: ["on every forward pass", "(if `x.abs().max() > 10` is on a GPU)"] }],
    },
    {
      name: "max(best, loss)",
      code: py`
        import torch
        def train(loader, model):
            best = 0.0
            for x, y in loader:
                loss = model(x).mean()
                best = max(best, loss)
      `,
      errors: [{ line: 6, column: 16, messageIncludes: "compares GPU tensors in Python" }],
    },
    {
      name: "`and` outside a condition",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                ok = out.isfinite().all() and out.sum() > 0
      `,
      errors: [{ line: 5, column: 14, endColumn: 34 }],
    },
    {
      name: "`not` outside a condition",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                bad = not torch.isfinite(out).all()
      `,
      errors: [{ line: 5, column: 19 }],
    },
    {
      name: "conditional expression on a tensor",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                loss = model(x).mean()
                scale = 0.5 if loss > 1.0 else 1.0
      `,
      errors: [{ line: 5, column: 24, messageIncludes: "`... if loss > 1.0 else ...`" }],
    },
    {
      name: "range() bound from a tensor",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                n = model(x).sum()
                for _ in range(n):
                    pass
      `,
      errors: [{ line: 5, column: 18, messageIncludes: "as a Python index" }],
    },
    {
      name: "a subscript with several tensor bounds is one finding (nanotron's per-document masks)",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                starts = model(x).argmax(-1)
                mask = torch.zeros(8, 8, device="cuda")
                mask[starts[0] : starts[1], starts[0] : starts[1]] = 1
      `,
      errors: [{ line: 6, column: 9, messageIncludes: "as a Python index" }],
    },
    {
      name: "slice bound from a tensor reduction",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                lengths = out.sum(1)
                head = out[:lengths.max()]
      `,
      errors: [{ line: 6, column: 16 }],
    },
    {
      name: "strict preset reports a cold condition",
      preset: "strict",
      code: py`
        import torch
        def check(model, x):
            if model(x).isnan().any():
                raise ValueError("nan")
      `,
      errors: [{ line: 3, column: 8, hot: false }],
    },
  ],
});
