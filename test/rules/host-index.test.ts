import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("host-index", {
  valid: [
    {
      name: "the branch of an option that a `@dataclass` given to `tyro.cli` turns off by default never runs (cleanrl's `clip_vloss: bool = True`)",
      code: py`
        from dataclasses import dataclass
        import numpy as np
        import torch
        import tyro
        @dataclass
        class Args:
            clip_vloss: bool = True
            minibatch_size: int = 64
        args = tyro.cli(Args)
        def update(agent, optimizer, b_obs, rewards, batch_size, device):
            b_returns = torch.zeros(batch_size, device=device) + rewards.sum()
            inds = np.arange(batch_size)
            for start in range(0, batch_size, args.minibatch_size):
                mb_inds = inds[start:start + args.minibatch_size]
                newvalue = agent.get_value(b_obs)
                if args.clip_vloss:
                    v_loss = newvalue.clamp(-1, 1).mean()
                else:
                    v_loss = ((newvalue - b_returns[mb_inds]) ** 2).mean()
                optimizer.zero_grad()
                v_loss.backward()
                optimizer.step()
      `,
    },
    {
      name: "a list that gathers tensors, or takes other lists whole, is not known to hold numbers",
      code: py`
        import torch
        def evaluate(model, batches, extra):
            for x, y in batches:
                out = model(x.cuda(non_blocking=True))
                chosen = []
                chosen.append(y.cuda(non_blocking=True))
                picked = out[chosen]
                others = []
                others.append(1)
                others.extend(extra)
                kept = out[others]
      `,
    },
    {
      name: "an index built on the device (`device=`) is not copied",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                q = model(x.cuda(non_blocking=True))
                rows = torch.arange(q.size(0), device=q.device)
                picked = q[rows, y.cuda(non_blocking=True)]
      `,
    },
    {
      name: "a NumPy array indexing a NumPy array (a replay buffer on the host)",
      code: py`
        import numpy as np
        import torch
        def train(buffer, model, steps):
            for step in range(steps):
                idx = np.random.choice(len(buffer.obs), 64)
                obs = torch.as_tensor(buffer.obs[idx]).cuda(non_blocking=True)
                model(obs).mean().backward()
      `,
    },
    {
      name: "a NumPy scalar (`np.argmax(a)`, `np.random.choice(n)`) is a plain integer index",
      code: py`
        import numpy as np
        import torch
        def train(loader, model, scores):
            for x in loader:
                out = model(x.cuda(non_blocking=True))
                best = out[np.argmax(scores)]
                other = out[np.random.choice(8)]
      `,
    },
    {
      name: "`torch.tensor(3)` is an integer index, not an index tensor",
      code: py`
        import torch
        def train(loader, model):
            for x in loader:
                out = model(x.cuda(non_blocking=True))
                first = out[torch.tensor(3)]
      `,
    },
    {
      name: "an index moved to the device first",
      code: py`
        import numpy as np
        import torch
        def train(loader, model, batch_size):
            for x in loader:
                out = model(x.cuda(non_blocking=True))
                idx = torch.from_numpy(np.arange(batch_size)).cuda()
                picked = out[idx]
      `,
    },
    {
      name: "once, before the loop",
      code: py`
        import torch
        def evaluate(model, x):
            out = model(x.cuda())
            return out[:, [0, 2]]
      `,
    },
  ],
  invalid: [
    {
      name: "arithmetic of `torch.arange(n)` with numbers stays on the host (`(q_coords - k_coords) + (k - 1)`, `[:, None]`), in a helper that a module's `forward` calls (segment-anything's `get_rel_pos`)",
      code: py`
        import torch
        from torch import nn

        def get_rel_pos(q_size: int, k_size: int, rel_pos: torch.Tensor) -> torch.Tensor:
            q_coords = torch.arange(q_size)[:, None] * max(k_size / q_size, 1.0)
            k_coords = torch.arange(k_size)[None, :] * max(q_size / k_size, 1.0)
            relative_coords = (q_coords - k_coords) + (k_size - 1) * max(q_size / k_size, 1.0)
            return rel_pos[relative_coords.long()]

        class Attention(nn.Module):
            def forward(self, x):
                return x + get_rel_pos(4, 4, self.rel_pos_h)
      `,
      errors: [{ line: 8, messageIncludes: ["`rel_pos[relative_coords.long()]`", "a CPU tensor (`torch.arange(q_size)` has no `device=`)", "on every forward pass"] }],
    },
    {
      name: "a list built by appending Python numbers (`letter_ids.append(cache[letter])`) indexing GPU logits (nanochat's categorical eval)",
      code: py`
        import torch
        def evaluate(model, batches, tokenizer):
            cache = {}
            for prompt_ids, letters in batches:
                logits = model(prompt_ids.cuda(non_blocking=True))
                letter_ids = []
                for letter in letters:
                    letter_ids.append(cache[letter])
                picked = logits[0, -1, letter_ids]
      `,
      errors: [{ line: 9, messageIncludes: "`letter_ids`, a Python list" }],
    },
    {
      name: "minibatch indices from NumPy, sliced per minibatch (PPO)",
      code: py`
        import numpy as np
        import torch
        device = torch.device("cuda")
        obs = torch.zeros((128, 4, 8)).to(device)
        b_inds = np.arange(512)
        for update in range(num_updates):
            b_obs = obs.reshape((-1, 8))
            np.random.shuffle(b_inds)
            for start in range(0, 512, 128):
                mb_inds = b_inds[start:start + 128]
                loss = agent.loss(b_obs[mb_inds])
                loss.backward()
                optimizer.step()
      `,
      errors: [{ line: 11, column: 27, messageIncludes: "with `mb_inds`, a NumPy array, which is copied to the GPU with a blocking copy first" }],
    },
    {
      name: "minibatch indices that an index array picks of a NumPy array, flattened (recurrent PPO: whole environments per minibatch)",
      code: py`
        import numpy as np
        import torch
        device = torch.device("cuda")
        obs = torch.zeros((128, 4, 8)).to(device)
        state = torch.zeros((1, 4, 16)).to(device)
        envinds = np.arange(4)
        flatinds = np.arange(512).reshape(128, 4)
        for update in range(num_updates):
            b_obs = obs.reshape((-1, 8))
            np.random.shuffle(envinds)
            for start in range(0, 4, 2):
                mbenvinds = envinds[start:start + 2]
                mb_inds = flatinds[:, mbenvinds].ravel()
                first = flatinds[0, 1]
                loss = agent.loss(b_obs[mb_inds], state[:, mbenvinds], b_obs[first])
                loss.backward()
                optimizer.step()
      `,
      errors: [
        { line: 15, column: 27, messageIncludes: "with `mb_inds`, a NumPy array" },
        { line: 15, column: 43, messageIncludes: "with `mbenvinds`, a NumPy array" },
      ],
    },
    {
      name: "`torch.arange(n)` without `device=`, a list of integers and a `range` in an index",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for x, actions in loader:
                q = model(x.cuda(non_blocking=True))
                chosen = q[torch.arange(q.size(0)), actions.cuda(non_blocking=True)]
                corners = q[:, [0, 2]]
                rows = q[range(4)]
                chosen.sum().backward()
                optimizer.step()
      `,
      errors: [
        { line: 5, messageIncludes: "a CPU tensor (`torch.arange(q.size(0))` has no `device=`)" },
        { line: 6, messageIncludes: "with a Python list" },
        { line: 7, messageIncludes: "with a `range`" },
      ],
    },
    {
      name: "a write through a host index (`x[ind_cpu] = y`) in `forward`",
      code: py`
        import torch
        class Shuffle(torch.nn.Module):
            def forward(self, x):
                perm = torch.randperm(x.size(1)).long()
                out = torch.empty_like(x)
                out[:, perm] = x
                return out
      `,
      errors: [{ line: 6, messageIncludes: "`perm`, a CPU tensor (`torch.randperm(x.size(1))` has no `device=`)" }],
    },
    {
      name: "strict: a one-off index copy is reported too",
      preset: "strict",
      code: py`
        import torch
        def evaluate(model, x):
            out = model(x.cuda())
            return out[:, [0, 2]]
      `,
      errors: [{ line: 4, messageIncludes: "with a Python list" }],
    },
  ],
});
