import { py } from "../helpers";
import { fixTester } from "./fix-tester";

const HEAD = py`
  import torch
  from torch.utils.data import DataLoader
  device = torch.device("cuda")
`;

fixTester.run("dataloader-pin-memory", [
  {
    name: "adds pin_memory=True as the last argument",
    code: HEAD + py`
      loader = DataLoader(ds, batch_size=8)
      for x, y in loader:
          x = x.to(device)
    `,
    output: HEAD + py`
      loader = DataLoader(ds, batch_size=8, pin_memory=True)
      for x, y in loader:
          x = x.to(device)
    `,
  },
  {
    name: "turns pin_memory=False into True",
    code: HEAD + py`
      loader = DataLoader(ds, pin_memory=False, shuffle=True)
      for x, y in loader:
          x = x.cuda()
    `,
    output: HEAD + py`
      loader = DataLoader(ds, pin_memory=True, shuffle=True)
      for x, y in loader:
          x = x.cuda()
    `,
  },
  {
    name: "no pin_memory fix when the dataset may already be on the GPU (pinning it would raise)",
    code: HEAD + py`
      ds = TensorDataset(X.to(device), Y.to(device))
      loader = DataLoader(ds, batch_size=8)
      for x, y in loader:
          x = x.to(device)
    `,
    output: null,
  },
  {
    name: "keeps a trailing comma in a multi-line call",
    code: HEAD + py`
      loader = DataLoader(
          ds,
          batch_size=8,
      )
      for x, y in loader:
          x = x.to(device)
    `,
    output: HEAD + py`
      loader = DataLoader(
          ds,
          batch_size=8, pin_memory=True,
      )
      for x, y in loader:
          x = x.to(device)
    `,
  },
]);

fixTester.run("blocking-host-to-device", [
  {
    name: "a factory copied to the GPU is made there (`torch.zeros(n).cuda()` → `device=\"cuda\"`, `.to(device)`, `.to(device=d)`), a safe fix",
    code: py`
      import torch
      def train(model, loader, device):
          for x, y in loader:
              x = x.to(device, non_blocking=True)
              labels = torch.zeros(x.size(0), dtype=torch.long).cuda()
              idx = torch.arange(x.size(0)).to(device)
              w = torch.full((3,), 0.5).to(device=device)
              model(x, labels, idx, w).backward()
    `,
    output: py`
      import torch
      def train(model, loader, device):
          for x, y in loader:
              x = x.to(device, non_blocking=True)
              labels = torch.zeros(x.size(0), dtype=torch.long, device="cuda")
              idx = torch.arange(x.size(0), device=device)
              w = torch.full((3,), 0.5, device=device)
              model(x, labels, idx, w).backward()
    `,
  },
  {
    name: "random numbers made on the GPU come from its own generator: a suggestion only",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              noise = torch.randn(x.size(0), 8).cuda()
              perm = torch.randperm(x.size(0)).cuda(0)
              model(x.cuda(non_blocking=True) + noise, perm).backward()
    `,
    output: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              noise = torch.randn(x.size(0), 8, device="cuda")
              perm = torch.randperm(x.size(0), device=0)
              model(x.cuda(non_blocking=True) + noise, perm).backward()
    `,
  },
  {
    name: "no factory fix where the copy also casts, a cast comes between, or the factory already names a device",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, device):
          for x, y in loader:
              a = torch.zeros(4).to(device, torch.float16)
              b = torch.ones(4).long().cuda()
              c = torch.zeros(4, device="cpu").to(device)
              model(x.to(device, non_blocking=True), a, b, c).backward()
    `,
    output: null,
  },
  {
    name: "a scale factor tensor becomes the Python number (a suggestion), on either side and negative",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader):
          for x, y in loader:
              out = model(x.to(device, non_blocking=True))
              loss = (out * torch.tensor(0.5, device=device)).sum() + torch.tensor(2, device=device) * out.mean()
              loss = loss / torch.tensor(-0.25, device=device)
              loss.backward()
    `,
    output: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader):
          for x, y in loader:
              out = model(x.to(device, non_blocking=True))
              loss = (out * 0.5).sum() + 2 * out.mean()
              loss = loss / (-0.25)
              loss.backward()
    `,
  },
  {
    name: "no scale-factor fix for a number float32 cannot hold, a dtype, a Python operand or an operator other than * / + -",
    unsafe: true,
    code: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader, lr):
          for x, y in loader:
              out = model(x.to(device, non_blocking=True))
              a = out * torch.tensor(0.1, device=device)
              b = out * torch.tensor(0.5, device=device, dtype=torch.float64)
              c = lr * torch.tensor(0.5, device=device)
              d = out ** torch.tensor(2.0, device=device)
              e = out * torch.tensor(16777217, device=device)
              (a + b + c + d + e).sum().backward()
    `,
    output: null,
  },
  {
    name: "non_blocking=True on .to(device) and .cuda() of batches a default-collating DataLoader yields",
    code: py`
      import torch
      from torch.utils.data import DataLoader
      device = torch.device("cuda")
      def train(model, dataset):
          loader = DataLoader(dataset, batch_size=8, pin_memory=True)
          for step, (x, y) in enumerate(loader):
              x = x.to(device)
              y = y.cuda()
              model(x, y).backward()
    `,
    output: py`
      import torch
      from torch.utils.data import DataLoader
      device = torch.device("cuda")
      def train(model, dataset):
          loader = DataLoader(dataset, batch_size=8, pin_memory=True)
          for step, (x, y) in enumerate(loader):
              x = x.to(device, non_blocking=True)
              y = y.cuda(non_blocking=True)
              model(x, y).backward()
    `,
  },
  {
    // DETR's `NestedTensor.to(self, device)` takes no `non_blocking`: a loader of unknown collation gets a suggestion.
    name: "non_blocking on batches of a loader passed in, or with a collate_fn, is only a suggestion",
    code: py`
      import torch
      from torch.utils.data import DataLoader
      device = torch.device("cuda")
      def train(model, loader, dataset, collate):
          for samples, targets in loader:
              samples = samples.to(device)
              model(samples).backward()
          custom = DataLoader(dataset, collate_fn=collate)
          for batch in custom:
              batch = batch.to(device)
              model(batch).backward()
    `,
    unsafe: true,
    suggestionOnly: true,
    output: py`
      import torch
      from torch.utils.data import DataLoader
      device = torch.device("cuda")
      def train(model, loader, dataset, collate):
          for samples, targets in loader:
              samples = samples.to(device, non_blocking=True)
              model(samples).backward()
          custom = DataLoader(dataset, collate_fn=collate)
          for batch in custom:
              batch = batch.to(device, non_blocking=True)
              model(batch).backward()
    `,
  },
  {
    name: "no non_blocking fix for a tensor that is not a batch from the loader",
    code: py`
      import torch
      device = torch.device("cuda")
      def train(model, data, steps):
          for i in range(steps):
              x = data[i].to(device)
              model(x).backward()
    `,
    output: null,
  },
  {
    name: "no non_blocking fix when the host batch is changed in place after the copy",
    code: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader):
          for x, y in loader:
              x_gpu = x.to(device)
              x.zero_()
              model(x_gpu).backward()
    `,
    output: null,
  },
  {
    name: "no non_blocking fix when another name keeps the host batch",
    code: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader):
          for batch in loader:
              inputs = batch[0]
              x = batch[0].to(device)
              inputs.mul_(2)
              model(x).backward()
    `,
    output: null,
  },
  {
    name: "non_blocking on tuple assignment of several batch tensors",
    code: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader):
          for data, target in loader:
              data, target = data.to(device), target.to(device)
              model(data, target).backward()
    `,
    unsafe: true,
    output: py`
      import torch
      device = torch.device("cuda")
      def train(model, loader):
          for data, target in loader:
              data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
              model(data, target).backward()
    `,
  },
  {
    name: "hoists a constant torch.tensor(..., device=d) before the loop",
    code: py`
      import torch
      import torch.nn.functional as F
      def train(model, loader, device):
          for x, y in loader:
              x = x.to(device, non_blocking=True)
              w = torch.tensor([0.3, 0.7], device=device)
              loss = F.cross_entropy(model(x), y, weight=w)
              loss.backward()
    `,
    output: py`
      import torch
      import torch.nn.functional as F
      def train(model, loader, device):
          w = torch.tensor([0.3, 0.7], device=device)
          for x, y in loader:
              x = x.to(device, non_blocking=True)
              loss = F.cross_entropy(model(x), y, weight=w)
              loss.backward()
    `,
  },
  {
    name: "hoisting keeps CRLF line endings",
    code: "import torch\r\ndef train(model, loader, device):\r\n    for x, y in loader:\r\n        s = torch.tensor(0.5, device=device)\r\n        (model(x.to(device, non_blocking=True)) * s).sum().backward()\r\n",
    output: "import torch\r\ndef train(model, loader, device):\r\n    s = torch.tensor(0.5, device=device)\r\n    for x, y in loader:\r\n        (model(x.to(device, non_blocking=True)) * s).sum().backward()\r\n",
  },
  {
    name: "no hoist when the tensor is changed in place",
    code: py`
      import torch
      def train(model, loader, device):
          for x, y in loader:
              w = torch.tensor([0.3, 0.7], device=device)
              w += 1
              model(x.to(device, non_blocking=True), w).backward()
    `,
    output: null,
  },
  {
    name: "no hoist when the device changes inside the loop",
    code: py`
      import torch
      def train(model, loader, devices):
          for i, (x, y) in enumerate(loader):
              device = devices[i % 2]
              w = torch.tensor([0.3, 0.7], device=device)
              model(x.to(device, non_blocking=True), w).backward()
    `,
    output: null,
  },
  {
    name: "no hoist when the tensor is used after the loop or kept in a list",
    code: py`
      import torch
      def train(model, loader, device):
          kept = []
          for x, y in loader:
              w = torch.tensor([0.3, 0.7], device=device)
              kept.append(w)
              model(x.to(device, non_blocking=True), w).backward()
          return w
    `,
    output: null,
  },
  {
    name: "no hoist for data that is not a literal",
    code: py`
      import torch
      def train(model, loader, device, weights):
          for x, y in loader:
              w = torch.tensor(weights, device=device)
              model(x.to(device, non_blocking=True), w).backward()
    `,
    output: null,
  },
]);

// Value selections rewritten to stay on the device (fixes/value-select.ts) and checks every N steps
// (fixes/periodic-check.ts): all suggestions.
const STEP_HEAD = py`
  import torch
  def train(model, loader, opt):
