import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("data-dependent-shape", {
  valid: [
    {
      name: "a view of integer indices is no mask (`keep.view(-1)` of `nonzero`'s output, `order.flatten()` of arithmetic)",
      code: py`
        import torch
        def forward(self, boxes, scores):
            keep = torch.nonzero(scores > 0.5, as_tuple=False)
            order = scores.argsort() - 1
            return boxes[keep.view(-1)], boxes[order.flatten()]
      `,
    },
    {
      name: "a name that says mask but holds integer indices (`masked_target = target - start`, a view of it) selects no mask",
      code: py`
        import torch
        class ShardedCrossEntropy(torch.nn.Module):
            def forward(self, logits, target, start):
                target_mask = (target < start) | (target >= start + logits.size(-1))
                masked_target = target.clone() - start
                masked_target[target_mask] = 0
                masked_target_1d = masked_target.view(-1)
                rows = torch.arange(logits.size(0), device=logits.device)
                return logits[rows, masked_target_1d]
      `,
    },
    {
      name: "`x[mask] = 0.0` dispatches to masked_fill_",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                mask = out < 0
                out[mask] = 0.0
      `,
    },
    {
      name: "`x[mask] = torch.tensor(1.0)` (a 1-element CPU tensor) dispatches to masked_fill_",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                out[out < 0] = torch.tensor(1.0)
      `,
    },
    {
      name: "3-argument torch.where",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                out = torch.where(out > 0, out, torch.zeros_like(out))
      `,
    },
    {
      name: "one_hot with num_classes=",
      code: py`
        import torch
        import torch.nn.functional as F
        def train(loader, model):
            for x, y in loader:
                y = y.cuda(non_blocking=True)
                target = F.one_hot(y, num_classes=10)
      `,
    },
    {
      name: "one_hot with positional num_classes",
      code: py`
        import torch
        import torch.nn.functional as F
        def train(loader, model):
            for x, y in loader:
                y = y.cuda(non_blocking=True)
                target = F.one_hot(y, 10)
      `,
    },
    {
      name: "numpy nonzero",
      code: py`
        import torch
        import numpy as np
        def train(loader, model):
            for x, y in loader:
                arr = np.array([0, 1, 2])
                idx = arr.nonzero()
      `,
    },
    {
      name: "repeat_interleave with an int",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                rep = out.repeat_interleave(3, dim=0)
      `,
    },
    {
      name: "repeat_interleave with output_size=",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x: torch.Tensor, counts: torch.Tensor, total: int):
                return x.repeat_interleave(counts, dim=0, output_size=total)
      `,
    },
    {
      name: "integer indexing",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                first = out[0]
      `,
    },
    {
      name: "nonzero once after the loop",
      code: py`
        import torch
        def evaluate(model, loader):
            preds = []
            for x, y in loader:
                preds.append(model(x).argmax(1))
            allp = torch.cat(preds)
            wrong = (allp != 0).nonzero()
      `,
    },
    {
      name: "masking a host batch",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                keep = y >= 0
                y = y[keep]
      `,
    },
    {
      name: "histc with an explicit range",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                h = torch.histc(out, bins=10, min=0, max=1)
      `,
    },
    {
      name: "pandas unique",
      code: py`
        import torch
        import pandas as pd
        def train(loader, model, df):
            for x, y in loader:
                cats = df["label"].unique()
      `,
    },
    {
      name: "multinomial with replacement",
      code: py`
        import torch
        def sample(model, loader):
            for x in loader:
                probs = model(x).softmax(-1)
                tokens = torch.multinomial(probs, 4, replacement=True)
      `,
    },
    {
      name: "a value converted to a host tensor in a branch that tests its type is on the host on both paths",
      code: py`
        import numpy as np
        import torch
        def collect(loader):
            for x in loader:
                if isinstance(x, np.ndarray):
                    x = torch.from_numpy(x)
                positive = x[x > 0]
      `,
    },
  ],
  invalid: [
    {
      name: "a mask expanded to another tensor's shape (\`pos.unsqueeze(2).expand_as(loc_data)\`) is a mask still: selecting with it syncs (ssd.pytorch's \`MultiBoxLoss\`)",
      code: py`
        import torch
        import torch.nn as nn
        class MultiBoxLoss(nn.Module):
            def forward(self, predictions, conf_t):
                loc_data, conf_data = predictions
                pos = conf_t > 0
                pos_idx = pos.unsqueeze(pos.dim()).expand_as(loc_data)
                return loc_data[pos_idx].sum()
      `,
      errors: [{ line: 8 }],
    },
    {
      name: "torchvision's `nms` and `batched_nms` on GPU boxes wait for the suppression mask on the host (YOLOv5's per-image NMS); on host boxes they do not",
      code: py`
        import torch
        import torchvision
        from torchvision.ops import boxes as box_ops
        def detect(model, loader, device):
            for im, _ in loader:
                prediction = model(im.to(device, non_blocking=True))
                for x in prediction:
                    keep = torchvision.ops.nms(x[:, :4], x[:, 4], 0.45)
                    kept = box_ops.batched_nms(x[:, :4], x[:, 4], x[:, 5], 0.45)
                    on_host = x.cpu()
                    host_keep = torchvision.ops.nms(on_host[:, :4], on_host[:, 4], 0.45)
      `,
      errors: [
        { line: 8, messageIncludes: ["`torchvision.ops.nms(x[:, :4], x[:, 4], 0.45)`", "copies its suppression mask to the host", "`batched_nms`"] },
        { line: 9, messageIncludes: ["`box_ops.batched_nms(x[:, :4], x[:, 4], x[:, 5], 0…`"] },
      ],
    },
    {
      name: "positions that `argsort` or `topk(...).indices` make (`masked_indices, unmasked_indices = rand_indices[:, :8], rand_indices[:, 8:]`) are integer indices whatever the name says; a real mask still syncs (vit-pytorch's MAE)",
      code: py`
        import torch
        from torch import nn
        class MAE(nn.Module):
            def forward(self, img):
                tokens = img.flatten(2)
                batch, num_patches = tokens.shape[:2]
                batch_range = torch.arange(batch, device=tokens.device)[:, None]
                rand_indices = torch.rand(batch, num_patches, device=tokens.device).argsort(dim=-1)
                masked_indices, unmasked_indices = rand_indices[:, :8], rand_indices[:, 8:]
                kept = tokens[batch_range, unmasked_indices]
                keep_inds = rand_indices[:, :4]
                first = tokens[batch_range, keep_inds]
                valid_mask = tokens[..., 0] > 0
                return tokens[valid_mask].sum() + kept.sum() + first.sum()
      `,
      errors: [{ line: 14, messageIncludes: ["`tokens[valid_mask]`"] }],
    },
    {
      name: "a row of a mask (`xc[xi]`, `keep[:, 0]`) is a mask too (YOLOv5's non_max_suppression)",
      code: py`
        import torch
        def detect(model, loader, device):
            for im, _ in loader:
                prediction = model(im.to(device, non_blocking=True))
                xc = prediction[..., 4] > 0.25
                for xi, x in enumerate(prediction):
                    x = x[xc[xi]]
                    first = x[xc[:, 0]]
      `,
      errors: [
        { line: 7, messageIncludes: ["`x[xc[xi]]`", "selects with a boolean mask"] },
        { line: 8, messageIncludes: ["`x[xc[:, 0]]`", "selects with a boolean mask"] },
      ],
    },
    {
      name: "a view of a mask (`valid.view(-1)`) selects with the same booleans (RAFT's sequence loss)",
      code: py`
        import torch
        def sequence_loss(flow_preds, flow_gt, valid):
            mag = torch.sum(flow_gt ** 2, dim=1).sqrt()
            valid = (valid >= 0.5) & (mag < 400)
            epe = torch.sum((flow_preds[-1] - flow_gt) ** 2, dim=1).sqrt()
            epe = epe.view(-1)[valid.view(-1)]
            return epe.mean()
        def train(model, loader, optimizer):
            for image, flow, valid in loader:
                loss = sequence_loss(model(image.cuda()), flow.cuda(), valid.cuda())
                loss.backward()
                optimizer.step()
      `,
      errors: [{ line: 6, messageIncludes: "selects with a boolean mask" }],
    },
    {
      name: "a model's `generate` runs its own forward pass (`self(idx)`) once per token: `multinomial` there checks its input on the host every token",
      code: py`
        import torch
        import torch.nn as nn
        from torch.nn import functional as F
        class GPT(nn.Module):
            @torch.no_grad()
            def generate(self, idx, max_new_tokens, temperature=1.0):
                for _ in range(max_new_tokens):
                    logits, _ = self(idx)
                    probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
                    idx_next = torch.multinomial(probs, num_samples=1)
                    idx = torch.cat((idx, idx_next), dim=1)
                return idx
      `,
      errors: [{ line: 10, messageIncludes: ["`torch.multinomial(probs, num_samples=1)`", "step loop of `GPT.generate()` (line 7)", "validates its input on the host (an `.item()` inside the call"] }],
    },
    {
      name: "the rows of a transposed mask, and masks stacked with `ones_like` of one, are masks (YOLOv5's `build_targets`)",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for x, t in loader:
                gxy = model(x.cuda(non_blocking=True))
                j, k = ((gxy % 1 < 0.5) & (gxy > 1)).T
                m = torch.stack((torch.ones_like(j), j, k))
                kept = gxy.repeat((3, 1, 1))[m]
                rows = gxy[j]
                counts = torch.stack((torch.ones_like(j, dtype=torch.long), j))
                picked = gxy[counts]
                (kept.sum() + rows.sum() + picked.sum()).backward()
                optimizer.step()
      `,
      errors: [
        { line: 7, messageIncludes: ["`gxy.repeat((3, 1, 1))[m]`", "boolean mask"] },
        { line: 8, messageIncludes: ["`gxy[j]`", "boolean mask"] },
      ],
    },
    {
      name: "two masks multiplied are still a mask; a view of a mask is one",
      code: py`
        import torch
        class Head(torch.nn.Module):
            def forward(self, x, y):
                valid_mask = (x > 0) * (y > 0)
                flat_mask = valid_mask.view(-1)
                return x.view(-1)[flat_mask].sum()
      `,
      errors: [{ line: 6, messageIncludes: "boolean mask" }],
    },
    {
      name: "a boolean mask inside an index tuple: `x[mask, 1:]`, `x[:, keep]` (reads only; integer and slice tuples are fine)",
      code: py`
        import torch
        def evaluate(loader, model):
            for x, y in loader:
                out = model(x)
                keep = out[:, 4] > 0.5
                boxes = out[keep, :4]
                scores = out[:, out.sum(0) > 0]
                first = out[0, 1:]
                out[keep, 0] = 0.0
      `,
      errors: [
        { line: 6, column: 17, endColumn: 30, messageIncludes: ["`out[keep, :4]`", "boolean mask inside the index", "nonzero", "every step"] },
        { line: 7, column: 18, endColumn: 40, messageIncludes: ["`out[:, out.sum(0) > 0]`"] },
      ],
    },
    {
      name: "x.nonzero()",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                idx = out.nonzero()
      `,
      errors: [{ line: 5, column: 19, endColumn: 28, messageIncludes: ["`out.nonzero()`", "depends on GPU data", "step loop of `train()` (line 3)", "nonzero_static"] }],
    },
    {
      name: "torch.nonzero",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                idx = torch.nonzero(out > 0)
      `,
      errors: [{ line: 5, column: 15, endColumn: 37 }],
    },
    {
      name: "boolean-mask read",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                mask = out > 0
                pos = out[mask]
      `,
      errors: [{ line: 6, column: 15, endColumn: 24, messageIncludes: ["selects with a boolean mask", "`torch.where(mask, out, 0)`"] }],
    },
    {
      name: "inline comparison as the index",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                sel = out[out > 0]
      `,
      errors: [{ line: 5, column: 15 }],
    },
    {
      name: "`x[mask] = other_tensor` (and the masked read on the right)",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                mask = out > 0
                replacement = torch.zeros_like(out)
                out[mask] = replacement[mask]
      `,
      errors: [
        { line: 7, column: 9, endColumn: 38, messageIncludes: ["assigns a GPU tensor through a boolean mask", "`torch.where(mask, value, out)`", "`masked_fill_` reads a tensor value with `.item()`"] },
        { line: 7, column: 21, messageIncludes: "selects with a boolean mask" },
      ],
    },
    {
      name: "`~mask` index",
      code: py`
        import torch
        def train(loader, model, criterion):
            for x, y in loader:
                logits = model(x)
                y = y.cuda(non_blocking=True)
                ignore = y == -100
                logits = logits[~ignore]
      `,
      errors: [{ line: 7, column: 18 }],
    },
    {
      name: "torch.unique",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                y = y.cuda(non_blocking=True)
                classes = torch.unique(y)
      `,
      errors: [{ line: 5, column: 19 }],
    },
    {
      name: "1-argument torch.where",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                rows = torch.where(out > 0.5)
      `,
      errors: [{ line: 5, column: 16, messageIncludes: "3-argument" }],
    },
    {
      name: "one_hot without num_classes",
      code: py`
        import torch
        import torch.nn.functional as F
        def train(loader, model):
            for x, y in loader:
                y = y.cuda(non_blocking=True)
                target = F.one_hot(y)
      `,
      errors: [{ line: 6, column: 18, messageIncludes: "pass `num_classes=`" }],
    },
    {
      name: "one_hot with num_classes=-1",
      code: py`
        import torch
        import torch.nn.functional as F
        def train(loader, model):
            for x, y in loader:
                target = F.one_hot(model(x).argmax(1), num_classes=-1)
      `,
      errors: [{ line: 5, column: 18 }],
    },
    {
      name: "repeat_interleave with tensor repeats in forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x: torch.Tensor, counts: torch.Tensor):
                return x.repeat_interleave(counts, dim=0)
      `,
      errors: [{ line: 5, column: 18, messageIncludes: ["in `Net.forward()`", "output_size="] }],
    },
    {
      name: "masked_select",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                sel = out.masked_select(out > 0)
      `,
      errors: [{ line: 5, column: 19 }],
    },
    {
      name: "bincount",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                preds = model(x).argmax(1)
                counts = torch.bincount(preds)
      `,
      errors: [{ line: 5, column: 18 }],
    },
    {
      name: "histc without a range",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                h = torch.histc(out, bins=10)
      `,
      errors: [{ line: 5, column: 13, messageIncludes: "`min=` and `max=`" }],
    },
    {
      name: "multinomial without replacement",
      code: py`
        import torch
        def sample(model, loader):
            for x in loader:
                probs = model(x).softmax(-1)
                tokens = torch.multinomial(probs, 4)
      `,
      errors: [{ line: 5, column: 18 }],
    },
    {
      name: "strict preset reports nonzero after the loop",
      preset: "strict",
      code: py`
        import torch
        def evaluate(model, loader):
            preds = []
            for x, y in loader:
                preds.append(model(x).argmax(1))
            allp = torch.cat(preds)
            wrong = (allp != 0).nonzero()
      `,
      errors: [{ line: 7, column: 25, hot: false }],
    },
    {
      name: "a tensor moved to the host only in a branch (a fallback) is still on the GPU after it",
      code: py`
        import torch
        def evaluate(loader, model, cpu_nms=False):
            for images in loader:
                pred = model(images.cuda(non_blocking=True))
                if cpu_nms:
                    pred = pred.cpu()
                boxes = pred[pred[:, 4] > 0.5]
      `,
      errors: [{ line: 7, messageIncludes: ["boolean mask"] }],
    },
  ],
});
