import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("blocking-host-to-device", {
  valid: [
    {
      name: "a legacy tensor made with no arguments (`torch.LongTensor().to(device)`) has no elements to copy (fairseq's beam search)",
      code: py`
        import torch
        def search(model, loader, device):
            for batch in loader:
                final_indices = torch.LongTensor().to(device=device)
                model(batch.cuda(non_blocking=True), final_indices)
      `,
    },
    {
      name: "a property that registers its buffer the first time it is read (`if not hasattr(self, ...)`), read on every forward pass (litgpt's LoRA `lora_ind`)",
      code: py`
        import torch
        from torch import nn
        class LoRALinear(nn.Module):
            def __init__(self, linear, indices):
                super().__init__()
                self.linear = linear
                self.indices = indices
            @property
            def lora_ind(self):
                if not hasattr(self, "_lora_ind"):
                    self.register_buffer("_lora_ind", torch.tensor(self.indices, device=self.linear.weight.device), persistent=False)
                return self._lora_ind
            def forward(self, x):
                result = x.new_zeros(*x.shape[:-1], self.linear.out_features)
                return result.index_copy_(dim=-1, index=self.lora_ind, source=x)
      `,
    },
    {
      name: "a tensor of zero elements by its size (`torch.empty(0).to(x.device)`, DINO's multi-crop wrapper) has nothing to copy",
      code: py`
        import torch
        import torch.nn as nn
        class MultiCropWrapper(nn.Module):
            def forward(self, x):
                output = torch.empty(0).to(x[0].device)
                for crop in x:
                    output = torch.cat((output, self.backbone(crop)))
                return output
      `,
    },
    {
      name: "a loop that only gathers a few examples from the loader (`if len(images) >= n: break`) is no step loop",
      code: py`
        import torch
        def get_example_data(dataloader, device, n=5):
            images = []
            for img, txt in dataloader:
                img = img.to(device=device, dtype=torch.float)
                images.extend(list(img))
                if len(images) >= n:
                    break
            return images[:n]
      `,
    },
    {
      name: "`map(lambda x: x.to(device), ...)` over what a function returns of a batch already on the device (torchtext's `BucketIterator(device=...)`) moves nothing",
      code: py`
        import torch
        from torchtext.data import BucketIterator
        def patch_trg(trg):
            trg = trg.transpose(0, 1)
            return trg[:, :-1], trg[:, 1:].contiguous().view(-1)
        def train_epoch(model, training_data, device):
            for batch in training_data:
                trg_seq, gold = map(lambda x: x.to(device), patch_trg(batch.trg))
                model(trg_seq).sum().backward()
        def main(train, device, model):
            train_epoch(model, BucketIterator(train, batch_size=64, device=device), device)
      `,
    },
    {
      name: "a tensor of no elements copies nothing (`copy_` returns when `numel() == 0`: DINO's empty denoising targets)",
      code: py`
        import torch
        def train(model, loader):
            for x, t in loader:
                empty = torch.tensor([]).long().cuda()
                moved = torch.tensor([]).to("cuda")
                model(x.cuda(non_blocking=True)).sum().backward()
      `,
    },
    {
      name: "a name bound to a tensor of no elements copies nothing either (`final_scores = torch.Tensor([])`, then `final_scores = final_scores.cuda()`: pytorch-retinanet's detections)",
      code: py`
        import torch
        class Detector(torch.nn.Module):
            def forward(self, x):
                scores = self.head(x)
                final_scores = torch.Tensor([])
                final_indexes = torch.Tensor([]).long()
                if torch.cuda.is_available():
                    final_scores = final_scores.cuda()
                    final_indexes = final_indexes.cuda()
                for i in range(scores.shape[1]):
                    final_scores = torch.cat((final_scores, scores[:, i]))
                return final_scores, final_indexes
      `,
    },
    {
      name: "`copy_` with `non_blocking=True`, or from a tensor already on the GPU",
      code: py`
        import torch
        def train(loader, model, optimizer):
            static_input = torch.empty(64, 3, 224, 224, device="cuda")
            for x, y in loader:
                static_input.copy_(x, non_blocking=True)
                static_input.copy_(x.cuda(non_blocking=True))
                model(static_input).mean().backward()
                optimizer.step()
      `,
    },
    {
      name: "an empty tensor built on the device has no host data to copy",
      code: py`
        import torch
        def train(loader, model, device):
            for x in loader:
                losses = torch.tensor([], device=device)
                model(x.to(device, non_blocking=True))
      `,
    },
    {
      name: "`.to(device, non_blocking=True)` and `.cuda(non_blocking=True)`",
      code: py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                x = x.to(device, non_blocking=True)
                y = y.cuda(non_blocking=True)
      `,
    },
    {
      name: "a tensor computed from a gradient lives where its parameter does: its `.to(device)` is no host copy",
      code: py`
        import torch
        def clip_step(parameters, device):
            for p in parameters:
                total = p.grad.detach().abs().max().to(device)
            norms = [torch.norm(q.grad.detach(), 2).to(device) for q in parameters]
      `,
    },
    {
      name: "dtype conversion only",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                x = x.to(torch.float16)
      `,
    },
    {
      name: "moving the model once",
      code: py`
        import torch
        def setup(model, device):
            model = model.to(device)
      `,
    },
    {
      name: "`.to(device)` of a model output (already on the device)",
      code: py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                out = model(x.to(device, non_blocking=True))
                out = out.to(device)
      `,
    },
    {
      name: "`self.buf.to(x.device)` in forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                pos = self.pos.to(x.device)
                return x + pos
      `,
    },
    {
      name: "outside any loop",
      code: py`
        import torch
        def main(device):
            w = torch.tensor([0.3, 0.7], device=device)
            x = torch.randn(3).to(device)
      `,
    },
    {
      name: "torch.tensor on the CPU",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                w = torch.tensor([0.3, 0.7])
      `,
    },
    {
      name: "periodic copy",
      code: py`
        import torch
        def train(loader, model, device):
            for step, (x, y) in enumerate(loader):
                if step % 100 == 0:
                    probe = x.to(device)
      `,
    },
    {
      name: "torch.as_tensor of a GPU tensor",
      code: py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                out = model(x.to(device, non_blocking=True))
                t = torch.as_tensor(out, device=device)
      `,
    },
    {
      name: "copy to the CPU (another rule's concern)",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                x = x.to("cpu")
      `,
    },
    {
      name: "non_blocking controlled by the caller",
      code: py`
        import torch
        def train(loader, model, device, nb):
            for x, y in loader:
                x = x.to(device, non_blocking=nb)
      `,
    },
    {
      name: "torch.tensor once per epoch",
      code: py`
        import torch
        def train(loader, model, optimizer, device, epochs):
            for epoch in range(epochs):
                for x, y in loader:
                    loss = model(x.to(device, non_blocking=True)).mean()
                    loss.backward()
                    optimizer.step()
                class_weights = torch.tensor([1.0, 2.0], device=device)
      `,
    },
    {
      name: "a batch a helper moves in place (a statement of its own, named for the move) is on the GPU after it",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for batch in loader:
                dataclass_to_cuda_(batch)
                images = batch.video.to("cuda")
                model(images).mean().backward()
                optimizer.step()
      `,
    },
    {
      name: "a loop that runs a few test batches through a model before training (`if i == args.n_test_samples - 1: break`, 8 by default) is no step loop (melgan's dump of the original audio)",
      code: py`
        import argparse
        import torch
        from torch.utils.data import DataLoader
        def main(test_set, fft, save):
            parser = argparse.ArgumentParser()
            parser.add_argument("--n_test_samples", type=int, default=8)
            args = parser.parse_args()
            test_loader = DataLoader(test_set, batch_size=1)
            for i, x_t in enumerate(test_loader):
                x_t = x_t.cuda()
                save(fft(x_t).cpu())
                if i == args.n_test_samples - 1:
                    break
      `,
    },
    {
      name: "\`.cuda()\` of what a module moved to the GPU computed (\`fft = Audio2Mel().cuda()\`, then \`fft(x_t)\`) copies nothing: a tensor is not callable, so \`fft\` is a module",
      code: py`
        import torch
        from mel2wav.modules import Audio2Mel
        def train(loader, netG, optimizer):
            fft = Audio2Mel(n_mel_channels=80).cuda()
            for x_t in loader:
                x_t = x_t.cuda(non_blocking=True)
                s_t = fft(x_t).detach()
                netG(s_t.cuda()).mean().backward()
                optimizer.step()
      `,
    },
  ],
  invalid: [
    {
      name: "data the function computes from what it is given (a replay memory's sampled batch) changes on each call: not \"build it once\" (Rainbow's memory)",
      code: py`
        import numpy as np
        import torch
        class ReplayMemory:
            def sample(self, batch_size):
                idxs = np.random.randint(0, self.size, batch_size)
                states = self.states[idxs]
                weights = self.priorities[idxs] / self.priorities.max()
                return torch.tensor(states, device=self.device), torch.tensor(weights / weights.max(), device=self.device)
        def train(memory, model, optimizer):
            for step in range(1000):
                states, weights = memory.sample(32)
                (model(states) * weights).mean().backward()
                optimizer.step()
      `,
      errors: [
        { line: 8, column: 16, messageIncludes: ["its data changes from one call to the next"], messageExcludes: ["build it once"] },
        { line: 8, column: 58, messageIncludes: ["its data changes from one call to the next"], messageExcludes: ["build it once"] },
      ],
    },
    {
      name: "a factory's tensor copied to the GPU: the message says to make it there (`device=`), not to copy without blocking (SlowFast's contrastive models)",
      code: py`
        import torch
        import torch.nn as nn
        class Contrastive(nn.Module):
            def forward(self, x):
                labels = torch.zeros(x.shape[0], dtype=torch.long).cuda()
                index = torch.randint(0, self.length, size=(x.shape[0],)).to(x.device)
                return self.loss(self.head(x), labels, index)
      `,
      errors: [
        { line: 5, messageIncludes: ["builds a tensor on the host", "make it on the device (`torch.zeros(..., device=...)`)"], messageExcludes: ["non_blocking"] },
        { line: 6, messageIncludes: ["make it on the device (`torch.randint(..., device=...)`)"] },
      ],
    },
    {
      name: "an agent the script picks by option (`if args.policy == \"TD3\": policy = TD3(...)` / `elif ...: policy = DDPG(...)`) may be either: the methods of both run in the step loop",
      code: py`
        import argparse
        import torch
        import numpy as np
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        class TD3:
            def select_action(self, state):
                state = torch.FloatTensor(state.reshape(1, -1)).to(device)
                return self.actor(state).cpu().data.numpy().flatten()
        class DDPG:
            def select_action(self, state):
                state = torch.FloatTensor(state.reshape(1, -1)).to(device)
                return self.actor(state).cpu().data.numpy().flatten()
        parser = argparse.ArgumentParser()
        parser.add_argument("--policy", default="TD3")
        args = parser.parse_args()
        if args.policy == "TD3":
            policy = TD3()
        elif args.policy == "DDPG":
            policy = DDPG()
        state = env.reset()
        for t in range(1000000):
            action = policy.select_action(np.array(state))
            state, reward, done, _ = env.step(action)
      `,
      errors: [{ line: 7 }, { line: 11 }],
    },
    {
      name: "an off-policy agent samples its replay buffer on every update (TD3's \`ReplayBuffer.sample\`, called through the agent's \`train\`)",
      code: py`
        import numpy as np
        import torch
        class ReplayBuffer:
            def __init__(self, state_dim, device):
                self.state = np.zeros((1000000, state_dim))
                self.device = device
            def sample(self, batch_size):
                ind = np.random.randint(0, len(self.state), size=batch_size)
                return torch.FloatTensor(self.state[ind]).to(self.device)
      `,
      errors: [{ line: 9, messageIncludes: ["every step"] }],
    },
    {
      name: "layers of an `nn.ModuleList` called by index (`conv = self.conv_blocks[i][j]`, Pointnet++) are one forward pass, not steps: the forward stays hot for the helper it calls",
      code: py`
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        def index_points(points, idx):
            batch = torch.arange(points.shape[0], dtype=torch.long).to(points.device)
            return points[batch, idx]
        class SetAbstraction(nn.Module):
            def __init__(self, widths):
                super().__init__()
                self.conv_blocks = nn.ModuleList()
                for width in widths:
                    self.conv_blocks.append(nn.ModuleList([nn.Conv2d(width, width, 1)]))
            def forward(self, xyz, idx):
                for i in range(len(self.conv_blocks)):
                    grouped = index_points(xyz, idx)
                    for j in range(len(self.conv_blocks[i])):
                        conv = self.conv_blocks[i][j]
                        grouped = F.relu(conv(grouped))
                return grouped
      `,
      errors: [{ line: 5, messageIncludes: ["several times per forward pass"] }],
    },
    {
      name: "a name bound to a tensor with elements (`anchors = torch.Tensor(all_anchors)`, then `anchors = anchors.cuda()`) is copied every forward pass",
      code: py`
        import torch
        import numpy as np
        class Detector(torch.nn.Module):
            def forward(self, x):
                anchors = torch.Tensor(np.zeros((9, 4)))
                anchors = anchors.cuda()
                return self.head(x) + anchors
      `,
      errors: [{ line: 6 }],
    },
    {
      name: "a tensor built from each item of a comprehension (OpenNMT's \`[torch.tensor(ex['src_ids'], device=device) for ex in minibatch]\`): the message says to copy the items once after the loop, not to build it once",
      code: py`
        import torch
        def tensorify(minibatch, device):
            return [torch.tensor(ex["src_ids"], dtype=torch.long, device=device) for ex in minibatch]
        def train(loader, model, device):
            for minibatch in loader:
                model(tensorify(minibatch, device)).backward()
      `,
      errors: [{ line: 3, messageIncludes: ["each item brings its own data", "copy them once after the loop"] }],
    },
    {
      name: "a tensor of an attribute another method sets again each step (a beam search's \`self.is_finished_list\`) changes from one call to the next; one only \`__init__\` sets could be built once",
      code: py`
        import torch
        class BeamSearch:
            def __init__(self, eos, sizes):
                self.eos = eos
                self.sizes = sizes
            def advance(self, topk_ids):
                self.is_finished_list = topk_ids.eq(self.eos).tolist()
            def update_finished(self, scores):
                finished = torch.tensor(self.is_finished_list, device=scores.device)
                sizes = torch.tensor(self.sizes, device=scores.device)
                return finished, sizes
        def translate(model, src, eos, sizes):
            beam = BeamSearch(eos, sizes)
            for step in range(100):
                scores = model(src)
                beam.advance(scores.topk(4).indices)
                beam.update_finished(scores)
      `,
      errors: [
        { line: 9, messageIncludes: ["its data changes from one call to the next"] },
        { line: 10, messageIncludes: ["build it once before the loop"] },
      ],
    },
    {
      name: "a tensor built each step from an environment's new data: the message suggests a non-blocking copy from pinned memory, not building it once (cleanrl, stable-baselines3); a constant keeps that advice",
      code: py`
        import torch
        def rollout(envs, agent, device, num_steps):
            next_obs = torch.zeros(8, 4, device=device)
            for step in range(num_steps):
                action = agent.get_action(next_obs)
                obs, reward, done, info = envs.step(action.cpu().numpy())
                rewards = torch.tensor(reward, device=device)
                next_obs = torch.tensor(obs, device=device)
                weights = torch.tensor([0.3, 0.7], device=device)
      `,
      errors: [
        { line: 7, messageIncludes: ["its data changes from one call to the next", "pin_memory().to(device, non_blocking=True)"] },
        { line: 8, messageIncludes: ["its data changes from one call to the next"] },
        { line: 9, messageIncludes: ["build it once before the loop"] },
      ],
    },
    {
      name: "a solver's own `self.log_progress(stage, loader)` is not taken for a progress bar over batches (its stages include sampling a few batches every few epochs: audiocraft's `generate`): what it yields is not known to be host data",
      code: py`
        import torch
        class Solver:
            def __init__(self, model, loaders, device):
                self.model = model
                self.device = device
                self.dataloaders = dict(loaders)
            def log_progress(self, stage, iterable, total):
                return iterable
            def generate(self):
                loader = self.dataloaders["generate"]
                lp = self.log_progress("generate", loader, total=len(loader))
                for batch in lp:
                    reference = batch.to(self.device)
                    self.model(reference)
      `,
      errors: [{ line: 13, messageIncludes: ["(if `batch` is in host memory)"] }],
    },
    {
      name: "the batches of a progress display over one of the loaders a `dict()` keeps, also when a branch may replace the loader (audiocraft's solvers, with a progress bar of their own)",
      code: py`
        import torch
        class Solver:
            def __init__(self, model, loaders, device, benchmark_no_load=False):
                self.model = model.to(device)
                self.device = device
                self.benchmark_no_load = benchmark_no_load
                self.dataloaders = dict()
                self.dataloaders.update(loaders)
            def progress_bar(self, iterable, total):
                return iterable
            def evaluate(self):
                loader = self.dataloaders["valid"]
                if self.benchmark_no_load:
                    batch = next(iter(loader))
                    loader = [batch] * 10
                lp = self.progress_bar(loader, total=len(loader))
                for batch in lp:
                    x = batch.to(self.device)
                    self.model(x)
      `,
      errors: [{ line: 18, messageIncludes: ["`batch.to(self.device)` in the step loop of `Solver.evaluate()` (line 17) copies host memory to the GPU and blocks"] }],
    },
    {
      name: "`mask.type_as(query)` of a mask cached in host memory, in every attention forward, is `mask.type(query.type())`: a blocking copy to the GPU (vq-vae-2-pytorch's PixelSNAIL); a GPU mask or a host query is not reported",
      code: py`
        from functools import lru_cache
        import numpy as np
        import torch
        import torch.nn as nn
        @lru_cache(maxsize=64)
        def causal_mask(size):
            mask = np.triu(np.ones([size, size]), k=1).astype(np.uint8).T
            return torch.from_numpy(mask).unsqueeze(0)
        class CausalAttention(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.query = nn.Linear(dim, dim)
            def forward(self, query, key):
                query = self.query(query)
                mask = causal_mask(query.shape[1]).type_as(query)
                same = self.mask_buffer.type_as(query)
                host = torch.ones(3).type_as(torch.zeros(3))
                return torch.matmul(query, key).masked_fill(mask == 0, -1e4) * same * host.sum()
      `,
      errors: [{ line: 15, messageIncludes: ["casts a host tensor to a GPU tensor's type", "on every forward pass", "`.to(query.device, non_blocking=True)`"] }],
    },
    {
      name: "`type_as` of a `forward` input, whose device the module's own code does not know, copies host data there too, under an assumption (faster-rcnn's anchor shifts built with NumPy in every forward)",
      code: py`
        import numpy as np
        import torch
        import torch.nn as nn
        class ProposalLayer(nn.Module):
            def forward(self, input):
                scores = input[0][:, 9:, :, :]
                shift_x = np.arange(0, scores.size(3)) * 16
                shifts = torch.from_numpy(shift_x).contiguous().type_as(scores).float()
                offset = torch.arange(0, scores.size(0)) * 20
                return shifts.sum() + offset.type_as(scores).sum()
      `,
      errors: [
        { line: 8, messageIncludes: ["casts a host tensor to a GPU tensor's type", "(if `scores` is on a GPU)"] },
        { line: 10, messageIncludes: ["`offset.type_as(scores)`"] },
      ],
    },
    {
      name: "the batch of a step function given to ignite's `Engine(step)` is an item of the loader that `trainer.run(loader)` runs on (ignite's DCGAN example); an engine run on other data says nothing",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from ignite.engine import Engine
        def main(model, dataset, device, optimizer, cached):
            loader = DataLoader(dataset, batch_size=64, pin_memory=True)
            def step(engine, batch):
                real, _ = batch
                real = real.to(device)
                loss = model(real).mean()
                loss.backward()
                optimizer.step()
            def evaluate(engine, batch):
                return model(batch.to(device))
            trainer = Engine(step)
            evaluator = Engine(evaluate)
            trainer.run(loader, max_epochs=5)
            evaluator.run(cached)
      `,
      errors: [{ line: 8, messageIncludes: ["`real.to(device)`", "in `step()`"] }],
    },
    {
      name: "a loop that runs the model on the batches it gathers until it has enough is a step loop still",
      code: py`
        import torch
        def gather_features(model, dataloader, device, n=50000):
            feats = []
            for img, _ in dataloader:
                img = img.to(device)
                feats.extend(model(img))
                if len(feats) >= n:
                    break
            return feats
      `,
      errors: [{ line: 5, messageIncludes: ["`img.to(device)`", "step loop of `gather_features()`"] }],
    },
    {
      name: "`map(lambda x: x.to(device), batch)` moves each element of a loader's batch from host memory",
      code: py`
        import torch
        def train_epoch(model, loader, device):
            for batch in loader:
                src, trg = map(lambda x: x.to(device), batch)
                model(src, trg).sum().backward()
      `,
      errors: [{ line: 4, messageIncludes: ["`x.to(device)`", "copies host memory to the GPU and blocks"], messageExcludes: ["if `x` is in host memory"] }],
    },
    {
      name: "part of a GPU tensor set to a host tensor (`gain[2:6] = torch.tensor(shape)[[3, 2, 3, 2]]`, YOLO's loss); not a 0-dim host value (a fill), a GPU value, or a list index",
      code: py`
        import torch
        def build_targets(p, targets, na):
            gain = torch.ones(7, device=targets.device)
            for i in range(na):
                shape = p[i].shape
                gain[2:6] = torch.tensor(shape)[[3, 2, 3, 2]]
                gain[0] = torch.tensor(1.0)
                gain[1:3] = targets[0, 1:3]
                gain[[1, 2]] = torch.tensor([1.0, 2.0])
            return gain
        def train(loader, model, optimizer, na):
            for x, y in loader:
                p = model(x.cuda(non_blocking=True))
                build_targets(p, y.cuda(non_blocking=True), na)
      `,
      errors: [{ line: 6, messageIncludes: "`gain[2:6] = torch.tensor(shape)[[3, 2, 3, 2]]` in the loop at line 4 in `build_targets()`, called at line 14 in the step loop of `train()` (line 12) copies a host tensor into a GPU tensor with a blocking copy" }],
    },
    {
      name: "`gpu_buffer.copy_(host_tensor)` without `non_blocking=True` (a static input refilled every step)",
      code: py`
        import torch
        def train(loader, model, optimizer):
            static_input = torch.empty(64, 3, 224, 224, device="cuda")
            for x, y in loader:
                static_input.copy_(x)
                model(static_input).mean().backward()
                optimizer.step()
      `,
      errors: [{ line: 5, messageIncludes: "`static_input.copy_(x)` in the step loop of `train()` (line 4) copies host memory to the GPU and blocks" }],
    },
    {
      name: "a loader's batch that every call passes is host memory, whatever the parameter's annotation",
      code: py`
        import torch
        class Recipe:
            def concatenated_forward(self, model, batch: tuple[torch.Tensor, torch.Tensor]):
                input_ids, labels = batch
                input_ids = input_ids.to(self._device)
                return model(input_ids), labels
            def train(self, loader):
                for idx, batch in enumerate(loader):
                    policy = self.concatenated_forward(self._model, batch)
                    reference = self.concatenated_forward(self._ref_model, batch)
      `,
      errors: [{ line: 5, messageIncludes: ["`input_ids.to(self._device)`", "copies host memory to the GPU", "every step"] }],
    },
    {
      name: "what every call of the file passes tells a parameter's device and kind (a CPU tensor, a size)",
      code: py`
        import torch
        def make(size, device="cpu"):
            return torch.eye(size, device=device)
        def pad(G, k):
            return torch.tensor([k, k], device=G.device)
        def embed(t, dim):
            half = dim // 2
            return torch.exp(torch.arange(half) / half).to(device=t.device)
        def train(loader, model):
            for x in loader:
                G = make(3)
                p = pad(G, 2)
                e = embed(x.cuda(non_blocking=True), 128)
      `,
      errors: [{ line: 8, messageIncludes: ["`torch.exp(torch.arange(half) / half).to(device=t.…`", "copies host memory to the GPU"] }],
    },
    {
      name: "legacy CUDA tensor types: `imgs.type(Tensor)` and `Tensor(host_data)` copy host memory; `Tensor(sizes)` allocates",
      code: py`
        import numpy as np
        import torch
        cuda = torch.cuda.is_available()
        Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
        def train(dataloader, generator, latent_dim):
            for i, (imgs, _) in enumerate(dataloader):
                valid = Tensor(imgs.size(0), 1).fill_(1.0)
                real_imgs = imgs.type(Tensor)
                z = Tensor(np.random.normal(0, 1, (imgs.shape[0], latent_dim)))
                fake = generator(z)
                kept = imgs.type(torch.FloatTensor)
      `,
      errors: [
        { line: 8, column: 26, messageIncludes: ["`imgs.type(Tensor)`", "copies host memory to the GPU", "every step"] },
        { line: 9, column: 13, messageIncludes: ["`Tensor(np.random.normal(0, 1, (imgs.shape[0], lat…`", "builds a tensor on the host"] },
      ],
    },
    {
      name: "a tokenizer's output moved to the device in `forward` is a copy from host memory",
      code: py`
        import torch
        from torch import nn
        class Captioner(nn.Module):
            def forward(self, image, caption):
                text = self.tokenizer(caption, padding="longest", return_tensors="pt").to(image.device)
                embeds = self.encoder(image)
                return embeds.to(image.device), text
      `,
      errors: [{ line: 5, column: 80, messageIncludes: ["`self.tokenizer(caption, padding=\"longest\", return…`", "copies host memory to the GPU", "on every forward pass"] }],
    },
    {
      name: "a host tensor offset by a rank (`torch.distributed.get_rank()`, a Python int) is still in host memory",
      code: py`
        import torch
        from torch import nn
        class MoCo(nn.Module):
            def forward(self, q, k):
                logits = torch.einsum("nc,mc->nm", [q, k])
                N = logits.shape[0]
                labels = (torch.arange(N, dtype=torch.long) + N * torch.distributed.get_rank()).cuda()
                return nn.CrossEntropyLoss()(logits, labels)
      `,
      errors: [{ line: 7, messageIncludes: ["copies host memory to the GPU", "on every forward pass"] }],
    },
    {
      name: "the ids and the mask of a tokenizer's output are in host memory too (`.input_ids`, `[\"attention_mask\"]`)",
      code: py`
        import torch
        class Captioner(torch.nn.Module):
            def forward(self, image, prompt):
                input_ids = self.tokenizer(prompt, return_tensors="pt").input_ids.to(image.device)
                mask = self.tokenizer(prompt, return_tensors="pt")["attention_mask"].to(image.device)
                return self.decoder(input_ids, mask, self.visual_encoder(image))
      `,
      errors: [
        { line: 4, messageIncludes: ["`self.tokenizer(prompt, return_tensors=\"pt\").input…`", "copies host memory to the GPU"] },
        { line: 5, messageIncludes: ["copies host memory to the GPU"] },
      ],
    },
    {
      name: "`.to(...)` a helper that returns the device: `dist_util.dev()`, `torch.cuda.current_device()`",
      code: py`
        import torch
        from utils import dist_util
        def train(loader, model):
            for x, y, z in loader:
                x = x.to(dist_util.dev())
                y = y.to(torch.cuda.current_device())
                z = z.to(get_device())
      `,
      errors: [
        { line: 5, messageIncludes: ["`x.to(dist_util.dev())`"] },
        { line: 6, messageIncludes: ["`y.to(torch.cuda.current_device())`"] },
        { line: 7, messageIncludes: ["`z.to(get_device())`"] },
      ],
    },
    {
      name: "a copy of a value of unknown device says it holds if the value is in host memory; a batch's does not",
      code: py`
        import torch
        def train(loader, model, device, weights):
            for x, y in loader:
                w = weights[0].to(device)
                x = x.to(device)
      `,
      errors: [
        { line: 4, messageIncludes: ["`weights[0].to(device)`", "copies host memory to the GPU (if `weights[0]` is in host memory) and blocks"] },
        { line: 5, messageIncludes: ["`x.to(device)` in the step loop of `train()` (line 3) copies host memory to the GPU and blocks"] },
      ],
    },
    {
      name: "`.to(device)` of a batch",
      code: py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                x = x.to(device)
                y = y.to(device, non_blocking=True)
      `,
      errors: [{ line: 4, column: 15, endColumn: 25, messageIncludes: ["`x.to(device)`", "step loop of `train()` (line 3)", "non_blocking=True"] }],
    },
    {
      name: "`.cuda()` on both tensors",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                x, y = x.cuda(), y.cuda()
      `,
      errors: [{ line: 4, column: 18 }, { line: 4, column: 28 }],
    },
    {
      name: "`.to(device=device)`",
      code: py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                x = x.to(device=device)
      `,
      errors: [{ line: 4, column: 15 }],
    },
    {
      name: "torch.tensor(..., device=) in the loop",
      code: py`
        import torch
        def train(loader, model, device):
            for x, y in loader:
                w = torch.tensor([0.3, 0.7], device=device)
      `,
      errors: [{ line: 4, column: 13, endColumn: 52, messageIncludes: ["builds a tensor on the host", "build it once before the loop"] }],
    },
    {
      name: "dict comprehension over a batch",
      code: py`
        import torch
        def train(loader, model, device):
            for batch in loader:
                batch = {k: v.to(device) for k, v in batch.items()}
      `,
      errors: [{ line: 4, column: 23, messageIncludes: "several times per step" }],
    },
    {
      name: "`batch[key].to(\"cuda\")`",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                inputs = batch["input_ids"].to("cuda")
      `,
      errors: [{ line: 4, column: 37 }],
    },
    {
      name: "x.new_tensor in forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                scale = x.new_tensor([0.5, 2.0])
                return x * scale
      `,
      errors: [{ line: 5, column: 19, messageIncludes: ["in `Net.forward()`", "registered buffer"] }],
    },
    {
      name: "torch.as_tensor of host data with device=",
      code: py`
        import torch
        import numpy as np
        def train(loader, model, device):
            for x, y in loader:
                weights = torch.as_tensor(np.ones(3), device=device)
      `,
      errors: [{ line: 5, column: 19 }],
    },
    {
      name: "while True with next(data_iter)",
      code: py`
        import torch
        def train(model, optimizer, data_iter, device):
            while True:
                x, y = next(data_iter)
                x = x.to(device)
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
      `,
      errors: [{ line: 5, column: 15, messageIncludes: "step loop of `train()` (line 3)" }],
    },
    {
      name: "enumerate(tqdm(loader)) with a training step",
      code: py`
        import torch
        from tqdm import tqdm
        def train(train_loader, model, optimizer, device):
            for i, (images, labels) in enumerate(tqdm(train_loader)):
                images = images.to(device)
                loss = model(images).mean()
                loss.backward()
                optimizer.step()
      `,
      errors: [{ line: 5, column: 25, messageIncludes: "step loop of `train()` (line 4)" }],
    },
    {
      name: "strict preset reports torch.tensor outside a loop",
      preset: "strict",
      code: py`
        import torch
        def main(device):
            w = torch.tensor([0.3, 0.7], device=device)
      `,
      errors: [{ line: 3, column: 9, hot: false }],
    },
  ],
});