`;

fixTester.run("implicit-host-read", [
  {
    name: "a if t > c else b with tensor branches → torch.where (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x: torch.Tensor) -> torch.Tensor:
              scale = x.abs().max()
              return x / 10 if scale > 10 else x
    `,
    output: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x: torch.Tensor) -> torch.Tensor:
              scale = x.abs().max()
              return torch.where(scale > 10, x / 10, x)
    `,
  },
  {
    name: "if/else assigning the same name → one torch.where assignment, with tabs and CRLF",
    unsafe: true,
    code: "import torch\r\ndef step(x: torch.Tensor, limit: float):\r\n\tfor _ in range(3):\r\n\t\tx = x * 2\r\n\t\tif x.norm() > 1.0:\r\n\t\t\ty = x\r\n\t\telse:\r\n\t\t\ty = -x\r\n\t\tx = y\r\n\treturn x\r\n",
    output: "import torch\r\ndef step(x: torch.Tensor, limit: float):\r\n\tfor _ in range(3):\r\n\t\tx = x * 2\r\n\t\ty = torch.where(x.norm() > 1.0, x, -x)\r\n\t\tx = y\r\n\treturn x\r\n",
  },
  {
    name: "a number-literal branch broadcasts; adds import torch when only from-imports bind it",
    unsafe: true,
    code: py`
      from torch import Tensor, nn
      class M(nn.Module):
          def forward(self, x: Tensor) -> Tensor:
              return x if x.sum() >= 0 else 0.0
    `,
    output: py`
      import torch
      from torch import Tensor, nn
      class M(nn.Module):
          def forward(self, x: Tensor) -> Tensor:
              return torch.where(x.sum() >= 0, x, 0.0)
    `,
  },
  {
    name: "no torch.where when a branch is a call (it would run, with its side effects, on every step)",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor) -> torch.Tensor:
              return renormalise(x) if x.norm() > 1 else x
    `,
    output: null,
  },
  {
    name: "no torch.where when both branches are Python numbers (the value would become a tensor)",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor, lr):
              return 0.1 if x.norm() > 1 else 0.01
    `,
    output: null,
  },
  {
    name: "no torch.where when a branch is a subscript (it could raise an IndexError when not selected)",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor, i):
              return x[i] if x.sum() > 0 else x
    `,
    output: null,
  },
  {
    name: "no torch.where when a branch reads a name that is only bound later in the loop",
    unsafe: true,
    code: py`
      import torch
      def run(model, loader):
          for x in loader:
              out = model(x)
              y = prev if out.sum() > 0 else out
              prev = out
    `,
    output: null,
  },
  {
    name: "no torch.where for if/else with an elif, other names, two statements or a comment",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor):
              if x.sum() > 0:
                  y = x
              elif x.sum() < -1:
                  y = -x
              else:
                  y = 0 * x
              if x.mean() > 0:
                  y = x
              else:
                  z = x
              if x.max() > 0:
                  y = x
                  z = x
              else:
                  y = -x
              if x.min() > 0:
                  y = x  # keep
              else:
                  y = -x
              return y
    `,
    output: null,
  },
  {
    name: "no torch.where for a condition that is not a bool tensor test (`if t:`)",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor):
              s = x.sum()
              return x if s else -x
    `,
    output: null,
  },
  {
    name: "a float(t) branch becomes t.detach() in torch.where",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader):
          for x in loader:
              loss = model(x.cuda()).mean()
              margin = float(loss) if loss > 0 else 0.0
              (loss * margin).backward()
    `,
    output: py`
      import torch
      def train(model, loader):
          for x in loader:
              loss = model(x.cuda()).mean()
              margin = torch.where(loss > 0, loss.detach(), 0.0)
              (loss * margin).backward()
    `,
  },
  {
    name: "no torch.where for float(t) chosen by a Python condition",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, warmup):
          for x in loader:
              loss = model(x.cuda()).mean()
              margin = float(loss) if warmup else 0.0
              (loss * margin).backward()
    `,
    output: null,
  },
  {
    name: "max(t, eps) → t.clamp(min=eps), min(t, c) → t.clamp(max=c) (suggestions)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor):
              return x / max(x.norm(), 1e-6) * min(x.abs().sum() + 1, 2.0)
    `,
    output: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor):
              return x / x.norm().clamp(min=1e-6) * (x.abs().sum() + 1).clamp(max=2.0)
    `,
  },
  {
    name: "no clamp for max(eps, t) (Python gives eps for NaN, clamp gives NaN) or a bound that may be a tensor",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      class M(nn.Module):
          def forward(self, x: torch.Tensor, bound):
              return x / max(1e-6, x.norm()) + x / max(x.norm(), bound) + max(x.norm(), 1e-6, key=abs)
    `,
    output: null,
  },
  {
    name: "no clamp when max is not the builtin (a function of the file)",
    unsafe: true,
    code: py`
      import torch
      from torch import nn
      def max(a, b):
          return a
      class M(nn.Module):
          def forward(self, x: torch.Tensor):
              return x / max(x.norm(), 1e-6)
    `,
    output: null,
  },
  {
    name: "if torch.isnan(loss).any(): break → checked every check_every steps (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: STEP_HEAD + py`
          for step, (x, y) in enumerate(loader):
              loss = model(x.cuda(), y.cuda())
              if torch.isnan(loss).any():
                  print("nan")
                  break
              loss.backward()
              opt.step()
    `.replace(/^/gm, "    ").replace(/^    $/gm, ""),
    output: STEP_HEAD + py`
          check_every = 100  # steps between checks; each check waits for the GPU
          for step, (x, y) in enumerate(loader):
              loss = model(x.cuda(), y.cuda())
              if (step + 1) % check_every == 0 and torch.isnan(loss).any():
                  print("nan")
                  break
              loss.backward()
              opt.step()
    `.replace(/^/gm, "    ").replace(/^    $/gm, ""),
  },
  {
    name: "a loop without a counter gets enumerate; two checks share one check_every; or-conditions keep their parentheses",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x, y in loader:
              loss = model(x.cuda(), y.cuda())
              if not torch.isfinite(loss):
                  raise FloatingPointError("loss is not finite")
              if torch.isnan(loss) or torch.isinf(loss):
                  return
              loss.backward()
    `,
    output: py`
      import torch
      def train(model, loader, opt):
          check_every = 100  # steps between checks; each check waits for the GPU
          for step, (x, y) in enumerate(loader):
              loss = model(x.cuda(), y.cuda())
              if (step + 1) % check_every == 0 and not torch.isfinite(loss):
                  raise FloatingPointError("loss is not finite")
              if (step + 1) % check_every == 0 and (torch.isnan(loss) or torch.isinf(loss)):
                  return
              loss.backward()
    `,
  },
  {
    name: "the counter of range(n) is used; range with a step gets enumerate",
    unsafe: true,
    code: py`
      import torch
      def train(model, x, n):
          for i in range(n):
              loss = model(x.cuda())
              if loss.isnan():
                  break
          for k in range(0, n, 10):
              loss = model(x.cuda())
              if loss.isnan():
                  break
    `,
    output: py`
      import torch
      def train(model, x, n):
          check_every = 100  # steps between checks; each check waits for the GPU
          for i in range(n):
              loss = model(x.cuda())
              if (i + 1) % check_every == 0 and loss.isnan():
                  break
          check_every = 100  # steps between checks; each check waits for the GPU
          for step, k in enumerate(range(0, n, 10)):
              loss = model(x.cuda())
              if (step + 1) % check_every == 0 and loss.isnan():
                  break
    `,
  },
  {
    name: "no periodic check for a while loop, a counter written in the loop, an else branch, or continue",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, x):
          while True:
              loss = model(x.cuda())
              if torch.isnan(loss).any():
                  break
          for i, batch in enumerate(loader):
              loss = model(batch.cuda())
              i += 1
              if torch.isnan(loss).any():
                  break
          for i, batch in enumerate(loader):
              loss = model(batch.cuda())
              if torch.isnan(loss).any():
                  break
              else:
                  loss.backward()
          for i, batch in enumerate(loader):
              loss = model(batch.cuda())
              if torch.isnan(loss).any():
                  continue
              loss.backward()
    `,
    output: null,
  },
  {
    name: "no periodic check in a loop inside the step loop (its counter restarts every step) or a loop that is not a step loop",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for step, batch in enumerate(loader):
              for micro in batch.cuda().chunk(4):
                  loss = model(micro)
                  loss.backward()
                  if torch.isnan(loss).any():
                      break
              opt.step()
          for name, p in model.named_parameters():
              if torch.isnan(p.cuda()).any():
                  raise ValueError(name)
    `,
    output: null,
  },
  {
    name: "no periodic check when the test calls something that would then run only every N steps",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for step, batch in enumerate(loader):
              loss = model(batch.cuda()).mean()
              if torch.isnan(model(batch.cuda())).any():
                  break
              if torch.isinf(loss).any() or loss.item() > next_limit():
                  break
              loss.backward()
    `,
    output: null,
  },
  {
    name: "no periodic check when the condition is already guarded, or mixes in a Python test",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, strict):
          for step, batch in enumerate(loader):
              loss = model(batch.cuda())
              if (step + 1) % 50 == 0 and torch.isnan(loss).any():
                  break
              if strict and torch.isinf(loss).any():
                  break
    `,
    output: null,
  },
  {
    name: "periodic check keeps tabs and CRLF line endings",
    unsafe: true,
    code: "import torch\r\ndef train(model, loader):\r\n\tfor batch in loader:\r\n\t\tloss = model(batch.cuda())\r\n\t\tif torch.isnan(loss):\r\n\t\t\tbreak\r\n",
    output: "import torch\r\ndef train(model, loader):\r\n\tcheck_every = 100  # steps between checks; each check waits for the GPU\r\n\tfor step, batch in enumerate(loader):\r\n\t\tloss = model(batch.cuda())\r\n\t\tif (step + 1) % check_every == 0 and torch.isnan(loss):\r\n\t\t\tbreak\r\n",
  },
  {
    name: "no periodic check when step and step_index are taken (no free counter name) or check_every means something else",
    unsafe: true,
    code: py`
      import torch
      check_every = "epoch"
      def train(model, loader, step, step_index):
          for x in loader:
              loss = model(x.cuda())
              if torch.isnan(loss).any():
                  break
          for i in range(len(loader)):
              loss = model(loader[i].cuda())
              if torch.isnan(loss).any():
                  break
    `,
    output: null,
  },
]);

fixTester.run("item-in-hot-path", [
  {
    name: "a if t.item() > c else b → torch.where(t > c, a, b) (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x, y in loader:
              out = model(x.cuda())
              loss = out.mean()
              weight = out if loss.item() > 0.5 else out * 0.5
              weight.sum().backward()
    `,
    output: py`
      import torch
      def train(model, loader, opt):
          for x, y in loader:
              out = model(x.cuda())
              loss = out.mean()
              weight = torch.where(loss > 0.5, out, out * 0.5)
              weight.sum().backward()
    `,
  },
  {
    name: "if t.item() > c: / else: assigning one name → torch.where",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, threshold: float):
          for x, y in loader:
              out = model(x.cuda())
              if (out.max().item()) >= threshold:
                  target = out
              else:
                  target = 0
              target.sum().backward()
    `,
    output: py`
      import torch
      def train(model, loader, threshold: float):
          for x, y in loader:
              out = model(x.cuda())
              target = torch.where(out.max() >= threshold, out, 0)
              target.sum().backward()
    `,
  },
  {
    name: "t.item() if t.item() > c else 0.0 → torch.where(t > c, t.detach(), 0.0)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader):
          for x in loader:
              peak = model(x.cuda()).max()
              value = peak.item() if peak.item() > 0.5 else 0.0
              (peak * value).backward()
    `,
    output: py`
      import torch
      def train(model, loader):
          for x in loader:
              peak = model(x.cuda()).max()
              value = torch.where(peak > 0.5, peak.detach(), 0.0)
              (peak * value).backward()
    `,
  },
  {
    name: "max(t.item(), eps) → t.detach().clamp(min=eps), min(...) → clamp(max=...) (suggestions)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      EPS = 1e-6
      def train(model, loader):
          for x, y in loader:
              out = model(x.cuda())
              norm = out.norm()
              scaled = out / max(norm.item(), EPS)
              capped = out * min(out.abs().max().item(), 1.0)
              (scaled + capped).sum().backward()
    `,
    output: py`
      import torch
      EPS = 1e-6
      def train(model, loader):
          for x, y in loader:
              out = model(x.cuda())
              norm = out.norm()
              scaled = out / norm.detach().clamp(min=EPS)
              capped = out * out.abs().max().detach().clamp(max=1.0)
              (scaled + capped).sum().backward()
    `,
  },
  {
    name: "no clamp for max(eps, t.item()), a tensor bound, or an unknown receiver",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, stats):
          for x, y in loader:
              out = model(x.cuda())
              a = out / max(1e-6, out.norm().item())
              b = out / max(out.norm().item(), out.sum())
              c = out / max(stats.item(), 1e-6)
              (a + b + c).sum().backward()
    `,
    output: null,
  },
  {
    name: "no torch.where when the other side of the comparison is another .item() or the branches are numbers",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x, y in loader:
              out = model(x.cuda())
              w = out if out.mean().item() > out.std().item() else -out
              lr = 0.1 if out.mean().item() > 0 else 0.01
              (w * lr).sum().backward()
    `,
    output: null,
  },
  {
    name: "if loss.item() > c: break → checked every check_every steps",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              if loss.item() > 1e4:
                  break
              loss.backward()
    `,
    output: py`
      import torch
      def train(model, loader, opt):
          check_every = 100  # steps between checks; each check waits for the GPU
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              if (step + 1) % check_every == 0 and loss.item() > 1e4:
                  break
              loss.backward()
    `,
  },
]);

fixTester.run("item-in-hot-path", [
  {
    name: "counter: correct += (pred == y).sum().item() (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      def evaluate(model, loader, device):
          correct = 0
          for x, y in loader:
              pred = model(x.to(device)).argmax(1)
              correct += (pred == y.to(device)).sum().item()
          return correct
    `,
    output: py`
      import torch
      def evaluate(model, loader, device):
          correct = 0
          for x, y in loader:
              pred = model(x.to(device)).argmax(1)
              correct += (pred == y.to(device)).sum()
          correct = correct.item() if torch.is_tensor(correct) else correct
          return correct
    `,
  },
  {
    name: "accumulator: running_loss += loss.item() in float64 (suggestion), with tabs",
    unsafe: true,
    suggestionOnly: true,
    code: "import torch\ndef train(model, loader, opt):\n\trunning_loss = 0.0\n\tfor x, y in loader:\n\t\tloss = model(x, y)\n\t\tloss.backward()\n\t\topt.step()\n\t\trunning_loss += loss.item()\n\tprint(running_loss)\n",
    output: "import torch\ndef train(model, loader, opt):\n\trunning_loss = 0.0\n\tfor x, y in loader:\n\t\tloss = model(x, y)\n\t\tloss.backward()\n\t\topt.step()\n\t\trunning_loss += loss.detach().double()\n\trunning_loss = running_loss.item() if torch.is_tensor(running_loss) else running_loss\n\tprint(running_loss)\n",
  },
  {
    name: "adds import torch when the file only has from-imports",
    unsafe: true,
    code: py`
      """Training."""
      from torch import nn
      def train(model, loader, opt):
          total = 0.0
          for x, y in loader:
              loss = model(x, y)
              loss.backward()
              total += loss.item()
          return total
    `,
    output: py`
      """Training."""
      import torch
      from torch import nn
      def train(model, loader, opt):
          total = 0.0
          for x, y in loader:
              loss = model(x, y)
              loss.backward()
              total += loss.detach().double()
          total = total.item() if torch.is_tensor(total) else total
          return total
    `,
  },
  {
    name: "no accumulator fix when the variable is also used inside the loop",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          running_loss = 0.0
          for i, (x, y) in enumerate(loader):
              loss = model(x, y)
              loss.backward()
              running_loss += loss.item()
              if i % 100 == 99:
                  print(running_loss / 100)
                  running_loss = 0.0
    `,
    output: null,
  },
  {
    name: "no accumulator fix when the variable starts as something else than a number",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, start):
          total = start
          for x, y in loader:
              loss = model(x, y)
              loss.backward()
              total += loss.item()
          return total
    `,
    output: null,
  },
  {
    name: "no accumulator fix for a value of unknown dtype",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader):
          n = 0
          for x, y in loader:
              out = model(x)
              out.sum().backward()
              n += out.argmax().item()
          return n
    `,
    output: null,
  },
  {
    name: "Lightning: self.log(name, t.item()) logs the tensor (safe)",
    code: py`
      import torch
      import torch.nn.functional as F
      import lightning as L
      class Model(L.LightningModule):
          def training_step(self, batch, batch_idx):
              loss = F.cross_entropy(self.model(batch[0]), batch[1])
              self.log("train_loss", loss.item(), prog_bar=True)
              self.log("lr", value=self.lr_tensor.item())
              acc = (self.model(batch).argmax(1) == batch[1]).float().mean()
              self.log("acc", value=acc.item())
              return loss
    `,
    output: py`
      import torch
      import torch.nn.functional as F
      import lightning as L
      class Model(L.LightningModule):
          def training_step(self, batch, batch_idx):
              loss = F.cross_entropy(self.model(batch[0]), batch[1])
              self.log("train_loss", loss, prog_bar=True)
              self.log("lr", value=self.lr_tensor.item())
              acc = (self.model(batch).argmax(1) == batch[1]).float().mean()
              self.log("acc", value=acc)
              return loss
    `,
  },
  {
    name: "no Lightning fix outside a LightningModule",
    code: py`
      import torch
      class Trainer:
          def training_step(self, batch, batch_idx):
              loss = self.model(batch)
              self.log("train_loss", loss.item())
              return loss
    `,
    output: null,
  },
]);

fixTester.run("data-dependent-shape", [
  {
    name: "x[x > 0].sum() → torch.where(x > 0, x, 0).sum() (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              return x[x > 0].sum()
    `,
    output: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              return torch.where(x > 0, x, 0).sum()
    `,
  },
  {
    name: "a mask bound once to a comparison of x",
    unsafe: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              keep = x >= 0.5
              return x[keep].sum()
    `,
    output: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              keep = x >= 0.5
              return torch.where(keep, x, 0).sum()
    `,
  },
  {
    name: "one_hot(i) gets num_classes=K when the file binds it to an integer (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      import torch.nn.functional as F
      NUM_CLASSES = 10
      device = "cuda"
      def train(model, loader):
          for x, y in loader:
              y = y.to(device, non_blocking=True)
              a = F.one_hot(y)
              b = F.one_hot(y, -1)
              model(x, a, b).backward()
    `,
    output: py`
      import torch
      import torch.nn.functional as F
      NUM_CLASSES = 10
      device = "cuda"
      def train(model, loader):
          for x, y in loader:
              y = y.to(device, non_blocking=True)
              a = F.one_hot(y, num_classes=NUM_CLASSES)
              b = F.one_hot(y, NUM_CLASSES)
              model(x, a, b).backward()
    `,
  },
  {
    name: "no one_hot fix when the class count is not a known integer",
    unsafe: true,
    code: py`
      import torch
      import torch.nn.functional as F
      device = "cuda"
      def train(model, loader, num_classes):
          for x, y in loader:
              y = y.to(device, non_blocking=True)
              model(x, F.one_hot(y)).backward()
    `,
    output: null,
  },
  {
    name: "no fix when the mask may have another shape than x",
    unsafe: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x, mask):
              return x[mask].sum()
    `,
    output: null,
  },
  {
    name: "x[x > 0].mean() → masked sum / count (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              return x[x > 0].mean()
    `,
    output: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              return torch.where(x > 0, x, 0).sum() / (x > 0).sum()
    `,
  },
  {
    name: "a masked mean inside a larger expression keeps its own parentheses",
    unsafe: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              keep = x >= 0.5
              return 1 - x[keep].mean().clamp(0, 1) * 2
    `,
    output: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              keep = x >= 0.5
              return 1 - (torch.where(keep, x, 0).sum() / keep.sum()).clamp(0, 1) * 2
    `,
  },
  {
    name: "no mean fix when the mask may have another shape than x",
    unsafe: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x, mask):
              return x[mask].mean()
    `,
    output: null,
  },
  {
    name: "no mean fix for a mean along a dimension",
    unsafe: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, x):
              return x[x > 0].mean(dim=0)
    `,
    output: null,
  },
  {
    name: "x[mask] = t.mean() → x.copy_(torch.where(mask, t.mean(), x)) (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              mask = out > 0
              out[mask] = out.mean()  # fill
              model.loss(out, y).backward()
    `,
    output: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              mask = out > 0
              out.copy_(torch.where(mask, out.mean(), out))  # fill
              model.loss(out, y).backward()
    `,
  },
  {
    name: "x[mask] = y[mask] → x.copy_(torch.where(mask, y, x)); tabs, CRLF and a missing `import torch`",
    unsafe: true,
    code: "import torch.nn as nn\r\ndef train(model, loader):\r\n\tfor x, y in loader:\r\n\t\tout = model(x)\r\n\t\tref = model(y)\r\n\t\tout[out < 0.0] = ref[out < 0.0]\r\n",
    output: "import torch\r\nimport torch.nn as nn\r\ndef train(model, loader):\r\n\tfor x, y in loader:\r\n\t\tout = model(x)\r\n\t\tref = model(y)\r\n\t\tout.copy_(torch.where(out < 0.0, ref, out))\r\n",
  },
  {
    name: "no write fix for values of shape [mask.sum()] computed otherwise (where would need them broadcastable to x)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              mask = out > 0
              vals = model(y)
              out[mask] = vals
              out[mask] = vals[out < 1]
    `,
    output: null,
  },
  {
    name: "no write fix when the mask may select rows (its shape is unknown)",
    unsafe: true,
    code: py`
      import torch
      class M(torch.nn.Module):
          def forward(self, h, mask):
              h[mask] = h.mean()
              return h
    `,
    output: null,
  },
  {
    name: "no write fix in a chained assignment or for a reduction along a dimension",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              mask = out > 0
              last = out[mask] = out.max()
              out[mask] = out.sum(0)
    `,
    output: null,
  },
  {
    name: "repeat_interleave(torch.tensor([1, 2, 3])) gets output_size=6 (safe)",
    code: py`
      import torch
      device = "cuda"
      REPEATS = torch.tensor([1, 2, 3], device=device)
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              a = out.repeat_interleave(REPEATS, dim=0)
              b = torch.repeat_interleave(out, torch.tensor((2, 0), device=device, dtype=torch.long), 1)
              c = out.repeat_interleave(repeats=torch.tensor([4, 1]).to(device))
              model.loss(a, b, c).backward()
    `,
    output: py`
      import torch
      device = "cuda"
      REPEATS = torch.tensor([1, 2, 3], device=device)
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              a = out.repeat_interleave(REPEATS, dim=0, output_size=6)
              b = torch.repeat_interleave(out, torch.tensor((2, 0), device=device, dtype=torch.long), 1, output_size=2)
              c = out.repeat_interleave(repeats=torch.tensor([4, 1]).to(device), output_size=5)
              model.loss(a, b, c).backward()
    `,
  },
  {
    name: "no output_size for a single repeat (broadcast over dim: its total is unknown)",
    code: py`
      import torch
      def train(model, loader):
          for x, y in loader:
              out = model(x)
              a = out.repeat_interleave(torch.tensor([3], device="cuda"))
    `,
    output: null,
  },
  {
    name: "no output_size when the repeats tensor may change or is not a literal",
    unsafe: true,
    code: py`
      import torch
      REPEATS = torch.tensor([1, 2], device="cuda")
      SIGNED = torch.tensor([-1, 2], device="cuda")
      def train(model, loader, counts):
          for x, y in loader:
              out = model(x)
              a = out.repeat_interleave(REPEATS, dim=0)
              REPEATS.add_(1)
              b = out.repeat_interleave(counts, dim=0)
              c = out.repeat_interleave(SIGNED, dim=0)
              d = out.repeat_interleave(torch.tensor([1, 2], device="cuda"), **options)
              e = out.repeat_interleave(torch.tensor([1.0, 2.0], device="cuda").long())
    `,
    output: null,
  },
]);

fixTester.run("host-transfer-in-hot-path", [
  {
    name: "append(x.cpu()) → collect on device, move once after the loop",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      def predict(model, loader, device):
          preds = []
          for x, _ in loader:
              preds.append(model(x.to(device)).argmax(1).cpu())
          return torch.cat(preds)
    `,
    output: py`
      import torch
      def predict(model, loader, device):
          preds = []
          for x, _ in loader:
              preds.append(model(x.to(device)).argmax(1))
          preds = [t.cpu() for t in preds]
          return torch.cat(preds)
    `,
  },
  {
    name: "extend(x.cpu().numpy()) and extend(x.tolist()) inside `with torch.no_grad()`",
    unsafe: true,
    code: py`
      import torch
      def predict(model, loader, device):
          preds = []
          labels = []
          with torch.no_grad():
              for x, y in loader:
                  out = model(x.to(device))
                  preds.extend(out.argmax(1).cpu().numpy())
                  labels.extend((y.to(device) + 0).tolist())
          return preds, labels
    `,
    output: py`
      import torch
      def predict(model, loader, device):
          preds = []
          labels = []
          with torch.no_grad():
              for x, y in loader:
                  out = model(x.to(device))
                  preds.append(out.argmax(1))
                  labels.append((y.to(device) + 0))
              labels = [e for t in labels for e in t.tolist()]
              preds = [e for t in preds for e in t.cpu().numpy()]
          return preds, labels
    `,
  },
  {
    name: "no fix when the list is read inside the loop",
    unsafe: true,
    code: py`
      import torch
      def predict(model, loader, device):
          preds = []
          for x, _ in loader:
              preds.append(model(x.to(device)).cpu())
              if len(preds) > 10:
                  break
          return preds
    `,
    output: null,
  },
  {
    name: "no fix when the tensor is a buffer changed in place later",
    unsafe: true,
    code: py`
      import torch
      def predict(model, loader, device):
          preds = []
          for x, _ in loader:
              buf = model(x.to(device))
              preds.append(buf.cpu())
              buf.zero_()
          return preds
    `,
    output: null,
  },
]);

// Batched logging (fixes/batched-logging.ts): a per-step log of one value becomes a device sum reported every
// `log_every` steps and once after the loop. Executed before/after by equivalence programs 40-46.
fixTester.run("item-in-hot-path", [
  {
    name: "batched logging: print(f\"...{loss.item():.4f}\") → a float64 device sum printed every log_every steps and after the loop; enumerate added (suggestion)",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      import torch.nn.functional as F
      def train(model, loader, opt):
          for x, y in loader:
              loss = F.cross_entropy(model(x.cuda()), y.cuda())
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f}")
          return model
    `,
    output: py`
      import torch
      import torch.nn.functional as F
      def train(model, loader, opt):
          log_every = 10
          loss_sum = 0.0
          for step, (x, y) in enumerate(loader):
              loss = F.cross_entropy(model(x.cuda()), y.cuda())
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if (step + 1) % log_every == 0:
                  print(f"loss {loss_sum.item():.4f}")
                  loss_sum = 0.0
          if torch.is_tensor(loss_sum):
              print(f"loss {loss_sum.item():.4f}")
          return model
    `,
  },
  {
    name: "batched logging: add_scalar(tag, loss.item(), i) with enumerate(..., start=1) tests `i % log_every`",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, writer):
          for i, batch in enumerate(loader, start=1):
              loss = model(batch.cuda()).mean()
              loss.backward()
              opt.step()
              writer.add_scalar("train/loss", loss.item(), i)
    `,
    output: py`
      import torch
      def train(model, loader, opt, writer):
          log_every = 10
          loss_sum = 0.0
          for i, batch in enumerate(loader, start=1):
              loss = model(batch.cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if i % log_every == 0:
                  writer.add_scalar("train/loss", loss_sum.item(), i)
                  loss_sum = 0.0
          if torch.is_tensor(loss_sum):
              writer.add_scalar("train/loss", loss_sum.item(), i)
    `,
  },
  {
    name: "batched logging: logger.info(\"...\", i, loss.item()) with enumerate(loader, 3) tests `(i - 2) % log_every`",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, logger):
          for i, batch in enumerate(loader, 3):
              loss = model(batch.cuda()).mean()
              loss.backward()
              opt.step()
              logger.info("step %d loss %.3f", i, loss.item())
    `,
    output: py`
      import torch
      def train(model, loader, opt, logger):
          log_every = 10
          loss_sum = 0.0
          for i, batch in enumerate(loader, 3):
              loss = model(batch.cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if (i - 2) % log_every == 0:
                  logger.info("step %d loss %.3f", i, loss_sum.item())
                  loss_sum = 0.0
          if torch.is_tensor(loss_sum):
              logger.info("step %d loss %.3f", i, loss_sum.item())
    `,
  },
  {
    name: "batched logging: range(1, n + 1) counts from 1; adds import torch beside from-imports",
    unsafe: true,
    code: py`
      """Training."""
      from torch import nn
      def train(model, loader, opt, num_steps):
          it = iter(loader)
          for step in range(1, num_steps + 1):
              loss = model(next(it).cuda()).mean()
              loss.backward()
              opt.step()
              print(f"step {step}/{num_steps}: {loss.item():.4f}")
    `,
    output: py`
      """Training."""
      import torch
      from torch import nn
      def train(model, loader, opt, num_steps):
          it = iter(loader)
          log_every = 10
          loss_sum = 0.0
          for step in range(1, num_steps + 1):
              loss = model(next(it).cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if step % log_every == 0:
                  print(f"step {step}/{num_steps}: {loss_sum.item():.4f}")
                  loss_sum = 0.0
          if torch.is_tensor(loss_sum):
              print(f"step {step}/{num_steps}: {loss_sum.item():.4f}")
    `,
  },
  {
    name: "batched logging: wandb.log({...}) in a module-level range loop keeps the other keys and the step",
    unsafe: true,
    code: py`
      import torch
      model = torch.nn.Linear(4, 2).cuda()
      opt = torch.optim.SGD(model.parameters(), lr=0.1)
      for it in range(num_steps):
          loss = model(torch.randn(8, 4, device="cuda")).pow(2).mean()
          loss.backward()
          opt.step()
          wandb.log({"loss": loss.item(), "lr": lr}, step=it)
    `,
    output: py`
      import torch
      model = torch.nn.Linear(4, 2).cuda()
      opt = torch.optim.SGD(model.parameters(), lr=0.1)
      log_every = 10
      loss_sum = 0.0
      for it in range(num_steps):
          loss = model(torch.randn(8, 4, device="cuda")).pow(2).mean()
          loss.backward()
          opt.step()
          loss_sum += loss.detach().double()
          if (it + 1) % log_every == 0:
              wandb.log({"loss": loss_sum.item(), "lr": lr}, step=it)
              loss_sum = 0.0
      if torch.is_tensor(loss_sum):
          wandb.log({"loss": loss_sum.item(), "lr": lr}, step=it)
    `,
  },
  {
    name: "batched logging: a count (pred == y).sum().item() sums as int64 from 0; enumerate wraps tqdm(loader)",
    unsafe: true,
    code: py`
      import torch
      def evaluate(model, loader):
          for x, y in tqdm(loader):
              pred = model(x.cuda()).argmax(1)
              print("correct", (pred == y.cuda()).sum().item())
    `,
    output: py`
      import torch
      def evaluate(model, loader):
          log_every = 10
          count_sum = 0
          for step, (x, y) in enumerate(tqdm(loader)):
              pred = model(x.cuda()).argmax(1)
              count_sum += (pred == y.cuda()).sum()
              if (step + 1) % log_every == 0:
                  print("correct", count_sum.item())
                  count_sum = 0
          if torch.is_tensor(count_sum):
              print("correct", count_sum.item())
    `,
  },
  {
    name: "batched logging: set_postfix(loss=...) with log_every, step and loss_sum taken picks free names",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, log_every, step):
          loss_sum = 0
          for batch in loader:
              loss = model(batch.cuda()).mean()
              loss.backward()
              opt.step()
              pbar.set_postfix(loss=loss.item())
          return loss_sum, step
    `,
    output: py`
      import torch
      def train(model, loader, opt, log_every, step):
          loss_sum = 0
          log_every_n = 10
          loss_sum_2 = 0.0
          for batch_idx, batch in enumerate(loader):
              loss = model(batch.cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum_2 += loss.detach().double()
              if (batch_idx + 1) % log_every_n == 0:
                  pbar.set_postfix(loss=loss_sum_2.item())
                  loss_sum_2 = 0.0
          if torch.is_tensor(loss_sum_2):
              pbar.set_postfix(loss=loss_sum_2.item())
          return loss_sum, step
    `,
  },
  {
    name: "batched logging: a multi-line logging call in a step loop inside an epoch loop reports at the end of each epoch",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for epoch in range(10):
              for x in loader:
                  loss = model(x.cuda()).mean()
                  loss.backward()
                  opt.step()
                  logging.info(
                      "epoch %d loss %.4f",
                      epoch,
                      loss.item(),
                  )
              print("epoch done", epoch)
    `,
    output: py`
      import torch
      def train(model, loader, opt):
          for epoch in range(10):
              log_every = 10
              loss_sum = 0.0
              for step, x in enumerate(loader):
                  loss = model(x.cuda()).mean()
                  loss.backward()
                  opt.step()
                  loss_sum += loss.detach().double()
                  if (step + 1) % log_every == 0:
                      logging.info(
                          "epoch %d loss %.4f",
                          epoch,
                          loss_sum.item(),
                      )
                      loss_sum = 0.0
              if torch.is_tensor(loss_sum):
                  logging.info(
                      "epoch %d loss %.4f",
                      epoch,
                      loss_sum.item(),
                  )
              print("epoch done", epoch)
    `,
  },
  {
    name: "batched logging keeps tabs and CRLF, and moves a multi-line call in with its continuation lines",
    unsafe: true,
    code: "import torch\r\ndef train(model, loader, opt):\r\n\tfor x in loader:\r\n\t\tloss = model(x.cuda()).mean()\r\n\t\tloss.backward()\r\n\t\topt.step()\r\n\t\tlogger.info(\r\n\t\t\t\"loss %f\",\r\n\t\t\tloss.item(),\r\n\t\t)\r\n",
    output:
      "import torch\r\ndef train(model, loader, opt):\r\n\tlog_every = 10\r\n\tloss_sum = 0.0\r\n\tfor step, x in enumerate(loader):\r\n\t\tloss = model(x.cuda()).mean()\r\n\t\tloss.backward()\r\n\t\topt.step()\r\n" +
      "\t\tloss_sum += loss.detach().double()\r\n\t\tif (step + 1) % log_every == 0:\r\n\t\t\tlogger.info(\r\n\t\t\t\t\"loss %f\",\r\n\t\t\t\tloss_sum.item(),\r\n\t\t\t)\r\n\t\t\tloss_sum = 0.0\r\n" +
      "\tif torch.is_tensor(loss_sum):\r\n\t\tlogger.info(\r\n\t\t\t\"loss %f\",\r\n\t\t\tloss_sum.item(),\r\n\t\t)\r\n",
  },
  {
    name: "batched logging: `%` and str.format arguments; a second log line of the loop reuses log_every",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x, y in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print("loss %.4f" % loss.item())
              print("loss {:.4f}".format(loss.item()), flush=True)
    `,
    output: py`
      import torch
      def train(model, loader, opt):
          log_every = 10
          loss_sum = 0.0
          loss_sum_2 = 0.0
          for step, (x, y) in enumerate(loader):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if (step + 1) % log_every == 0:
                  print("loss %.4f" % loss_sum.item())
                  loss_sum = 0.0
              loss_sum_2 += loss.detach().double()
              if (step + 1) % log_every == 0:
                  print("loss {:.4f}".format(loss_sum_2.item()), flush=True)
                  loss_sum_2 = 0.0
          if torch.is_tensor(loss_sum_2):
              print("loss {:.4f}".format(loss_sum_2.item()), flush=True)
          if torch.is_tensor(loss_sum):
              print("loss %.4f" % loss_sum.item())
    `,
  },
  {
    name: "no batched logging in a while loop",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, max_steps):
          step = 0
          while step < max_steps:
              loss = model(next(loader).cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f}")
              step += 1
    `,
    output: null,
  },
  {
    name: "no batched logging for a log call under an if inside the loop",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, verbose):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              if verbose:
                  print(f"loss {loss.item():.4f}")
    `,
    output: null,
  },
  {
    name: "no batched logging when the call also logs another per-step tensor",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x, y in loader:
              out = model(x.cuda())
              loss = out.mean()
              loss.backward()
              opt.step()
              acc = (out.argmax(1) == y.cuda()).float().mean()
              print(f"loss {loss.item():.4f} acc {acc}")
    `,
    output: null,
  },
  {
    name: "no batched logging when the call makes another call (it could have effects or sync)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, scheduler):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]}")
    `,
    output: null,
  },
  {
    name: "no batched logging of arithmetic on the value (loss.item() * accum)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, accum):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item() * accum:.4f}")
    `,
    output: null,
  },
  {
    name: "no batched logging when a name the call reads changes after it (global_step += 1)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, writer):
          global_step = 0
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              writer.add_scalar("loss", loss.item(), global_step)
              global_step += 1
    `,
    output: null,
  },
  {
    name: "no batched logging when the loop touches an object whose attribute the call reads (meter.avg)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, meter):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f} avg {meter.avg:.4f}")
              meter.update(1)
    `,
    output: null,
  },
  {
    name: "no batched logging after a continue (the counter would pass the last reported step)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader:
              if x is None:
                  continue
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f}")
    `,
    output: null,
  },
  {
    name: "no batched logging when the loop can return (the last report would be skipped)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f}")
              if loss.isnan().any():
                  return False
          return True
    `,
    output: null,
  },
  {
    name: "no batched logging when the code after the loop runs every step too (a micro-batch loop in training_step)",
    unsafe: true,
    code: py`
      import torch
      class Trainer:
          def training_step(self, batch):
              for micro in batch.chunk(4):
                  loss = self.model(micro.cuda()).mean()
                  loss.backward()
                  print(f"loss {loss.item():.4f}")
    `,
    output: null,
  },
  {
    name: "no batched logging for enumerate with a start that is not an integer literal",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, first):
          for i, x in enumerate(loader, first):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(i, loss.item())
    `,
    output: null,
  },
  {
    name: "no batched logging of a self-documenting f-string field ({loss.item()=} prints its own text)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"{loss.item()=}")
    `,
    output: null,
  },
  {
    name: "no batched logging of a value in add_scalar's step position",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, writer):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              writer.add_scalar("loss", 1.0, loss.item())
    `,
    output: null,
  },
  {
    name: "no batched logging with two .item() calls in one log call",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f}", loss.item())
          else:
              print("done")
    `,
    output: null,
  },
  {
    name: "no batched logging for a loop with else (it runs before the report after the loop)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"loss {loss.item():.4f}")
          else:
              print("done")
    `,
    output: null,
  },
  {
    name: "no batched logging for a loop inside try",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          try:
              for x in loader:
                  loss = model(x.cuda()).mean()
                  loss.backward()
                  opt.step()
                  print(f"loss {loss.item():.4f}")
          except KeyboardInterrupt:
              pass
    `,
    output: null,
  },
  {
    name: "no batched logging for a loop body on the loop's own line",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader: loss = model(x.cuda()).mean(); print(loss.item())
    `,
    output: null,
  },
  {
    name: "no batched logging of a call holding a string that spans lines",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for x in loader:
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"""loss
              {loss.item():.4f}""")
    `,
    output: null,
  },

]);

fixTester.run("tensor-formatting", [
  {
    name: "batched logging: an f-string field with a format spec on a 0-dim tensor formats its .item(); suggestion",
    unsafe: true,
    suggestionOnly: true,
    code: py`
      import torch
      def train(model, loader, opt, writer):
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(f"step {step} loss {loss:.4f}")
    `,
    output: py`
      import torch
      def train(model, loader, opt, writer):
          log_every = 10
          loss_sum = 0.0
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if (step + 1) % log_every == 0:
                  print(f"step {step} loss {loss_sum.item():.4f}")
                  loss_sum = 0.0
          if torch.is_tensor(loss_sum):
              print(f"step {step} loss {loss_sum.item():.4f}")
    `,
  },
  {
    name: "batched logging: add_scalar(tag, tensor, step) logs float(tensor)",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt, writer):
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              writer.add_scalar("loss", loss, step)
    `,
    output: py`
      import torch
      def train(model, loader, opt, writer):
          log_every = 10
          loss_sum = 0.0
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              loss_sum += loss.detach().double()
              if (step + 1) % log_every == 0:
                  writer.add_scalar("loss", loss_sum.item(), step)
                  loss_sum = 0.0
          if torch.is_tensor(loss_sum):
              writer.add_scalar("loss", loss_sum.item(), step)
    `,
  },
  {
    name: "no batched logging where the text printed is the tensor's own (print(t), f\"{t}\", !r, set_postfix(loss=t))",
    unsafe: true,
    code: py`
      import torch
      def train(model, loader, opt):
          for step, x in enumerate(loader):
              loss = model(x.cuda()).mean()
              loss.backward()
              opt.step()
              print(loss)
              print(f"{loss}")
              print(f"{loss!r:>40}")
              pbar.set_postfix(loss=loss)
    `,
    output: null,
  },

]);
