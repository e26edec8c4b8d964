/**
 * False alarms found by reviewing synclint on repositories it was not tuned on (accelerate, minGPT, yolov5,
 * denoising-diffusion-pytorch), written as small programs of our own.
 */
import * as assert from "assert";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { py } from "../helpers";

function findings(code: string, rule?: string): Array<{ line: number; rule: string }> {
  const config = resolveConfig(rule ? { select: [rule] } : {}, process.cwd());
  return lintSource(code, { config }).findings.map((f) => ({ line: f.line, rule: f.rule }));
}

describe("findings on code synclint was not tuned on", () => {
  before(() => initParser());

  it("batches of a loader prepared by accelerate are already on the device: no copy finding, the loops stay hot; the loaders want `pin_memory=True`, since accelerate copies their batches from pageable memory", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      from accelerate import Accelerator
      def main(model, optimizer, train_set, eval_set):
          accelerator = Accelerator()
          train_dataloader = DataLoader(train_set, batch_size=8)
          eval_dataloader = DataLoader(eval_set, batch_size=8)
          model, optimizer, train_dataloader, eval_dataloader = accelerator.prepare(model, optimizer, train_dataloader, eval_dataloader)
          for step, batch in enumerate(train_dataloader):
              batch.to(accelerator.device)
              loss = model(**batch).loss
              accelerator.backward(loss)
              optimizer.step()
          for step, batch in enumerate(eval_dataloader):
              batch.to(accelerator.device)
              correct = (model(**batch).logits.argmax(-1) == batch["labels"]).sum().item()
    `;
    assert.deepStrictEqual(findings(code), [{ line: 6, rule: "dataloader-pin-memory" }, { line: 7, rule: "dataloader-pin-memory" }, { line: 16, rule: "item-in-hot-path" }]);
  });

  it("a single prepared loader, kept on self and cycled, and Fabric's setup_dataloaders, are device loaders too", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      def cycle(dl):
          while True:
              for data in dl:
                  yield data
      class Trainer:
          def __init__(self, accelerator, dataset):
              self.accelerator = accelerator
              dl = DataLoader(dataset, batch_size=16, shuffle=True, pin_memory=True)
              dl = self.accelerator.prepare(dl)
              self.dl = cycle(dl)
          def train(self, device):
              while self.step < self.train_num_steps:
                  data = next(self.dl).to(device)
                  loss = self.model(data)
                  self.accelerator.backward(loss)
                  self.opt.step()
      def run(fabric, model, train_loader):
          train_loader = fabric.setup_dataloaders(train_loader)
          for x, y in train_loader:
              out = model(x.to(fabric.device))
              print(out.sum().item())
      def run_unmoved(fabric, model, train_loader):
          train_loader = fabric.setup_dataloaders(train_loader, move_to_device=False)
          for x, y in train_loader:
              out = model(x.to(fabric.device))
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 23, rule: "item-in-hot-path" },
      { line: 27, rule: "blocking-host-to-device" },
    ]);
  });

  it("the values of a batch dict from a prepared loader are on the device too", () => {
    const code = py`
      import torch
      def main(accelerator, model, optimizer, train_dataloader):
          model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
          for step, batch in enumerate(train_dataloader):
              batch = {k: v.to(accelerator.device) for k, v in batch.items()}
              loss = model(batch["image"]).mean()
              accelerator.backward(loss)
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("an epoch loop that zeroes the gradients once before its batches stays an epoch loop; a progress bar bound to a name still yields batches", () => {
    const code = py`
      import torch
      def train(model, optimizer, scaler, train_loader, device, epochs, weights):
          for epoch in range(epochs):
              model.train()
              cw = model.class_weights.cpu().numpy()
              pbar = enumerate(train_loader)
              pbar = TQDM(pbar, total=len(train_loader))
              optimizer.zero_grad()
              for i, (imgs, targets) in pbar:
                  imgs = imgs.to(device, non_blocking=True)
                  loss = model(imgs).mean()
                  scaler.scale(loss).backward()
                  scaler.step(optimizer)
                  print(loss.item())
    `;
    const found = findings(code);
    assert.deepStrictEqual(found, [{ line: 14, rule: "item-in-hot-path" }]);
  });

  it("a helper called from a loop that is not a step loop reports only on positive GPU evidence, and says how often once", () => {
    const code = py`
      import torch
      def sync_state(state, device):
          gathered = state.cpu()
          built = torch.tensor([1.0, 2.0], device="cuda")
          return gathered, built
      def sync_all(states, device):
          for state in states:
              sync_state(state, device)
    `;
    const config = resolveConfig({}, process.cwd());
    const result = lintSource(code, { config });
    assert.deepStrictEqual(result.findings.map((f) => [f.line, f.rule]), [[4, "blocking-host-to-device"]]);
    assert.doesNotMatch(result.findings[0].message, /on every iteration, on every iteration/);
  });

  it("an imported class named like a model is a module: moving it is not a host-to-device copy of data", () => {
    const code = py`
      import torch
      from ema_pytorch import EMA
      class Trainer:
          def __init__(self, model):
              self.ema = EMA(model, beta=0.99)
          def train(self, loader, device):
              for x in loader:
                  loss = self.model(x.to(device, non_blocking=True)).mean()
                  loss.backward()
                  self.opt.step()
                  self.ema.to(device)
                  self.ema.update()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), []);
  });

  it("`if step < 3:` on the step loop's counter runs on the first steps only; epochs and inner indices do not count", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, device):
          for epoch in range(10):
              for step, (x, y) in enumerate(loader):
                  loss = model(x.to(device, non_blocking=True)).mean()
                  loss.backward()
                  optimizer.step()
                  if step < 3:
                      print(loss.item())
                  if 5 > step:
                      print(loss.item())
                  if epoch < 3:
                      print(loss.item())
                  for j in range(5):
                      if j < 3:
                          print(loss.item())
                  if step > 100:
                      print(loss.item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [13, 16, 18]);
  });

  it("a number computed from the step counter, a per-step hook's number argument and a progress bar's counter count steps (`if ni < 3:`)", () => {
    const code = py`
      import torch
      def train(model, train_loader, optimizer, device, TQDM, epoch):
          nb = len(train_loader)
          pbar = enumerate(train_loader)
          pbar = TQDM(pbar, total=nb)
          for i, (imgs, targets) in pbar:
              ni = i + nb * epoch
              imgs = imgs.to(device, non_blocking=True)
              loss = model(imgs).mean()
              loss.backward()
              optimizer.step()
              if ni < 3:
                  print(loss.item())
              if i < 3:
                  print(loss.item())
              if nb < 3:
                  print(loss.item())
              print(loss.item())
      class Loggers:
          def on_train_batch_end(self, model, ni, imgs, targets):
              if ni < 3:
                  print(imgs.sum().item())
              print(imgs.sum().item())
          def log_images(self, images, count):
              if count < 3:
                  print(images.sum().item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [17, 18, 23]);
  });

  it("a branch taken only when the device is not CUDA (`if mps: x = x.cpu()`) is not a hot path", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, device):
          mps = "mps" in device.type
          for x in loader:
              x = x.to(device, non_blocking=True)
              out = model(x)
              if mps:
                  print(out.cpu())
              if device.type == "cpu":
                  print(out.sum().item())
              elif str(device) == "mps":
                  print(out.sum().item())
              elif device.type == "neuron":
                  print(out.sum().item())
              if not torch.cuda.is_available():
                  print(out.sum().item())
              if torch.cuda.is_available():
                  pass
              else:
                  print(out.sum().item())
              if device.type != "cpu":
                  print(out.sum().item())
              if x.is_cuda:
                  print(out.sum().item())
              if mode == "cpu":
                  print(out.sum().item())
              out.mean().backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.rule, f.line]), [["item-in-hot-path", 22], ["item-in-hot-path", 24], ["item-in-hot-path", 26]]);
  });

  it("a branch on a parameter that the one hot call fixes to a literal (or leaves at its default) never runs on that call", () => {
    const code = py`
      import torch
      def generate(model, idx, steps, do_sample=False, top_k=None, greedy=True):
          for _ in range(steps):
              probs = model(idx).softmax(-1)
              if do_sample:
                  nxt = torch.multinomial(probs, num_samples=1)
              else:
                  nxt = probs.argmax(-1, keepdim=True)
              if top_k is not None:
                  print(probs.max().item())
              if not greedy:
                  print(probs.min().item())
              idx = torch.cat((idx, nxt), dim=1)
              print(idx.sum().item())
          return idx
      def evaluate(model, loader, device):
          for x in loader:
              x = x.to(device, non_blocking=True)
              out = generate(model, x, 10, greedy=False)
    `;
    // do_sample and top_k keep their defaults; greedy=False makes `if not greedy:` run.
    assert.deepStrictEqual(findings(code).map((f) => [f.rule, f.line]), [["item-in-hot-path", 12], ["item-in-hot-path", 14]]);
    const twoCallers = code + "          out = generate(model, x, 10, do_sample=True)\n";
    assert.ok(findings(twoCallers).some((f) => f.rule === "data-dependent-shape" && f.line === 6), "with two callers, the branch may run");
  });

  it("code after a `return`, `raise`, `continue` or `assert False` in its block never runs", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, device):
          for x in loader:
              x = x.to(device, non_blocking=True)
              loss = model(x).mean()
              loss.backward()
              optimizer.step()
              if loss.isnan().any():
                  continue
              print(loss.item())
              if False:
                  assert False, "WIP"
                  print(loss.item())
      def dropped_step(x: torch.Tensor):
          raise NotImplementedError
          return x.item()
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.rule, f.line]), [["implicit-host-read", 8], ["item-in-hot-path", 10]]);
  });

  it("a plain class named like a model builds an object, and `Encoder(...)` constructs a module, not its output", () => {
    const code = py`
      import torch
      class Encoder:
          def encode(self, text):
              return {"tokens": text.split()}
      def get_encoder():
          return Encoder()
      e = get_encoder()
      r = e.encode("hello world")
      for part in r["tokens"]:
          print(part)
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("a string built with += is a string, even when it started as an item of a dataset", () => {
    const code = py`
      import torch
      def run(model, dataset, device):
          for path, im, s in dataset:
              im = im.to(device, non_blocking=True)
              pred = model(im)
              s += f"{im.shape[2]}x{im.shape[3]} "
              s += "{:g} ".format(1.0)
              print(f"{s}done")
    `;
    assert.deepStrictEqual(findings(code, "tensor-formatting"), []);
  });

  it("`.cuda(async=True)` is `non_blocking=True` by its name before PyTorch 0.4; `.cuda()` beside it still blocks", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      def train(model, dataset, optimizer):
          loader = DataLoader(dataset, batch_size=64, pin_memory=True)
          for inputs, targets in loader:
              targets = targets.cuda(async=True)
              inputs = inputs.cuda()
              loss = model(inputs, targets)
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), [{ line: 7, rule: "blocking-host-to-device" }]);
  });

  it("Lightning's `optimizer_idx` and `global_step`, passed on to a loss module's `forward`, are Python integers; a tensor input is still one", () => {
    const code = py`
      import torch
      class LPIPSWithDiscriminator(torch.nn.Module):
          def forward(self, inputs, reconstructions, optimizer_idx, global_step, weights):
              if optimizer_idx == 0:
                  if global_step > 1000:
                      return (inputs - reconstructions).abs().mean()
              if weights.any():
                  return inputs.mean()
              return reconstructions.mean()
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read"), [{ line: 7, rule: "implicit-host-read" }]);
  });

  it("`generate()` runs a logits processor's and a stopping criterion's `__call__` once per token; a plain class's `__call__` is not hot", () => {
    const code = py`
      import torch
      from transformers import LogitsProcessor, StoppingCriteria
      class InvalidScoreLogitsProcessor(LogitsProcessor):
          def __call__(self, input_ids, scores):
              if torch.isnan(scores).any():
                  scores.zero_()
              return scores
      class EosStopper(StoppingCriteria):
          def __call__(self, input_ids, scores, **kwargs):
              return input_ids[0, -1].item() == 2
      class Collate:
          def __call__(self, input_ids, scores):
              return input_ids[0, -1].item()
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 5, rule: "implicit-host-read" },
      { line: 10, rule: "item-in-hot-path" },
    ]);
  });

  it("a function assigned as a module's `forward` (a monkey patch) runs on every forward pass, its inputs are a forward's", () => {
    const code = py`
      import torch
      import transformers
      def xformers_forward(self, hidden_states, attention_mask=None):
          if attention_mask is None or attention_mask[0, 0, 0, 1] == 0:
              return hidden_states
          return hidden_states * 2
      def unused_forward(self, hidden_states, attention_mask=None):
          if attention_mask[0, 0, 0, 1] == 0:
              return hidden_states
      def replace_llama_attn_with_xformers_attn():
          transformers.models.llama.modeling_llama.LlamaAttention.forward = xformers_forward
    `;
    assert.deepStrictEqual(findings(code), [{ line: 4, rule: "implicit-host-read" }]);
  });

  it("a loop that runs a model's method on inputs (directly, or through helpers it passes the model to) is a step loop; setup methods and argument-less ones are not", () => {
    const code = py`
      import torch
      def extract_feature(model, frame):
          return model.get_intermediate_layers(frame.cuda(), n=1)[0]
      def label_propagation(model, frame):
          return extract_feature(model, frame)
      def track(model, frames):
          for frame in frames:
              feat = label_propagation(model, frame)
              print(feat.sum().item())
      def greedy_decode(model, ys, memory, max_len):
          for _ in range(max_len):
              out = model.decode(ys, memory)
              next_word = out.argmax().item()
      def materialize(model, mapping, cache):
          for path in mapping:
              submodule = model.get_submodule(path)
              cache[path] = model.rope_cache_length()
              print(submodule.weight.sum().item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), [
      { line: 9, rule: "item-in-hot-path" },
      { line: 13, rule: "item-in-hot-path" },
    ]);
  });

  it("what a model's method computes from GPU tensors is on the GPU: moving it again copies nothing from the host", () => {
    const code = py`
      import torch
      DEVICE = torch.device("cuda")
      def greedy_decode(model, src, max_len):
          src = src.to(DEVICE)
          memory = model.encode(src)
          ys = torch.ones(1, 1).to(DEVICE)
          for _ in range(max_len):
              memory = memory.to(DEVICE)
              out = model.decode(ys, memory)
              ys = torch.cat([ys, out.argmax(-1, keepdim=True)])
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), []);
  });

  it("a branch that tests an attribute of `self` and sets it anew rebuilds a cache, not every step; a branch that only reads it runs when its test holds", () => {
    const code = py`
      import torch
      class YOLOLayer(torch.nn.Module):
          def forward(self, x):
              if self.grid.shape[2:4] != x.shape[2:4]:
                  self.grid = self._make_grid(x.shape[2], x.shape[3]).to(x.device)
                  print(self.grid.sum().item())
              if self.anchors.shape[0] != x.shape[0]:
                  print(self.anchors.sum().item())
              return x + self.grid
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), [{ line: 8, rule: "item-in-hot-path" }]);
  });

  it("an assertion's message runs only when the assertion fails; the asserted test itself still counts", () => {
    const code = py`
      import torch
      class Encoder(torch.nn.Module):
          def forward(self, x, grid_thw):
              assert grid_thw.sum() > 0, f"bad grid {grid_thw[:, 0].tolist()}"
              return x
    `;
    assert.deepStrictEqual(findings(code), [{ line: 4, rule: "implicit-host-read" }]);
  });

  it("files named like tests (`numerical_tests_qwen.py`, `model_tests.py`) have no hot paths; an evaluation script named `test.py` does", () => {
    const code = py`
      import torch
      def run(model, loader, device):
          for tokens in loader:
              logits = model(tokens.to(device, non_blocking=True))
              print(logits[:, -1].sum().item())
    `;
    const at = (filePath: string) => lintSource(code, { config: resolveConfig({}, process.cwd()), filePath }).findings.length;
    assert.deepStrictEqual([at("/repo/scripts/numerical_tests_qwen.py"), at("/repo/model_tests.py"), at("/repo/test.py"), at("/repo/eval.py")], [0, 0, 1, 1]);
  });

  it("`torch.from_file` maps a file into host memory: reading its header is no GPU read", () => {
    const code = py`
      import torch
      def _load_data_shard(file):
          header = torch.from_file(str(file), False, 256, dtype=torch.int32)
          assert header[0] == 20240520, "magic number mismatch"
          num_tokens = int(header[2])
          return num_tokens
      def generator(files, model):
          for file in files:
              n = _load_data_shard(file)
              model(torch.zeros(n, device="cuda")).backward()
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("counting steps while an object is built fills a schedule: its loop is set-up, not a step loop, in `__init__` and in what only `__init__` calls", () => {
    const code = py`
      import torch
      class TrainingSchedule:
          def __init__(self, total_steps, device):
              self.weights = []
              for step in range(total_steps + 1):
                  self.weights.append(torch.tensor([0.5 * step], device=device))
              self._build_prefix(total_steps, device)
          def _build_prefix(self, total_steps, device):
              for step in range(total_steps):
                  self.weights.append(torch.tensor([1.0 * step], device=device))
      def train(model, total_steps, device):
          for step in range(total_steps):
              w = torch.tensor([0.5 * step], device=device)
              model(w).backward()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), [{ line: 13, rule: "blocking-host-to-device" }]);
  });

  it("a tensor built from Python numbers inside a torch.compile'd function is a graph constant; built from a tensor, or outside, it is still a copy", () => {
    const code = py`
      import torch
      @torch.compile
      def impl(x, x_s: float, host_rows):
          scale = x.new_tensor(x_s, dtype=torch.float32)
          w = torch.tensor([1.0, x_s], device="cuda")
          rows = torch.as_tensor(host_rows, device="cuda")
          return x * scale * w + rows
      def eager(x, x_s: float, steps: int):
          for _ in range(steps):
              x = x * x.new_tensor(x_s)
          return x
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), [
      { line: 6, rule: "blocking-host-to-device" },
      { line: 10, rule: "blocking-host-to-device" },
    ]);
  });

  it("`step % log_freq == 0` is a test of counters, not a GPU read, even in a per-step method with values of unknown kind", () => {
    const code = py`
      import torch
      class Trainer:
          def load_checkpoint(self, path):
              checkpoint = torch.load(path)
              self.steps = checkpoint["steps"]
          def _step(self, batch, phase):
              loss = self.model(batch)
              if self.steps[phase] % self.logging_conf.log_freq == 0:
                  self.log(loss)
              if loss.isnan():
                  raise ValueError("nan")
              return loss
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read"), [{ line: 10, rule: "implicit-host-read" }]);
  });

  it("a helper reached from a step path three calls deep and from a one-off loop is hot on the step path: its unmarked syncs are reported, and the message names that path", () => {
    const code = py`
      import torch
      class Head(torch.nn.Module):
          def forward(self, outputs, labels):
              return self.get_losses(outputs, labels)
          def get_losses(self, outputs, labels):
              nlabel = (labels.sum(dim=2) > 0).sum(dim=1)
              for batch_idx in range(outputs.shape[0]):
                  num_gt = int(nlabel[batch_idx])
                  self.get_assignments(outputs[batch_idx], num_gt)
          def get_assignments(self, preds, num_gt, mode="gpu"):
              if mode == "cpu":
                  return self.simota_matching(preds.cpu(), num_gt)
              return self.simota_matching(preds, num_gt)
          def simota_matching(self, cost, num_gt):
              return (cost > 0).sum().item()
          def visualize(self, images):
              for image in images:
                  self.get_assignments(image, 1)
          def fallback(self, outputs):
              try:
                  return self.get_assignments(outputs, 1)
              except RuntimeError:
                  return self.get_assignments(outputs, 1, "cpu")
    `;
    const result = lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings;
    assert.deepStrictEqual(result.map((f) => ({ line: f.line, rule: f.rule })), [
      { line: 8, rule: "implicit-host-read" },
      { line: 15, rule: "item-in-hot-path" },
    ]);
    assert.match(result[1].message, /called at line 9 in the loop at line 7 in `Head.get_losses\(\)`/);
  });

  it("`all(t)` on a GPU tensor reads every element as a bool; a name bound to `torch.cuda.synchronize` (or a no-op on CPU) still synchronizes", () => {
    const code = py`
      import torch
      device_type = "cuda"
      synchronize = torch.cuda.synchronize if device_type == "cuda" else lambda: None
      def generate(model, tokens, bsz, max_len):
          eos_reached = torch.tensor([False] * bsz, device="cuda")
          for cur_pos in range(max_len):
              logits = model(tokens)
              eos_reached |= logits.argmax(-1) == 2
              if all(eos_reached):
                  break
      def train(model, loader, opt):
          for x in loader:
              synchronize()
              loss = model(x.cuda(non_blocking=True))
              loss.backward()
              opt.step()
              flags = all([True, x is not None])
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 9, rule: "implicit-host-read" },
      { line: 13, rule: "explicit-synchronize" },
    ]);
  });

  it("a CPU tensor keeps its device under `+=`: moving the total to the GPU every step is a blocking copy", () => {
    const code = py`
      import torch
      class Trainer:
          def train_step(self, batch):
              local_valid_tokens = torch.tensor(0)
              local_valid_tokens += (batch["labels"] != -100).sum()
              global_valid_tokens = local_valid_tokens.to(self.device)
              return int(local_valid_tokens)
    `;
    assert.deepStrictEqual(findings(code), [{ line: 6, rule: "blocking-host-to-device" }]);
  });

  it("a function that dispatches to a same-file function with a step loop runs once per pass: the loop over tasks that calls it is no hot path for the tally after the steps", () => {
    const code = py`
      import torch
      def run_categorical_eval(model, loader, device):
          num_passed = 0
          for batch in loader:
              logits = model(batch.to(device, non_blocking=True))
              num_passed += (logits.argmax(-1) == 0).sum()
          total = torch.tensor([num_passed], dtype=torch.long, device=device)
          return total.item()
      def run_chat_eval(task_name, model, loader, device):
          return run_categorical_eval(model, loader, device)
      for task_name in ["ARC-Easy", "MMLU"]:
          acc = run_chat_eval(task_name, model, loader, "cuda")
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("an attribute moved and stored back (`self.ids = [k.to(d) for k in self.ids]`) is copied once; a fresh value moved in the same loop still counts", () => {
    const code = py`
      import torch
      class KeywordsStoppingCriteria:
          def __init__(self, keywords):
              self.keyword_ids = [torch.tensor(k) for k in keywords]
          def __call__(self, output_ids, scores, **kwargs):
              self.keyword_ids = [keyword_id.to(output_ids.device) for keyword_id in self.keyword_ids]
              extra = [torch.tensor(k).to(output_ids.device) for k in self.keywords]
              return any((output_ids[0, -1] == k).any() for k in self.keyword_ids)
      class Trainer:
          def train(self, model, loader, device):
              for x in loader:
                  self.last = [b.to(device) for b in x]
                  model(self.last).backward()
      class Agent:
          def rollout(self, env, model, steps, device):
              self.state = torch.FloatTensor(env.reset())
              for step in range(steps):
                  self.state = self.state.to(device=device)
                  action = model(self.state)
                  self.state = torch.FloatTensor(env.step(action)[0])
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [7, 12, 18]);
  });

  it("an input of `forward` used as a size (`x.view(B, H, W, C)`) is a Python int; a name rebound to `nonzero(...)` indices is no boolean mask; TorchScript-only and tracing-only branches are not eager steps", () => {
    const code = py`
      import torch
      class PatchMerging(torch.nn.Module):
          def forward(self, x, H, W):
              B, L, C = x.shape
              assert L == H * W, "input feature has wrong size"
              x = x.view(B, H, W, C)
              if torch.jit.is_scripting():
                  idx = (x > 0).nonzero()
              else:
                  idx = (x > 1).nonzero()
              if not torch.compiler.is_compiling():
                  valid = torch.nonzero(x.sum(-1) > 0).squeeze(1)
              else:
                  print(x.sum().item())
              return x[valid]
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.line, f.rule]), [[10, "data-dependent-shape"], [12, "data-dependent-shape"]]);
  });

  it("`.to(other)` moves to the device of the tensor `other`; loops in `test_*` functions of a library module are self-tests", () => {
    const code = py`
      import math
      import torch
      class SequenceGenerator(torch.nn.Module):
          def __init__(self, model):
              super().__init__()
              self.model = model
          def forward(self, tokens, max_len):
              for step in range(max_len):
                  lprobs = self.model(tokens.cuda(non_blocking=True))
                  lprobs[:, 0] = torch.tensor(-math.inf).to(lprobs)
                  tokens = torch.cat([tokens, lprobs.argmax(-1, keepdim=True)], 1)
              return tokens
      def test_varlen_correctness():
          cu_seqlens = torch.tensor([0, 3, 7], device="cuda")
          for i in range(2):
              start = cu_seqlens[i].item()
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.line, f.rule]), [[10, "blocking-host-to-device"]]);
  });

  it("a branch on a module-level setting bound once to a literal, or to an environment variable's literal default, keeps to that default; launcher variables and settings a function sets through `global` do not count", () => {
    const code = py`
      import os
      import torch
      USE_FP8 = False
      MODE = os.environ.get("MACRO_MODE", "off")
      RATIO = float(os.environ.get("MAX_MOVE_RATIO", "0.0"))
      LOCAL_RANK = int(os.environ.get("LOCAL_RANK", 0))
      DEBUG = False
      def train(model, loader, opt):
          for x in loader:
              loss = model(x.cuda(non_blocking=True))
              if USE_FP8:
                  print(loss.item())
              if MODE == "delta":
                  print(loss.item())
              if RATIO:
                  print(loss.item())
              if LOCAL_RANK != 0:
                  print(loss.item())
              if DEBUG:
                  print(loss.item())
              loss.backward()
              opt.step()
      def enable_debug():
          global DEBUG
          DEBUG = True
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [18, 20]);
  });

  it("a loop over `self.train_loader` (a dataclass field) is a step loop; a guard in it that asks what the loop counts does not send the analysis round in circles", () => {
    const code = py`
      import torch
      from dataclasses import dataclass
      from torch.utils.data import DataLoader
      @dataclass
      class Trainer:
          train_loader: DataLoader
          def evaluate(self):
              for eval_step, eval_batch in enumerate(self.eval_batches):
                  self.model(eval_batch)
          def train_step(self, batch):
              loss = self.model(batch.cuda())
              if torch.isnan(loss):
                  raise ValueError("nan loss")
          def fit(self):
              for epoch in range(self.max_epochs):
                  for batch in self.train_loader:
                      self.train_step(batch)
                      if not self.cancelled and (self.global_step % self.eval_interval == 0 or self.global_step >= stop_at):
                          self.evaluate()
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 11, rule: "blocking-host-to-device" },
      { line: 12, rule: "implicit-host-read" },
    ]);
  });

  it("a guard that asks what the loop around it counts, while that loop's kind is being decided, is answered (OLMo's trainer overflowed the stack)", () => {
    // The guard's `global_step >= stop_at` asks whether `stop_at` counts the steps of the loop it is in, whose kind
    // depends on whether `self.eval()` (a step loop) runs under a periodic guard: that guard.
    const code = py`
      import torch
      class Trainer:
          def log_metrics_to_console(self, prefix, metrics):
              print(prefix, metrics)
          def eval(self):
              for eval_step, eval_batch in enumerate(eval_batches):
                  self.model(eval_batch)
          def fit(self):
              for epoch in range(self.max_epochs):
                  for batch in self.stream:
                      self.log_metrics_to_console("train", self.model(batch))
                      if not self.cancelled and (self.global_step % self.eval_interval == 0 or self.global_step >= stop_at):
                          self.eval()
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("methods called on an instance of a class of the same file (a decoder kept on `self`, a meter in a local) are as hot as the calls; a subclass's own method is not its base's", () => {
    const code = py`
      import torch
      class TokenDecoder:
          def update(self, tokens, logits):
              raise NotImplementedError
          def finalize(self, tokens):
              return tokens.tolist()
      class GreedyDecoder(TokenDecoder):
          def update(self, tokens, logits):
              next_tokens = logits.argmax(dim=-1)
              return torch.cat([tokens, next_tokens[:, None]], dim=-1), bool((next_tokens == 0).all())
      class BeamDecoder(TokenDecoder):
          pass
      class Meter:
          def update(self, value):
              self.total += value.item()
      class Task:
          def __init__(self, beam):
              self.decoder = BeamDecoder() if beam else GreedyDecoder()
          def run(self, model, loader):
              meter = Meter()
              for x in loader:
                  logits = model(x.cuda(non_blocking=True))
                  tokens, done = self.decoder.update(x, logits)
                  meter.update(logits.mean())
              return self.decoder.finalize(tokens)
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 10, rule: "implicit-host-read" },
      { line: 15, rule: "item-in-hot-path" },
    ]);
  });

  it("calling an instance of a same-file subclass that overrides `forward` runs the subclass's `forward`, not its base's: its arguments say nothing of the base's parameters", () => {
    const code = py`
      import torch
      from torch import nn
      class Base(nn.Module):
          def forward(self, x):
              return x.item()
      class Scaled(Base):
          def forward(self, scale):
              return super().forward(torch.ones(1, device="cuda")) * scale
      def train(loader):
          model = Scaled()
          for batch in loader:
              y = model(3)
    `;
    assert.deepStrictEqual(findings(code), [{ line: 5, rule: "item-in-hot-path" }]);
  });

  it("a JAX script that imports torch only for TensorBoard's writer is not PyTorch code: its arrays are not assumed to be CUDA tensors", () => {
    const jax = py`
      import jax
      import jax.numpy as jnp
      from torch.utils.tensorboard import SummaryWriter
      writer = SummaryWriter("runs")
      print(jax.devices())
      for step in range(num_steps):
          loss = update(params, batch)
          writer.add_scalar("loss", loss.item(), step)
    `;
    assert.deepStrictEqual(findings(jax), []);
    // The same loop in a file that imports torch for more than the writer.
    const torchScript = jax.replace("import jax\nimport jax.numpy as jnp\n", "import torch\n");
    assert.deepStrictEqual(findings(torchScript), [{ line: 7, rule: "item-in-hot-path" }]);
  });

  it("a periodic guard around the backward pass and the optimizer step is the training step (off-policy updates, accumulation boundaries); a guard around a report stays periodic", () => {
    const code = py`
      import torch
      device = torch.device("cuda")
      for global_step in range(total_timesteps):
          actions = actor(torch.as_tensor(obs, device=device))
          obs = envs.step(actions.detach().cpu().numpy())
          if global_step % train_frequency == 0:
              data = rb.sample(batch_size)
              loss = critic(data.observations).mean()
              q_optimizer.zero_grad()
              loss.backward()
              q_optimizer.step()
              alpha = log_alpha.exp().item()
              if global_step % 100 == 0:
                  print(loss.item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [12]);
  });

  it("a loop that loads checkpoints into an ensemble (`model.append(ckpt)`) runs no model: it is no step loop", () => {
    const code = py`
      import torch
      from torch import nn
      class Ensemble(nn.ModuleList):
          def forward(self, x):
              return torch.cat([module(x) for module in self], 1)
      def attempt_load(weights, device):
          model = Ensemble()
          for w in weights:
              ckpt = torch.load(w, map_location="cpu")
              ckpt = ckpt["model"].to(device).float()
              model.append(ckpt.fuse().eval())
          return model
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("a loop that runs a model's method with keyword arguments only (`model.generate(input_ids=ids)`), or a module the object keeps (`self.model(x)`), is a step loop", () => {
    const code = py`
      import torch
      def generate_completions(model, tokenizer, prompts, batch_size):
          outputs = []
          for i in range(0, len(prompts), batch_size):
              ids = tokenizer(prompts[i:i + batch_size], return_tensors="pt").input_ids
              out = model.generate(input_ids=ids.cuda(), max_new_tokens=32)
              outputs.extend(out.tolist())
          return outputs
      class Sampler:
          def __init__(self, model):
              self.model = model
          def sample(self, x, steps):
              for t in reversed(range(steps)):
                  x = self.model(x, t)
                  print(x.std().item())
              return x
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.line, f.rule]), [
      [6, "blocking-host-to-device"],
      [7, "host-transfer-in-hot-path"],
      [15, "item-in-hot-path"],
    ]);
  });

  it("`torch.rand(1) < p` is decided on the host; a module called with `self.training` gets a Python bool for that input of its `forward`", () => {
    const code = py`
      import torch
      from torch import nn
      class LabelEmbedder(nn.Module):
          def forward(self, labels, train):
              if train and self.dropout_prob > 0:
                  labels = torch.where(torch.rand(labels.shape[0], device=labels.device) < self.dropout_prob, self.num_classes, labels)
              return self.table(labels)
      class Net(nn.Module):
          def __init__(self):
              super().__init__()
              self.y_embedder = LabelEmbedder()
          def forward(self, x, y):
              y = self.y_embedder(y, self.training)
              for block in self.blocks:
                  if self.training and torch.rand(1) < self.layer_drop:
                      continue
                  x = block(x, y)
              if (y > 0).any():
                  x = x.clamp(max=1)
              return x
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read").map((f) => f.line), [18]);
  });

  it("a branch on a name not set yet that sets it (`if not device: device = p.device`) runs on the first iteration only", () => {
    const code = py`
      import torch
      def scale_grads(model, scaler):
          device = None
          for p in model.parameters():
              if not device:
                  device = p.device
                  scaler = scaler.to(device)
              p.grad *= scaler
      def train(model, loader, optimizer, scaler):
          for x in loader:
              model(x.cuda(non_blocking=True)).mean().backward()
              scale_grads(model, torch.tensor(0.5))
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), []);
    // On a test that holds every iteration, the copy is made every iteration.
    assert.deepStrictEqual(findings(code.replace("if not device:", "if p.requires_grad:"), "blocking-host-to-device").map((f) => f.line), [7]);
  });

  it("a guarded update beside an unguarded one (a GAN's generator every `n_critic` steps) stays periodic; a BucketIterator given a GPU device yields batches on it; export code runs once per export", () => {
    const gan = py`
      import torch
      for epoch in range(n_epochs):
          for i, (imgs, _) in enumerate(dataloader):
              real = imgs.cuda(non_blocking=True)
              d_loss = -discriminator(real).mean() + discriminator(generator(z)).mean()
              d_loss.backward()
              optimizer_D.step()
              if i % n_critic == 0:
                  g_loss = -discriminator(generator(z)).mean()
                  g_loss.backward()
                  optimizer_G.step()
                  print(d_loss.item(), g_loss.item())
    `;
    assert.deepStrictEqual(findings(gan, "item-in-hot-path"), []);
    const iterator = py`
      import torch
      from torchtext.data import BucketIterator
      def train(model, train_set, optimizer, device):
          iterator = BucketIterator(train_set, batch_size=64, device=device)
          for batch in iterator:
              src = batch[0].to(device)
              model(src).mean().backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(iterator, "blocking-host-to-device"), []);
    const exported = py`
      import torch
      class SamOnnxModel(torch.nn.Module):
          def forward(self, masks, scores):
              best = torch.argmax(scores, dim=1)
              return masks[torch.arange(masks.shape[0]), best]
    `;
    const at = (filePath: string) => lintSource(exported, { config: resolveConfig({}, process.cwd()), filePath }).findings.map((f) => f.rule);
    assert.deepStrictEqual(at("segment_anything/modeling/sam.py"), ["host-index"]);
    assert.deepStrictEqual(at("segment_anything/utils/onnx.py"), []);
    assert.deepStrictEqual(at("torchtune/modules/_export/attention.py"), []);
    assert.deepStrictEqual(at("scripts/export_model.py"), []);
  });

  it("what a branch does only for an empty input (`if t.numel() == 0:`, `if sum_masks == 0:`) is not a step's work; the test itself still is", () => {
    const code = py`
      import torch
      class KLLoss(torch.nn.Module):
          def forward(self, x, labels):
              if x.numel() == 0:
                  return torch.tensor(0.0, device=x.device)
              mask = (labels != -100).int()
              sum_masks = torch.sum(mask.view(-1), dim=0)
              if sum_masks == 0:
                  return torch.tensor(0.0, device=x.device)
              if len(labels) > 0:
                  x = x * torch.tensor(2.0, device=x.device)
              return -torch.sum(x * mask.view(-1), dim=0) / sum_masks
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.line, f.rule]), [
      [8, "implicit-host-read"],
      [11, "blocking-host-to-device"],
    ]);
  });

  it("a loop that calls a method of the file running a model (a decoder step) is a step loop; a cached function runs once per distinct arguments, unless they are tensors", () => {
    const code = py`
      import torch
      from functools import lru_cache
      @lru_cache(maxsize=None)
      def mel_filters(device, n_mels):
          return torch.from_numpy(load_filters(n_mels)).to(device)
      @lru_cache(maxsize=8)
      def guide_weight(s_len, t_len):
          grid = torch.arange(t_len)
          return grid.to(s_len.device)
      class Translator:
          def __init__(self, model):
              self.model = model
          def _model_decode(self, seq, enc):
              return torch.softmax(self.model.decoder(seq, enc), dim=-1)
          def translate(self, src, max_len, eos):
              enc = self.model.encoder(src)
              seq = src[:, :1]
              for step in range(1, max_len):
                  probs = self._model_decode(seq, enc)
                  seq = torch.cat([seq, probs[:, -1:].argmax(-1)], dim=1)
                  filters = mel_filters(seq.device, 80)
                  weight = guide_weight(seq[0, 0], step)
                  if (seq == eos).any(1).all().item():
                      break
              return seq
    `;
    assert.deepStrictEqual(findings(code).map((f) => [f.line, f.rule]), [
      [9, "blocking-host-to-device"],
      [23, "item-in-hot-path"],
    ]);
  });

  it("a helper that every call of the file passes a GPU tensor (`iou(outputs, targets)` in a step loop) reads a GPU tensor: its `assert (...).all()` waits every step", () => {
    const code = py`
      import torch
      def box_iou(boxes1, boxes2):
          assert (boxes1[:, 2:] >= boxes1[:, :2]).all()
          return boxes1 @ boxes2.T
      def train(model, loader, optimizer):
          for x, y in loader:
              out = model(x.cuda(non_blocking=True))
              loss = box_iou(out, out).sum()
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code), [{ line: 3, rule: "implicit-host-read" }]);
    // A call that passes a host value says the parameter may be one: no finding.
    const mixed = code.replace("loss.backward()", "loss.backward()\n        box_iou(y, y)");
    assert.deepStrictEqual(findings(mixed), []);
  });

  it("a model's output that is a structure: a method taking a string (`instances.has(\"pred_masks\")`) is no tensor, iterating a `*_dict` gives its keys, a `cpu_device` is the host", () => {
    const code = py`
      import torch
      import numpy as np
      class Evaluator:
          def __init__(self):
              self._cpu_device = torch.device("cpu")
          def process(self, model, loader):
              for inputs in loader:
                  outputs = model(inputs)
                  for output in outputs:
                      instances = output
                      has_mask = instances.has("pred_masks")
                      if has_mask:
                          print("masks")
                      pred = np.array(output.to(self._cpu_device), dtype=int)
                      lprobs_dict = model.get_probs(output)
                      stats_dict = {}
                      for channel in lprobs_dict:
                          stats_dict[channel] = 0
    `;
    // The copy to the host is `.to(self._cpu_device)`, not `np.array` of the CPU tensor it makes.
    const config = resolveConfig({}, process.cwd());
    const found = lintSource(code, { config }).findings;
    assert.deepStrictEqual(found.map((f) => [f.line, f.rule]), [[14, "host-transfer-in-hot-path"]]);
    assert.match(found[0].message, /^`output\.to\(self\._cpu_device\)`/);
  });

  it("an input of `forward` used as a dict (`cache.get(\"offset\")`, `cache[\"offset\"]`), named like a size (`x_size`) or documented as a Python value (`imgh (int)`) is not taken for a tensor", () => {
    const code = py`
      import torch
      from torch import nn
      class Block(nn.Module):
          def forward(self, x, x_size, cache=None, cache_key=None):
              if self.input_resolution == x_size:
                  x = x * 2
              if cache is not None and cache.get("offset"):
                  x = x[:, -1:]
              if cache is not None and cache_key in cache:
                  offset = cache["offset"]
                  assert offset >= 1
                  q = cache[cache_key]
              return x
      class Decompress(nn.Module):
          def forward(self, y, imgh, imgw):
              """
              Args:
                  y (Tensor): the luma
                  imgh (int): height
                  imgw(int): width
              """
              return y.view(int(imgh / 2), int(imgw / 2))
      class GANLoss(nn.Module):
          def forward(self, input, target_is_real):
              """:type target_is_real: bool"""
              return input.mean() if target_is_real else -input.mean()
      class Undocumented(nn.Module):
          def forward(self, x, scale):
              return x * int(scale / 2)
    `;
    assert.deepStrictEqual(findings(code), [{ line: 29, rule: "implicit-host-read" }]);
  });

  it("a cache per level (`if self.grid[i].shape != x.shape: self.grid[i] = ...`) is rebuilt when a shape changes; an element written into a tested buffer is not a rebuilt cache", () => {
    const code = py`
      import torch
      from torch import nn
      class Detect(nn.Module):
          def forward(self, x):
              for i in range(self.nl):
                  if self.grid[i].shape[2:4] != x[i].shape[2:4]:
                      self.grid[i] = self._make_grid(20, 20).to(x[i].device)
              return x
          def check(self, grad_norm):
              if self._buf is not None:
                  self._buf[self.rank] = grad_norm
                  if not torch.isfinite(self._buf).all():
                      raise FloatingPointError("grad norm")
          def training_step(self, batch, batch_idx):
              self.check(self(batch).norm())
    `;
    assert.deepStrictEqual(findings(code), [{ line: 12, rule: "implicit-host-read" }]);
  });

  it("the iterations of a numerical method (`for n_iter in range(nmb_kmeans_iters)`) do not count training steps", () => {
    const code = py`
      import torch
      def cluster_memory(embeddings, centroids, nmb_kmeans_iters=10):
          embeddings = embeddings.cuda(non_blocking=True)
          for n_iter in range(nmb_kmeans_iters):
              assignments = torch.mm(embeddings, centroids.t()).max(dim=1)[1]
              where = assignments.cpu().numpy()
          return where
      def train(loader, model, num_iters):
          for it in range(num_iters):
              x = next(loader)
              print(model(x).cpu())
    `;
    const found = lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings;
    assert.deepStrictEqual(found.map((f) => [f.line, f.rule]), [[6, "host-transfer-in-hot-path"], [11, "host-transfer-in-hot-path"]]);
    // A sync in the solver's loop is one per iteration of that loop, not one per training step.
    assert.match(found[0].message, /in the loop at line 4 of `cluster_memory\(\)` .* on every iteration/);
    assert.match(found[1].message, /in the step loop of `train\(\)` .* every step/);
  });

  it("a batch loop whose every iteration runs a whole loop of model steps by name (`diffusion.p_sample_loop(model, ...)`) is no step loop; one whose sampler runs every N steps stays one", () => {
    const code = py`
      import torch
      def evaluate(model, diffusion, data, num_samples):
          done = 0
          while done < num_samples:
              batch = next(data).to("cuda")
              metrics = diffusion.calc_bpd_loop(model, batch)
              print(metrics["bpd"].mean().item())
              done += batch.shape[0]
      def train(model, diffusion, data, optimizer):
          for step, batch in enumerate(data):
              loss = model(batch.to("cuda")).mean()
              loss.backward()
              optimizer.step()
              print(loss.item())
              if step % 1000 == 0:
                  diffusion.p_sample_loop(model, (4, 3, 64, 64))
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 11, rule: "blocking-host-to-device" },
      { line: 14, rule: "item-in-hot-path" },
    ]);
  });

  it("a model with `optimize_parameters` (pix2pix/CycleGAN, BasicSR) runs it and `set_input`/`feed_data` on every batch; a buffer made under `if not hasattr(self, ...)` is made once", () => {
    const code = py`
      import torch
      class SRModel:
          def feed_data(self, data):
              self.lq = data["lq"].to(self.device)
              if not hasattr(self, "queue_lr"):
                  self.queue_lr = torch.zeros(180, 3, 64, 64).cuda()
          def optimize_parameters(self, current_iter):
              l_pix = self.cri_pix(self.net_g(self.lq), self.gt)
              l_pix.backward()
              self.log_dict = {"l_pix": l_pix.item()}
      class Helper:
          def set_input(self, data):
              self.x = data.to(self.device)
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 4, rule: "blocking-host-to-device" },
      { line: 10, rule: "item-in-hot-path" },
    ]);
  });

  it("`sum(...)` over GPU tensors (`sum(F.mse_loss(q, y) for q in qs)`, a critic's loss) is a GPU tensor", () => {
    const code = py`
      import torch
      import torch.nn.functional as F
      def train(critic, loader, optimizer):
          for obs, target in loader:
              target = target.cuda(non_blocking=True)
              qs = critic(obs.cuda(non_blocking=True))
              critic_loss = sum(F.mse_loss(q, target) for q in qs)
              worst = max([q.max() for q in qs])
              steps = sum(len(q) for q in qs)
              critic_loss.backward()
              optimizer.step()
              if worst > 10 or steps > 100:
                  print(critic_loss.item())
    `;
    assert.deepStrictEqual(findings(code), [{ line: 12, rule: "implicit-host-read" }, { line: 13, rule: "item-in-hot-path" }]);
  });

  it("methods called through a dispatch table (`loss_map = {\"labels\": self.loss_labels}`, then `loss_map[loss](outputs, targets)`) are as hot as the call", () => {
    const code = py`
      import torch
      from torch import nn
      class SetCriterion(nn.Module):
          def loss_labels(self, outputs, targets):
              return {"class_error": (outputs.argmax(-1) == targets).float().mean().item()}
          def loss_boxes(self, outputs, targets):
              return {"loss_bbox": (outputs - targets).abs().sum()}
          def unused(self, outputs):
              return outputs.item()
          def get_loss(self, loss, outputs, targets):
              loss_map = {"labels": self.loss_labels, "boxes": self.loss_boxes}
              return loss_map[loss](outputs, targets)
          def forward(self, outputs, targets):
              losses = {}
              for loss in self.losses:
                  losses.update(self.get_loss(loss, outputs, targets))
              return losses
    `;
    assert.deepStrictEqual(findings(code), [{ line: 5, rule: "item-in-hot-path" }]);
  });

  it("a data object moved whole (`data = dataset[0].to(device)`, `batch = batch.to(device)`: a PyG graph) has its tensor attributes on the GPU, not its counts; a model moved so keeps its settings", () => {
    const code = py`
      import torch
      import torch.nn.functional as F
      def train(model, dataset, loader, optimizer, device, net):
          data = dataset[0]
          data = data.to(device)
          net = net.to(device)
          for epoch in range(200):
              out = model(data.x, data.edge_index)
              loss = F.cross_entropy(out[data.train_mask], data.y[data.train_mask])
              loss.backward()
              optimizer.step()
              y = data.y.to(device)
              if data.num_nodes > 1 and net.label_dim > 0:
                  acc = int(data.train_mask.sum())
          for batch in loader:
              batch = batch.to(device)
              print(batch.category.tolist())
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 9, rule: "data-dependent-shape" },
      { line: 9, rule: "data-dependent-shape" },
      { line: 14, rule: "implicit-host-read" },
      { line: 16, rule: "blocking-host-to-device" },
      { line: 17, rule: "host-transfer-in-hot-path" },
    ]);
  });

  it("a loop over batches in a function called only from a function that the training loop runs every N steps (`evaluate_model()` calling `calc_loss_loader()`) is no per-step loop", () => {
    const code = py`
      import torch
      def calc_loss_batch(input_batch, target_batch, model, device):
          logits = model(input_batch.to(device))
          return torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.to(device).flatten())
      def calc_loss_loader(data_loader, model, device):
          total_loss = 0.0
          for input_batch, target_batch in data_loader:
              total_loss += calc_loss_batch(input_batch, target_batch, model, device).item()
          return total_loss / len(data_loader)
      def evaluate_model(model, val_loader, device):
          with torch.no_grad():
              return calc_loss_loader(val_loader, model, device)
      def train_model_simple(model, train_loader, val_loader, optimizer, device, eval_freq):
          for step, (input_batch, target_batch) in enumerate(train_loader):
              loss = calc_loss_batch(input_batch, target_batch, model, device)
              loss.backward()
              optimizer.step()
              if step % eval_freq == 0:
                  print(evaluate_model(model, val_loader, device))
    `;
    assert.deepStrictEqual(findings(code), [
      { line: 3, rule: "blocking-host-to-device" },
      { line: 4, rule: "blocking-host-to-device" },
    ]);
    // Evaluated on every step instead, the evaluation's loop runs per step.
    const everyStep = code.replace("if step % eval_freq == 0:\n            print(", "if True:\n            print(");
    assert.ok(findings(everyStep).some((f) => f.line === 8 && f.rule === "item-in-hot-path"));
  });

  it("a branch on an argparse option of the file whose default fails its test (`if opt.save_txt:` with `action=\"store_true\"`, `if args.weights is not None:`) does not run with the default options, unless the file sets the option", () => {
    const code = py`
      import argparse
      import torch
      def train(opt, model, loader):
          for x, y in loader:
              out = model(x.cuda(non_blocking=True))
              if opt.save_txt:
                  print(out.tolist())
              if opt.weights is not None:
                  print(out.cpu())
              if not opt.no_prefetcher:
                  print(out.sum().item())
              if opt.clip_vloss:
                  pass
              else:
                  print(out.max().item())
      if __name__ == "__main__":
          parser = argparse.ArgumentParser()
          parser.add_argument("--save-txt", action="store_true", help="save results (txt)")
          parser.add_argument("--weights", type=str, help="initial weights path")
          parser.add_argument("--no-prefetcher", action="store_true", default=False)
          parser.add_argument("--clip-vloss", type=bool, default=True)
          opt = parser.parse_args()
          train(opt, None, None)
    `;
    assert.deepStrictEqual(findings(code), [{ line: 11, rule: "item-in-hot-path" }]);
    // Set in code, an option's default says nothing.
    const set = code.replace("    opt = parser.parse_args()\n", "    opt = parser.parse_args()\n    opt.save_txt = True\n");
    assert.deepStrictEqual(findings(set), [{ line: 7, rule: "host-transfer-in-hot-path" }, { line: 11, rule: "item-in-hot-path" }]);
    // Set only to `False`, an option that is off by default stays off; one that is on is turned off.
    const cleared = code.replace("    opt = parser.parse_args()\n", "    opt = parser.parse_args()\n    opt.save_txt = False\n    opt.clip_vloss = False\n");
    assert.deepStrictEqual(findings(cleared), [{ line: 11, rule: "item-in-hot-path" }, { line: 15, rule: "item-in-hot-path" }]);
  });

  it("a parameter named like a mask that every call passes indices (`train_iter(..., idx_train)`, and on through `test(..., mask_train)`) is no boolean mask", () => {
    const code = py`
      import torch
      def test(model, inputs, target, mask):
          output = model(inputs)
          return output[mask], target[mask]
      def train_iter(model, optimizer, inputs, target, mask_train):
          output = model(inputs)
          loss = (output[mask_train] - target[mask_train]).pow(2).mean()
          loss.backward()
          optimizer.step()
          return test(model, inputs, target, mask_train)
      def main(model, optimizer, features, labels, device, epochs):
          idx = torch.randperm(len(labels)).to(device)
          idx_train = idx[1500:]
          for epoch in range(epochs):
              train_iter(model, optimizer, features, labels, idx_train)
    `;
    assert.deepStrictEqual(findings(code), []);
    // Passed a comparison, the parameter is a mask again.
    const masked = code.replace("train_iter(model, optimizer, features, labels, idx_train)", "train_iter(model, optimizer, features, labels, labels.to(device) > 0)");
    assert.deepStrictEqual(findings(masked, "data-dependent-shape").map((f) => f.line), [4, 4, 7, 7]);
  });

  it("the right operand of `and`/`or` that an option's default decides (`if opt.verbose and out.sum() > 0:`) is not evaluated with the default options", () => {
    const code = py`
      import argparse
      import torch
      def train(opt, model, loader):
          for x, y in loader:
              out = model(x.cuda(non_blocking=True))
              if opt.verbose and out.sum() > 0:
                  pass
              if not opt.quiet or out.max() > 1:
                  pass
              if opt.quiet and out.min() < 0:
                  pass
              if opt.loud and out.mean() > 0:
                  pass
      parser = argparse.ArgumentParser()
      parser.add_argument("--verbose", action="store_true")
      parser.add_argument("--quiet", action="store_true")
      parser.add_argument("--no-loud", dest="loud", action="store_false")
      opt = parser.parse_args()
    `;
    assert.deepStrictEqual(findings(code), [{ line: 12, rule: "implicit-host-read" }]);
  });

  it("a function whose every call runs only under a non-default option (`if args.save_test_dir != '':`) has no per-step loop, nor does a loader built so (ogb)", () => {
    const code = py`
      import argparse
      import torch
      from torch.utils.data import DataLoader
      def train(model, device, loader, optimizer):
          for batch in loader:
              loss = model(batch.to(device, non_blocking=True)).mean()
              loss.backward()
              optimizer.step()
      def test(model, device, loader):
          preds = []
          for batch in loader:
              preds.append(model(batch.to(device)).cpu())
          return preds
      def main():
          parser = argparse.ArgumentParser()
          parser.add_argument("--save_test_dir", type=str, default="")
          parser.add_argument("--train_subset", action="store_true")
          args = parser.parse_args()
          device = torch.device("cuda")
          if args.train_subset:
              train_loader = DataLoader(subset, batch_size=32)
          else:
              train_loader = DataLoader(full, batch_size=32, pin_memory=True)
          for epoch in range(10):
              train(model, device, train_loader, optimizer)
              if args.save_test_dir != "":
                  test_loader = DataLoader(test_set, batch_size=32)
                  test(model, device, test_loader)
    `;
    assert.deepStrictEqual(findings(code), []);
    // Called once more where the default run gets to it, `test()` runs per batch again, and its loader is reported.
    const called = code.replace("        train(model, device, train_loader, optimizer)", "        train(model, device, train_loader, optimizer)\n        test(model, device, train_loader)");
    assert.deepStrictEqual(findings(called).map((f) => `${f.line} ${f.rule}`), ["12 blocking-host-to-device", "12 host-transfer-in-hot-path"]);
  });

  it("`pin_memory` is asked for where the loop moves its batches, not where it moves a noise tensor or a table; a comprehension over the batch moves it (diffusers, AutoGPTQ)", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      device = torch.device("cuda")
      def train(model, dataset, scheduler):
          loader = DataLoader(dataset, batch_size=8)
          for batch in loader:
              latents = model.encode(batch["pixels"])
              noise = torch.randn(latents.shape).to(device)
              timesteps = scheduler.timesteps.to(device)
              loss = model(latents + noise, timesteps).mean()
              loss.backward()
      def tune(model, dataset):
          loader = DataLoader(dataset, batch_size=8)
          for step, batch in enumerate(loader):
              batch = {k: v.to(device) for k, v in batch.items()}
              model(**batch).loss.backward()
    `;
    assert.deepStrictEqual(findings(code, "dataloader-pin-memory").map((f) => f.line), [13]);
  });

  it("indexing a GPU tensor with a batch of a `DataLoader` over a `range` copies the CPU index every step (ogb's link prediction)", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      def train(model, split_edge, optimizer, batch_size, device):
          pos_train_edge = split_edge["train"]["edge"].to(device)
          for perm in DataLoader(range(pos_train_edge.size(0)), batch_size, shuffle=True):
              edge = pos_train_edge[perm].t()
              loss = model(edge).mean()
              loss.backward()
              optimizer.step()
      def score(model, edges, batch_size):
          for perm in DataLoader(range(edges.size(0)), batch_size):
              model(edges[perm])
    `;
    // `edges` may be anywhere: only a tensor known to be on a GPU is reported for a loader's batch.
    assert.deepStrictEqual(findings(code, "host-index").map((f) => f.line), [6]);
  });

  it("`x.type()` is the type's name, not a tensor; `randn_like(latents).to(device)` is made where `latents` is (KAIR, diffusers, DPO)", () => {
    const code = py`
      import torch
      class SSIM(torch.nn.Module):
          def forward(self, img1, img2):
              if self.window.data.type() == img1.data.type():
                  window = self.window
              return window
      def train(model, loader, device):
          for x in loader:
              latents = model.encode(x.to(device, non_blocking=True))
              noise = torch.randn_like(latents).to(device)
              buffers = [torch.empty_like(latents).to(device) for _ in range(4)]
              model(latents + noise).mean().backward()
    `;
    assert.deepStrictEqual(findings(code), []);
  });

  it("a batch drawn with `next(train_iterator)` in a `train_step` is host data: its `.cuda()` copies (ogb's knowledge-graph models)", () => {
    const code = py`
      import torch
      class KGEModel(torch.nn.Module):
          @staticmethod
          def train_step(model, optimizer, train_iterator, args):
              positive_sample, negative_sample, mode = next(train_iterator)
              positive_sample = positive_sample.cuda()
              loss = model((positive_sample, negative_sample), mode=mode).mean()
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [6]);
  });

  it("a script named for a test run (`test_inference.py`, `main_test_dncnn.py`) is an inference script: its step loops are reported, its other loops and real tests are not", () => {
    const script = py`
      import torch
      def test(model, device, loader):
          preds = []
          for batch in loader:
              preds.append(model(batch.to(device)).cpu())
          for case in [1, 2]:
              print(torch.ones(case).cuda().sum())
          return preds
      if __name__ == "__main__":
          test(model, torch.device("cuda"), loader)
    `;
    const linted = (file: string, text: string) => lintSource(text, { filePath: file, config: resolveConfig({}, "/proj") }).findings.map((f) => `${f.line} ${f.rule}`);
    const perBatch = ["5 blocking-host-to-device", "5 host-transfer-in-hot-path"];
    assert.deepStrictEqual(linted("/proj/test_inference.py", script), perBatch);
    assert.deepStrictEqual(linted("/proj/main_test_dncnn.py", script), perBatch);
    // A module of tests, a tests directory, or a name in the plural stay tests.
    assert.deepStrictEqual(linted("/proj/test_inference.py", `import pytest\n${script}`), []);
    assert.deepStrictEqual(linted("/proj/tests/test_inference.py", script), []);
    assert.deepStrictEqual(linted("/proj/numerical_tests.py", script), []);
    // Called from another script, with no `__main__` guard of its own (SlowFast's `tools/test_net.py`).
    const called = script.slice(0, script.indexOf("if __name__"));
    assert.deepStrictEqual(linted("/proj/tools/test_net.py", called), perBatch);
    assert.deepStrictEqual(linted("/proj/tools/test_net.py", `from absl.testing import absltest\n${called}`), []);
  });

  it("a switch written into the function (`do_test = False`, then `if do_test:`) never runs its branch (peft's examples)", () => {
    const code = py`
      import torch
      def main(model, loader, test_loader):
          do_test = False
          for batch in loader:
              loss = model(batch.cuda(non_blocking=True)).mean()
              loss.backward()
          if do_test:
              for batch in test_loader:
                  preds = model(batch.cuda(non_blocking=True)).cpu()
          verbose = True
          for batch in loader:
              out = model(batch.cuda(non_blocking=True))
              if not verbose:
                  print(out.sum().item())
              if verbose:
                  print(out.sum().item())
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["16 item-in-hot-path"]);
    // Set anew somewhere, it decides nothing.
    assert.deepStrictEqual(findings(code.replace("    verbose = True\n", "    verbose = True\n    verbose = load()\n")).map((f) => f.line), [15, 17]);
  });

  it("a window of each period (`collected_frames % eval_iter < frames_per_batch`, torchrl's evaluation gate) is a periodic guard", () => {
    const code = py`
      import torch
      def train(collector, model, eval_iter, frames_per_batch):
          collected_frames = 0
          for data in collector:
              collected_frames += data.numel()
              loss = model(data.cuda(non_blocking=True)).mean()
              loss.backward()
              if abs(collected_frames % 25000) < frames_per_batch:
                  print(loss.item())
              if collected_frames % eval_iter < frames_per_batch:
                  print(loss.item())
              if collected_frames % eval_iter > frames_per_batch:
                  print(loss.item())
    `;
    assert.deepStrictEqual(findings(code).map((f) => f.line), [13]);
  });

  it("a name for indices is no mask, though it starts like one (`keep_idx_i`, `keep_inds`: faster-rcnn); `mask_indices` stays a mask (fairseq)", () => {
    const code = py`
      import torch
      from torchvision.ops import nms
      class ProposalLayer(torch.nn.Module):
          def forward(self, rois, scores, labels):
              rois = rois.cuda()
              keep_idx_i = nms(rois, scores, 0.7).long().view(-1)
              rois_kept = rois[keep_idx_i, :]
              keep_inds = torch.cat([labels.new_ones(1), labels.new_zeros(1)])
              labels_kept = labels[keep_inds]
              mask_indices = torch.from_numpy(compute_mask(rois.shape)).to(rois.device)
              masked = rois[mask_indices]
              return rois_kept, labels_kept, masked
    `;
    // Line 6: torchvision's `nms` itself waits for its suppression mask on the host.
    assert.deepStrictEqual(findings(code, "data-dependent-shape").map((f) => f.line), [6, 11]);
  });

  it("`Variable(x)` (PyTorch before 0.4) is `x`, on its device: faster-rcnn's `im_data.data.resize_(...).copy_(data[0])` copies each batch with a blocking copy", () => {
    const code = py`
      import torch
      from torch.autograd import Variable
      def train(model, dataloader, optimizer, iters_per_epoch):
          im_data = torch.FloatTensor(1).cuda()
          im_data = Variable(im_data)
          data_iter = iter(dataloader)
          for step in range(iters_per_epoch):
              data = next(data_iter)
              im_data.data.resize_(data[0].size()).copy_(data[0])
              loss = model(im_data).mean()
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [9]);
  });

  it("the `else` of a test that a cached value is still good rebuilds the cache: not per step (KAIR's SSIM window)", () => {
    const code = py`
      import torch
      def create_window(size, channel):
          return torch.ones(channel, 1, size, size)
      class SSIMLoss(torch.nn.Module):
          def forward(self, img1, img2):
              channel = img1.size(1)
              if channel == self.channel and self.window.data.type() == img1.data.type():
                  window = self.window
              else:
                  window = create_window(self.window_size, channel)
                  if img1.is_cuda:
                      window = window.cuda(img1.get_device())
                  self.window = window
                  self.channel = channel
              return window.sum().item()
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["15 item-in-hot-path"]);
    // An \`else\` that sets nothing the test reads runs whenever the test fails.
    const uncached = code.replace("            self.window = window\n", "").replace("            self.channel = channel\n", "");
    assert.deepStrictEqual(findings(uncached).map((f) => `${f.line} ${f.rule}`), ["12 blocking-host-to-device", "13 item-in-hot-path"]);
  });

  it("options the script refuses to run without (`if not args.do_train and not args.do_predict: raise`) are set in a run: their branches are per step; another flag's branch is not (NVIDIA's BERT fine-tuning)", () => {
    const code = py`
      import argparse
      import torch
      def main(model, loader):
          parser = argparse.ArgumentParser()
          parser.add_argument("--do_train", action="store_true")
          parser.add_argument("--do_predict", action="store_true")
          parser.add_argument("--do_eval", action="store_true")
          args = parser.parse_args()
          if not args.do_train and not args.do_predict:
              raise ValueError("At least one of do_train or do_predict must be True.")
          if args.do_train:
              for batch in loader:
                  print(model(batch.cuda(non_blocking=True)).sum().item())
          if args.do_eval:
              for batch in loader:
                  print(model(batch.cuda(non_blocking=True)).mean().item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [13]);
    // Without the refusal, `--do_train` is a flag off by default like `--do_eval`.
    const optional = code.replace(/ {4}if not args\.do_train[^\n]*\n[^\n]*\n/, "");
    assert.deepStrictEqual(findings(optional, "item-in-hot-path"), []);
  });

  it("a `*_step` function called only under a periodic guard is not per step (`checkpoint_step` every N steps); one called every step is", () => {
    const code = py`
      import torch
      def checkpoint_step(model, step):
          torch.cuda.synchronize()
          torch.save(model.state_dict(), f"{step}.pt")
      def train_step(model, batch):
          return model(batch).sum().item()
      def train(model, loader):
          for step, batch in enumerate(loader):
              train_step(model, batch)
              if step % 1000 == 0:
                  checkpoint_step(model, step)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["6 item-in-hot-path"]);
    const everyStep = code.replace("        if step % 1000 == 0:\n            checkpoint_step", "        checkpoint_step");
    assert.deepStrictEqual(findings(everyStep).map((f) => `${f.line} ${f.rule}`), ["3 explicit-synchronize", "6 item-in-hot-path"]);
  });

  it("a loop over a batch's own fields is not a step loop: a one-off helper that takes the first batch (NVIDIA's Triton `get_sample_input`)", () => {
    const code = py`
      import torch
      def get_sample_input(dataloader, device):
          for batch in dataloader:
              _, x, _ = batch
              break
          sample_input = list(x.values())
          for idx, s in enumerate(sample_input):
              sample_input[idx] = torch.from_numpy(s).to(device)
          return tuple(sample_input)
      def train(model, dataloader, device):
          for step, batch in enumerate(dataloader):
              for idx, part in enumerate(batch):
                  batch[idx] = part.to(device)
              model(*batch).sum().backward()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [13]);
    const contexts = lintSource(code, { config: resolveConfig({ select: ["blocking-host-to-device"] }, process.cwd()) }).findings.map((f) => f.message);
    assert.match(contexts[0], /in the loop at line 12, inside the step loop of `train\(\)` \(line 11\)/);
  });

  it("a plain loop in a function called only under an option that is off by default is not reported (FastPitch's `--report-mel-loss`)", () => {
    const code = py`
      import argparse
      import torch
      def compute_mel_loss(mel, lens):
          total = 0
          for i in range(mel.size(0)):
              total += mel[i, :5].sum().item()
          return total
      def main(model, loader):
          parser = argparse.ArgumentParser()
          parser.add_argument("--report-mel-loss", action="store_true")
          args = parser.parse_args()
          for b in loader:
              mel = model(b.cuda(non_blocking=True))
              if args.report_mel_loss:
                  compute_mel_loss(mel, mel.sum(1))
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), []);
    const always = code.replace("        if args.report_mel_loss:\n            compute_mel_loss", "        compute_mel_loss");
    assert.deepStrictEqual(findings(always, "item-in-hot-path").map((f) => f.line), [6]);
  });

  it("a predicate that returns True only under a periodic test gates its caller's branch (generative-models' and latent-diffusion's `check_frequency`); a membership test of a key is no such test", () => {
    const code = py`
      import torch
      class ImageLogger:
          def __init__(self, batch_frequency):
              self.batch_freq = batch_frequency
              self.log_steps = [2 ** n for n in range(10)]
          def check_frequency(self, check_idx):
              if (check_idx % self.batch_freq == 0 or check_idx in self.log_steps) and check_idx > 0:
                  self.log_steps.pop(0)
                  return True
              return False
          def log_img(self, model, batch, batch_idx):
              if self.check_frequency(batch_idx):
                  images = {"x": model(batch).cuda()}
                  for k in images:
                      images[k] = images[k].detach().cpu()
          def on_train_batch_end(self, trainer, model, outputs, batch, batch_idx):
              self.log_img(model, batch, batch_idx)
      def train(model, loader, names):
          for batch in loader:
              out = model(batch.cuda(non_blocking=True))
              for k in names:
                  if k in out:
                      print(out[k].sum().item())
    `;
    assert.deepStrictEqual(findings(code, "host-transfer-in-hot-path"), []);
    // A predicate that may also say yes on any step gates nothing.
    const always = code.replace("        return False\n", "        return self.force\n");
    assert.deepStrictEqual(findings(always, "host-transfer-in-hot-path").map((f) => f.line), [15]);
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [23]);
  });

  it("a model run only in a nested loop makes that loop the step loop, not the loop around it (NVIDIA's Triton `run_models`, lit-llama's per-dataset loop)", () => {
    const code = py`
      import time
      import torch
      def run_models(models, inputs):
          ret = []
          for model in models:
              torch.cuda.synchronize()
              start = time.time()
              outputs = []
              for batch in inputs:
                  with torch.no_grad():
                      output = model(batch)
                  outputs.append(output)
                  print(output.sum().item())
              torch.cuda.synchronize()
              ret.append((outputs, time.time() - start))
          return ret
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["13 item-in-hot-path"]);
    // A model run in the loop's own body still makes it a step loop.
    const direct = code.replace("        torch.cuda.synchronize()\n        start", "        torch.cuda.synchronize()\n        warm = model(inputs[0])\n        start");
    assert.deepStrictEqual(findings(direct, "explicit-synchronize").map((f) => f.line), [6, 15]);
  });

  it("a count of batches (`num_batches`) is no loader, and a counter beside an unpacked item is an index, whatever wraps the `enumerate` (NVIDIA's ConvNets calibration)", () => {
    const code = py`
      import torch
      def collect_stats(model, data_loader, logger, num_batches=10):
          data_iter = enumerate(data_loader)
          if logger is not None:
              data_iter = logger.iteration_generator_wrapper(data_iter, mode="calib")
          for i, (image, _) in data_iter:
              out = model(image.cuda(non_blocking=True))
              if i >= num_batches:
                  break
              if out.sum() > 0:
                  print("positive")
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read").map((f) => f.line), [10]);
    const a = lintSource(code, { config: resolveConfig({}, process.cwd()) });
    assert.ok(a.findings.every((f) => !f.message.includes("i >= num_batches")));
  });

  it("names unpacked from a function of the file that returns a tuple get what it returns (facebookresearch/dlrm's `unpack_batch`: host data copied every step)", () => {
    const code = py`
      import torch
      from torch.utils.data import DataLoader
      def unpack_batch(b):
          return b[0], b[1], b[2], b[3]
      def dlrm_wrap(X, lS_o, lS_i, device):
          return dlrm(X.to(device), lS_o.to(device), lS_i)
      def train(train_data, device):
          train_ld = DataLoader(train_data, batch_size=128, pin_memory=True)
          for j, inputBatch in enumerate(train_ld):
              X, lS_o, lS_i, T = unpack_batch(inputBatch)
              Z = dlrm_wrap(X, lS_o, lS_i, device)
              loss_fn(Z, T.to(device)).backward()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [6, 6, 12]);
    // Two returns may return different things: nothing is unpacked through them, and the callee's moves are of unknown data.
    const twoReturns = code.replace("    return b[0], b[1], b[2], b[3]", "    if b is None:\n        return None, None, None, None\n    return b[0], b[1], b[2], b[3]");
    assert.deepStrictEqual(findings(twoReturns, "blocking-host-to-device").map((f) => f.line), [14]);
  });

  it("a counter stays a counter in a modulo test, even restored from a checkpoint loaded to the host (tacotron2) or kept in a table of steps (sam2)", () => {
    const code = py`
      import torch
      def load_checkpoint(path, model):
          checkpoint_dict = torch.load(path, map_location="cpu")
          model.load_state_dict(checkpoint_dict["state_dict"])
          return model, checkpoint_dict["iteration"]
      def train(model, loader, path, iters_per_checkpoint):
          model, iteration = load_checkpoint(path, model)
          for batch in loader:
              loss = model(batch.cuda(non_blocking=True))
              loss.backward()
              if iteration % iters_per_checkpoint == 0:
                  torch.save(model.state_dict(), "ckpt.pt")
              iteration += 1
              if (loss % 2 == 0).all():
                  print("even")
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read").map((f) => f.line), [14]);
    // `t` names a tensor of timesteps as often as a counter: its modulo test stays a tensor's.
    const timesteps = py`
      import torch
      class Denoiser(torch.nn.Module):
          def forward(self, x, t):
              if t % 2 == 0:
                  return x
              return -x
    `;
    assert.deepStrictEqual(findings(timesteps, "implicit-host-read").map((f) => f.line), [4]);
  });

  it("a few steps in the `__main__` block of a file of models is a smoke test (kohya's `sdxl_original_unet.py`); a script's own training loop is not", () => {
    const code = py`
      import torch
      class UNet(torch.nn.Module):
          def __init__(self):
              super().__init__()
              self.proj = torch.nn.Linear(4, 4)
          def forward(self, x):
              return self.proj(x)
      if __name__ == "__main__":
          unet = UNet().cuda()
          optimizer = torch.optim.AdamW(unet.parameters())
          steps = 10
          for step in range(steps):
              x = torch.randn(1, 4).cuda()
              loss = unet(x).mean()
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), []);
    // Thousands of steps train; so do a few in a script that defines no model.
    assert.deepStrictEqual(findings(code.replace("steps = 10", "steps = 10000"), "blocking-host-to-device").map((f) => f.line), [13]);
    const script = code.replace(/class UNet[\s\S]*?return self\.proj\(x\)\n/, "from models import UNet\n");
    assert.deepStrictEqual(findings(script, "blocking-host-to-device").length, 1);
  });

  it("`_setup_step`, and a module-level `test_step` smoke test, are named for steps but run once (S4); `train_step` and Lightning's `test_step` method stay per step", () => {
    const code = py`
      import torch
      class Kernel(torch.nn.Module):
          def _setup_step(self):
              if self.l_kernel.item() == 0:
                  self.dC = self.C
          def train_step(self, batch):
              return self.l_kernel.item()
      class Model(LightningModule):
          def test_step(self, batch, batch_idx):
              return batch.sum().item()
      def test_step(model):
          x = torch.ones(2, 64, dtype=torch.long).to("cuda")
          return model(x)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["7 item-in-hot-path", "10 item-in-hot-path"]);
  });

  it("a function named for making a model (`load_target_model`, `build_model`) is no model: a loop over processes that calls one is no step loop (kohya)", () => {
    const code = py`
      import torch
      def load_target_model(args, accelerator):
          for pi in range(accelerator.state.num_processes):
              if pi == accelerator.state.local_process_index:
                  text_encoder, vae, unet = _load_target_model(args, "cpu")
                  unet.to(accelerator.device)
                  print(unet.dtype)
              torch.cuda.synchronize()
          return unet
      def train(args, loader):
          model = build_model(args)
          for x in loader:
              print(model(x).sum().item())
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["13 item-in-hot-path"]);
    assert.deepStrictEqual(findings(code.replace("_load_target_model(args", "load_target(args"), "explicit-synchronize"), []);
    // A model called in the loop makes it a step loop.
    const called = code.replace('            print(unet.dtype)', '            print(target_model(unet).sum().item())');
    assert.deepStrictEqual(findings(called).map((f) => `${f.line} ${f.rule}`), ["6 blocking-host-to-device", "7 item-in-hot-path", "8 explicit-synchronize", "13 item-in-hot-path"]);
  });

  it("a branch for another accelerator (`is_xpu_available()`, `torch.npu.is_available()`) never runs beside a CUDA GPU (llama-recipes)", () => {
    const code = py`
      import torch
      from accelerate.utils import is_xpu_available
      def train(model, loader, local_rank):
          for batch in loader:
              for key in batch.keys():
                  if is_xpu_available():
                      batch[key] = batch[key].to("xpu:0")
                  elif torch.npu.is_available():
                      batch[key] = batch[key].to("npu:0")
                  else:
                      batch[key] = batch[key].to("cuda:0")
              model(**batch).loss.backward()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [11]);
    // DirectML (`privateuseone`), by a flag's name or by the device's type (RVC's band-split roformer).
    const directml = py`
      import torch
      def stft(x, window):
          x_is_dml = x.device.type == "privateuseone"
          if x_is_dml:
              x = x.cpu()
          if window.device.type == "privateuseone":
              window = window.cpu()
          return torch.stft(x, 512, window=window, return_complex=True)
      class Model(torch.nn.Module):
          def forward(self, x):
              return stft(x, self.window)
    `;
    assert.deepStrictEqual(findings(directml, "host-transfer-in-hot-path"), []);
  });

  it("a tensor made like another, then scaled by a number, is where its source is: its \`.cuda()\` copies nothing (EfficientDet's focal loss)", () => {
    const code = py`
      import torch
      class FocalLoss(torch.nn.Module):
          def forward(self, classifications, annotations):
              losses = []
              for j in range(classifications.shape[0]):
                  classification = classifications[j, :, :]
                  targets = torch.ones_like(classification) * -1
                  targets = targets.cuda()
                  host = torch.ones(3) * -1
                  host = host.cuda()
                  losses.append((targets * classification).sum())
              return torch.stack(losses)
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [10]);
  });

  it("a model's own `loss` method runs every step by convention when nothing in its file calls it (benchmarking-gnns' networks, built by a factory); one its file calls is judged by its callers", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class GCNNet(nn.Module):
          def forward(self, g, h):
              return self.layers(g, h)
          def loss(self, pred, label):
              V = label.size(0)
              label_count = torch.bincount(label)
              label_count = label_count[label_count.nonzero()].squeeze()
              return nn.CrossEntropyLoss()(pred, label)
    `;
    assert.deepStrictEqual(findings(code, "data-dependent-shape").map((f) => f.line), [8, 9]);
    const calledOnce = code + "net = GCNNet()\nprint(net.loss(torch.zeros(3), torch.zeros(3)))\n";
    assert.deepStrictEqual(findings(calledOnce, "data-dependent-shape"), []);
  });

  it("options kept on the object (`self.args.eval_inference` of a fairseq task that defines `--eval-inference`) decide branches as `args.X` does", () => {
    const code = py`
      import torch
      class SpeechTask:
          @staticmethod
          def add_args(parser):
              parser.add_argument("--eval-inference", action="store_true")
          def __init__(self, args):
              self.args = args
          def valid_step(self, sample, model):
              loss = model(sample)
              if self.args.eval_inference:
                  for d in loss:
                      print(d.sum().item())
              return loss
          def train(self, model, loader):
              for sample in loader:
                  self.valid_step(sample.cuda(non_blocking=True), model)
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), []);
    assert.deepStrictEqual(findings(code.replace('"--eval-inference", action="store_true"', '"--eval-inference", action="store_false"'), "item-in-hot-path").map((f) => f.line), [12]);
  });

  it("a loop that calls a trainer's own step (`self.backward_pass(...)`) is a step loop; a branch for a NaN loss is an error path; `t != None` is a Python bool (StableCascade, sam2, NVIDIA's DLRM)", () => {
    const code = py`
      import math
      import numpy as np
      import torch
      DEVICE = "cuda"
      class TrainingCore:
          def train(self, data, models, max_iters):
              pbar = tqdm(range(1, max_iters + 1)) if self.is_main_node else range(1, max_iters + 1)
              for i in pbar:
                  loss, adjusted = self.forward_pass(data, models)
                  grad_norm = self.backward_pass(loss, adjusted, models)
                  self.ema_loss = loss.mean().item()
                  if np.isnan(grad_norm.item()) or not math.isfinite(loss.mean().item()):
                      print(f"NaN: {loss.mean().item()} {grad_norm.item()}")
                  for param in models.parameters():
                      if param.grad != None:
                          param.grad.mul_(0.5)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["11 item-in-hot-path", "12 item-in-hot-path", "12 item-in-hot-path"]);
  });

  it("an option without a default that an `if`/`elif` chain compares with values (`--dataset`, then `if args.dataset == \"chairs\":`) is the user's choice, not a branch that never runs (RAFT's evaluate.py)", () => {
    const code = py`
      import argparse
      import torch
      def validate_chairs(model, val_dataset):
          epe_list = []
          for val_id in range(len(val_dataset)):
              image1, flow_gt = val_dataset[val_id]
              flow_pr = model(image1[None].cuda())
              epe_list.append(flow_pr[0].cpu())
          return epe_list
      if __name__ == "__main__":
          parser = argparse.ArgumentParser()
          parser.add_argument("--dataset", help="dataset for evaluation")
          parser.add_argument("--verbose", action="store_true")
          args = parser.parse_args()
          if args.dataset == "chairs":
              validate_chairs(torch.nn.Linear(2, 2).cuda(), [])
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["7 blocking-host-to-device", "8 host-transfer-in-hot-path"]);
    // A flag whose default fails the test still keeps its branch from running by default.
    const flagged = code.replace('if args.dataset == "chairs":', "if args.verbose:");
    assert.deepStrictEqual(findings(flagged), []);
    // So does an option with an explicit default that the test does not match.
    const defaulted = code.replace('help="dataset for evaluation"', 'default="sintel"');
    assert.deepStrictEqual(findings(defaulted), []);
  });

  it("the entries of an `nn.ModuleDict` and the items of an `nn.ModuleList` are modules: their outputs are on the GPU in `forward`, and a loop over the layers is one forward pass, not a step loop (nanoGPT, llm.c)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class GPT(nn.Module):
          def __init__(self, config):
              super().__init__()
              self.transformer = nn.ModuleDict(dict(
                  wte=nn.Embedding(config.vocab_size, config.n_embd),
                  h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
                  ln_f=nn.LayerNorm(config.n_embd),
              ))
              self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
          def forward(self, idx, targets=None):
              x = self.transformer.wte(idx)
              for block in self.transformer.h:
                  x = block(x)
                  print(x.sum().item())
              x = self.transformer.ln_f(x)
              if targets is not None:
                  logits = self.lm_head(x)
              else:
                  logits = self.lm_head(x[:, [-1], :])
              return logits
    `;
    const found = lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings;
    assert.deepStrictEqual(found.map((f) => `${f.line} ${f.rule}`), ["16 item-in-hot-path", "21 host-index"]);
    // The `.item()` in the loop over layers runs several times per forward pass, not "every step" of a step loop.
    assert.match(found[0].message, /several times per forward pass/);
    assert.doesNotMatch(found[0].message, /step loop/);
    // A container's own methods are not entries: `self.transformer.keys()` runs nothing on the GPU.
    const keys = code.replace("x = self.transformer.ln_f(x)", "x = self.transformer.keys()");
    assert.deepStrictEqual(findings(keys).map((f) => `${f.line} ${f.rule}`), ["16 item-in-hot-path"]);
  });

  it("a name like a size unpacked beside a module's output (`x, feat_size = stage(x, feat_size)`) is a Python size, not a GPU tensor (timm's MViTv2)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class Vit(nn.Module):
          def __init__(self, stages):
              super().__init__()
              self.stages = nn.ModuleList(stages)
          def forward(self, x, feat_size):
              outs = []
              for stage in self.stages:
                  x, feat_size = stage(x, feat_size)
                  outs.append(x.reshape(x.shape[0], feat_size[0], feat_size[1], -1))
              x, attn = self.stages[0](x, feat_size)
              return outs, int(attn)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["13 implicit-host-read"]);
  });

  it("values computed from a tensor copied to the host stay on the host, whatever they meet (`torch.sum((flow - flow_gt)**2)` of `flow = pred.cpu()`; RAFT's validate_kitti)", () => {
    const code = py`
      import torch
      def validate(model, val_dataset):
          out_list = []
          for val_id in range(len(val_dataset)):
              image, flow_gt, valid_gt = val_dataset[val_id]
              flow_pr = model(image[None].cuda(non_blocking=True))
              flow = flow_pr[0].cpu()
              epe = torch.sum((flow - flow_gt) ** 2, dim=0).sqrt()
              mag = torch.sum(flow_gt ** 2, dim=0).sqrt()
              val = valid_gt.view(-1) >= 0.5
              out = ((epe > 3.0) & ((epe / mag) > 0.05)).float()
              out_list.append(out[val].cpu().numpy())
              print(epe.mean().item(), mag.max().item())
          return out_list
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["7 host-transfer-in-hot-path"]);
    // Without the copy, the same lines read GPU tensors.
    const onDevice = code.replace("flow = flow_pr[0].cpu()", "flow = flow_pr[0]");
    assert.deepStrictEqual(findings(onDevice).map((f) => `${f.line} ${f.rule}`), ["12 data-dependent-shape", "12 host-transfer-in-hot-path", "13 item-in-hot-path"]);
  });

  it("a wrapper's `__call__` that runs the model it keeps (`self.model(x, new_ts)`) runs as often as the model's forward pass (guided-diffusion's and DiT's timestep respacing)", () => {
    const code = py`
      import torch as th
      class _WrappedModel:
          def __init__(self, model, timestep_map):
              self.model = model
              self.timestep_map = timestep_map
          def __call__(self, x, ts, **kwargs):
              map_tensor = th.tensor(self.timestep_map, device=ts.device, dtype=ts.dtype)
              return self.model(x, map_tensor[ts], **kwargs)
      class Resize:
          def __init__(self, size):
              self.size = size
          def __call__(self, image):
              return th.tensor(self.size, device="cuda")
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["7 blocking-host-to-device"]);
    // Called where the file can see it, the wrapper is as hot as its callers.
    const called = code + "\nwrapped = _WrappedModel(None, [0, 2, 4])\nout = wrapped(th.zeros(1), th.zeros(1))\n";
    assert.deepStrictEqual(findings(called), []);
  });

  it("the items of `zip(*t.topk(k))` are elements of the tensors topk returns (whisper's beam search)", () => {
    const code = py`
      import torch
      def decode(model, tokens, steps):
          for step in range(steps):
              logprobs = model(tokens).log_softmax(-1)
              sequences = []
              for logprob, token in zip(*logprobs[0].topk(5)):
                  sequences.append(token.item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [7]);
    const onHost = code.replace("zip(*logprobs[0].topk(5))", "zip(*logprobs[0].cpu().topk(5))");
    assert.deepStrictEqual(findings(onHost, "item-in-hot-path"), []);
  });

  it("a range made on the host stays there through arithmetic with values of unknown kind (`torch.arange(half) / half` with `half = dim // 2`), so moving it in `forward` is a host-to-device copy per pass (the sinusoidal timestep embedding of guided-diffusion, taming-transformers, generative-models)", () => {
    const code = py`
      import math
      import torch
      import torch.nn as nn
      def timestep_embedding(timesteps, dim, max_period=10000):
          half = dim // 2
          freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(device=timesteps.device)
          return timesteps[:, None].float() * freqs[None]
      class UNet(nn.Module):
          def forward(self, x, timesteps):
              scale = torch.tensor(0.5)
              shifted = (scale * self.shift).to(x.device)
              return self.time_embed(timestep_embedding(timesteps, self.model_channels)) * shifted
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["6 blocking-host-to-device"]);
  });

  it("`self.forward(...)` in a method of an `nn.Module` is the module's own forward pass, as `self(...)` is: a loop calling it runs a step per generated token (llm.c's and nanochat's `generate`)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      def sample_top_p(probs, p):
          probs_sort, probs_idx = torch.sort(probs, dim=-1, descending=True)
          next_token = torch.multinomial(probs_sort, num_samples=1)
          return torch.gather(probs_idx, -1, next_token)
      class LLaMA(nn.Module):
          def forward(self, tokens, start_pos=0):
              return self.output(self.layers(tokens)), None
          @torch.no_grad()
          def generate(self, tokens, total_len, top_p):
              for cur_pos in range(1, total_len):
                  logits, _ = self.forward(tokens[:, :cur_pos])
                  probs = torch.softmax(logits[:, -1], dim=-1)
                  next_token = sample_top_p(probs, top_p)
                  if next_token.item() == 2:
                      break
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["5 data-dependent-shape", "16 item-in-hot-path"]);
    // In a class that is no module, `self.forward` is just a method.
    const plain = code.replace("class LLaMA(nn.Module):", "class LLaMA:");
    assert.deepStrictEqual(findings(plain), []);
  });

  it("loops that run backward passes for an optimizer step taken by the loop around them accumulate one step's gradients: the code between them runs per step, not per epoch (nanochat's RL loop)", () => {
    const code = py`
      import torch
      def train(model, reward_model, optimizer, sample, num_steps, examples_per_rank, num_passes):
          for step in range(num_steps):
              rewards_list = []
              for example_step in range(examples_per_rank):
                  inputs_all, targets_all = sample(model)
                  rewards_all = reward_model(inputs_all)
                  for pass_idx in range(num_passes):
                      loss = model(inputs_all, targets_all).mean()
                      loss.backward()
                  rewards_list.append(rewards_all.mean().item())
              optimizer.step()
              model.zero_grad(set_to_none=True)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["11 item-in-hot-path"]);
    // With the optimizer stepped in the innermost loop, the middle loop is an epoch of those steps.
    const inner = code.replace("                loss.backward()\n", "                loss.backward()\n                optimizer.step()\n").replace("        optimizer.step()\n        model.zero_grad", "        model.zero_grad");
    assert.strictEqual(inner.split("optimizer.step()").length, 2);
    assert.deepStrictEqual(findings(inner), []);
  });

  it("the loop of a generator that yields a batch per iteration runs once per step of the step loop that takes its batches (`next(train_loader)`, or `for ... in gen()`; nanochat's SFT data generator, pytorch/examples' RPC trainer)", () => {
    const code = py`
      import torch
      device = torch.device("cuda")
      def sft_data_generator(rows_source):
          while True:
              rows = next(rows_source)
              batch = torch.tensor(rows, dtype=torch.long, pin_memory=True)
              inputs = batch[:, :-1].to(device=device, non_blocking=True)
              mask = torch.tensor(rows, dtype=torch.int8)
              targets = mask[:, 1:].to(device=device)
              yield inputs, targets
      def get_next_batch(n):
          for _ in range(n):
              target = torch.LongTensor(8).random_(8).to(device)
              yield target
      def examples(n):
          for _ in range(n):
              yield torch.zeros(3).to(device)
      def train(model, optimizer, rows_source, steps):
          train_loader = sft_data_generator(rows_source)
          for step in range(steps):
              x, y = next(train_loader)
              model(x, y).backward()
              optimizer.step()
          for target in get_next_batch(steps):
              model(target).backward()
              optimizer.step()
          shown = list(examples(4))
    `;
    const found = lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings;
    assert.deepStrictEqual(found.map((f) => `${f.line} ${f.rule}`), ["9 blocking-host-to-device", "13 blocking-host-to-device"]);
    assert.match(found[0].message, /in the loop at line 4 of `sft_data_generator\(\)`, which yields once per iteration to the step loop of `train\(\)` \(line 20\)/);
  });

  it("a file that reaches torch's names through a star import (`from .openaimodel import *`, then `th.Tensor`, `nn.Module`) is PyTorch code (generative-models' video UNet)", () => {
    const code = py`
      from typing import Optional
      from .openaimodel import *
      class SpatialUNetModelWithTime(nn.Module):
          def forward(self, x: th.Tensor, timesteps: th.Tensor, context: Optional[th.Tensor] = None):
              time = str(timesteps[0].data.cpu().numpy())
              return self.out(x)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["5 host-transfer-in-hot-path"]);
    // A star import alone says nothing of torch.
    const plain = py`
      from .helpers import *
      class Meter:
          def forward(self, values):
              return [v.cpu() for v in values]
    `;
    assert.deepStrictEqual(findings(plain), []);
  });

  it("a function called through a table of functions (`sample_fn = {\"heun\": sample_heun}[sampler]`, then `sample_fn(denoiser, x, sigmas, **args)`) receives what that call passes (consistency_models' Karras samplers)", () => {
    const code = py`
      import torch
      def get_sigmas_karras(n, sigma_min, sigma_max, device="cpu"):
          ramp = torch.linspace(0, 1, n)
          sigmas = (sigma_max + ramp * (sigma_min - sigma_max)) ** 7
          return torch.cat([sigmas, sigmas.new_zeros([1])]).to(device)
      def sample_heun(denoiser, x, sigmas, s_tmin=0.0, s_tmax=float("inf")):
          for i in range(len(sigmas) - 1):
              gamma = 0.1 if s_tmin <= sigmas[i] <= s_tmax else 0.0
              denoised = denoiser(x, sigmas[i] * (gamma + 1))
              x = x + (x - denoised) * (sigmas[i + 1] - sigmas[i])
          return x
      def sample_euler(denoiser, x, sigmas):
          for i in range(len(sigmas) - 1):
              x = x + denoiser(x, sigmas[i]) * (sigmas[i + 1] - sigmas[i])
          return x
      def karras_sample(model, shape, steps, sampler="heun", device=None):
          sigmas = get_sigmas_karras(steps, 0.002, 80.0, device=device)
          x_T = torch.randn(*shape, device=device) * 80.0
          sample_fn = {"heun": sample_heun, "euler": sample_euler}[sampler]
          sampler_args = dict(s_tmin=0.0, s_tmax=float("inf")) if sampler == "heun" else {}
          return sample_fn(model, x_T, sigmas, **sampler_args)
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["8 implicit-host-read"]);
    // Without the table, nothing says where `sigmas` lives.
    const direct = code.replace('sample_fn = {"heun": sample_heun, "euler": sample_euler}[sampler]', "sample_fn = samplers[sampler]");
    assert.deepStrictEqual(findings(direct), []);
  });

  it("what a callable of unknown kind makes for a device is a tensor there, a method inherited from a class of the file is found, and a denoiser is a model (generative-models' EDM sampler)", () => {
    const code = py`
      import torch
      class BaseDiffusionSampler:
          def __init__(self, discretization, num_steps, device="cuda"):
              self.discretization = discretization
              self.num_steps = num_steps
              self.device = device
          def prepare_sampling_loop(self, x, cond):
              sigmas = self.discretization(self.num_steps, device=self.device)
              x = x * torch.sqrt(1.0 + sigmas[0] ** 2.0)
              return x, sigmas, len(sigmas), cond
          def denoise(self, x, denoiser, sigma, cond):
              return denoiser(x, sigma, cond)
      class EDMSampler(BaseDiffusionSampler):
          def sampler_step(self, sigma, next_sigma, denoiser, x, cond):
              denoised = self.denoise(x, denoiser, sigma, cond)
              return x + (x - denoised) * (next_sigma - sigma)
          def __call__(self, denoiser, x, cond, s_tmin=0.0, s_tmax=999.0):
              x, sigmas, num_sigmas, cond = self.prepare_sampling_loop(x, cond)
              for i in range(num_sigmas - 1):
                  gamma = 0.5 if s_tmin <= sigmas[i] <= s_tmax else 0.0
                  x = self.sampler_step(sigmas[i], sigmas[i + 1], denoiser, x, cond)
              return x
      def setup(cfg, device):
          model = build_model(cfg, device=device)
          engine = make_engine(cfg, device=device)
          return model, engine
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["20 implicit-host-read"]);
  });

  it("a function passed to a loop of model steps (`sample_fn(model_fn, shape, cond_fn=cond_fn)` with `sample_fn = diffusion.p_sample_loop if ... else diffusion.ddim_sample_loop`) runs on every sampling step (guided-diffusion's classifier guidance)", () => {
    const code = py`
      import torch as th
      import torch.nn.functional as F
      def main(args, model, classifier, diffusion):
          def cond_fn(x, t, y=None):
              logits = classifier(x, t)
              log_probs = F.log_softmax(logits, dim=-1)
              selected = log_probs[range(len(logits)), y.view(-1)]
              return selected.sum()
          def show(x):
              return x.cpu()
          sample_fn = diffusion.p_sample_loop if not args.use_ddim else diffusion.ddim_sample_loop
          sample = sample_fn(model, (4, 3, 64, 64), cond_fn=cond_fn)
          pictures = list(map(show, [sample]))
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["7 host-index"]);
  });

  it("a trainer module whose `forward` holds the training loop runs `forward` once per run: only its loop is per step (byol-pytorch's BYOLTrainer)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class BYOLTrainer(nn.Module):
          def __init__(self, byol, optimizer, dataloader, num_train_steps):
              super().__init__()
              self.byol, self.optimizer, self.dataloader = byol, optimizer, dataloader
              self.num_train_steps = num_train_steps
              self.register_buffer("step", torch.tensor(0))
          def forward(self):
              step = self.step.item()
              for _ in range(self.num_train_steps):
                  images = next(self.dataloader)
                  loss = self.byol(images)
                  loss.backward()
                  self.optimizer.step()
                  print(f"loss {loss.item():.3f}")
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["16 item-in-hot-path"]);
  });

  it("detectron2's all_gather over a gloo group works on host tensors: `torch.device(\"cpu\" if backend == \"gloo\" else \"cuda\")`, lists of tensors made like another, and loops over one item per rank (SlowFast's and DETR's copies)", () => {
    const code = py`
      import pickle
      import torch
      import torch.distributed as dist
      def _serialize_to_tensor(data, group):
          backend = dist.get_backend(group)
          device = torch.device("cpu" if backend == "gloo" else "cuda")
          storage = torch.ByteStorage.from_buffer(pickle.dumps(data))
          return torch.ByteTensor(storage).to(device=device)
      def _pad_to_largest_tensor(tensor, group):
          local_size = torch.tensor([tensor.numel()], dtype=torch.int64, device=tensor.device)
          size_list = [torch.zeros([1], dtype=torch.int64, device=tensor.device) for _ in range(4)]
          dist.all_gather(size_list, local_size, group=group)
          return [int(size.item()) for size in size_list], tensor
      def all_gather(data, group=None):
          tensor = _serialize_to_tensor(data, group)
          size_list, tensor = _pad_to_largest_tensor(tensor, group)
          tensor_list = [torch.empty((max(size_list),), dtype=torch.uint8, device=tensor.device) for _ in size_list]
          dist.all_gather(tensor_list, tensor, group=group)
          return [pickle.loads(t.cpu().numpy().tobytes()[:size]) for size, t in zip(size_list, tensor_list)]
      def nccl_gather(tensor):
          world_size = dist.get_world_size()
          sizes = [torch.tensor([0], device="cuda") for _ in range(world_size)]
          dist.all_gather(sizes, torch.tensor([tensor.numel()], device="cuda"))
          return [int(size.item()) for size in sizes]
      def train(model, loader, optimizer):
          for x in loader:
              loss = model(x.cuda(non_blocking=True)).sum()
              loss.backward()
              optimizer.step()
              all_gather(loss.detach())
    `;
    assert.deepStrictEqual(findings(code), []);
    // Were the backend NCCL, the buffer would be copied to the GPU once per call.
    assert.deepStrictEqual(findings(code.replace('"gloo"', '"nccl"')).map((f) => `${f.line} ${f.rule}`), ["8 blocking-host-to-device", "10 blocking-host-to-device", "13 item-in-hot-path", "19 host-transfer-in-hot-path"]);
  });

  it("`forward` inputs named like epochs (`epoch_exact`) or flags without a default (`return_all`) are Python values (SlowFast's contrastive model and multi-scale head)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class Head(nn.Module):
          def forward(self, block_outputs, output_masks, return_all, epoch_exact):
              outputs = []
              for index, x in enumerate(block_outputs):
                  if epoch_exact >= 15.0:
                      x = x * 2
                  if not return_all:
                      x = x[:, 1:]
                  outputs.append(x)
              return outputs
    `;
    assert.deepStrictEqual(findings(code), []);
    assert.deepStrictEqual(findings(code.replace("return_all, epoch_exact", "keep, ratio").replace("return_all", "keep").replace("epoch_exact >=", "ratio >=")).map((f) => `${f.line} ${f.rule}`), ["7 implicit-host-read", "9 implicit-host-read"]);
  });

  it("a value moved to the host under a test that holds only with a GPU (`if cfg.NUM_GPUS:`, `if torch.cuda.is_available():`) is on the host after it: without a GPU it was there all along", () => {
    const code = py`
      import torch
      def evaluate(model, loader, cfg, meter):
          for inputs, labels in loader:
              if cfg.NUM_GPUS:
                  inputs = inputs.cuda(non_blocking=True)
              preds = model(inputs)
              if cfg.NUM_GPUS:
                  preds = preds.cpu()
              if torch.cuda.is_available():
                  labels = labels.cpu()
              meter.update(preds.argmax(-1).tolist(), labels.tolist())
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["8 host-transfer-in-hot-path"]);
    // Under another test the value may still be on the GPU after the `if`.
    assert.deepStrictEqual(findings(code.replace("if cfg.NUM_GPUS:\n            preds", "if cfg.SAVE:\n            preds")).map((f) => `${f.line} ${f.rule}`), ["8 host-transfer-in-hot-path", "11 host-transfer-in-hot-path"]);
  });

  it("`for module in self.input_blocks: h = module(h, emb)` runs the layers of one forward pass, whatever the entry is called: `forward` stays per pass, and what it calls too (latent-diffusion's UNet and its timestep embedding)", () => {
    const code = py`
      import math
      import torch
      import torch.nn as nn
      def timestep_embedding(timesteps, dim, max_period=10000):
          half = dim // 2
          freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(device=timesteps.device)
          args = timesteps[:, None].float() * freqs[None]
          return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
      class UNetModel(nn.Module):
          def __init__(self, channels):
              super().__init__()
              self.channels = channels
              self.input_blocks = nn.ModuleList([nn.Conv2d(3, channels, 3)])
              self.input_blocks.append(nn.Conv2d(channels, channels, 3))
          def forward(self, x, timesteps):
              emb = timestep_embedding(timesteps, self.channels)
              h = x
              for module in self.input_blocks:
                  h = module(h) + emb[:, :, None, None]
              return h
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["6 blocking-host-to-device"]);
  });

  it("a tensor made from a sequence without `device=` (`torch.tensor(im0.shape)`) is on the host through arithmetic with values of unknown kind: it is never 0-dim, so never mixed with a GPU tensor (YOLOv7's label writer)", () => {
    const code = py`
      import torch
      from utils.general import xyxy2xywh
      def detect(model, dataset):
          for path, img, im0 in dataset:
              pred = model(img.cuda(non_blocking=True))
              gn = torch.tensor(im0.shape)[[1, 0, 1, 0]]
              for *xyxy, conf, cls in reversed(pred):
                  xywh = (xyxy2xywh(torch.tensor(xyxy).view(1, 4)) / gn).view(-1).tolist()
    `;
    assert.deepStrictEqual(findings(code, "host-transfer-in-hot-path"), []);
    // `torch.tensor(3.0)` is 0-dim, and a 0-dim CPU tensor mixes with a GPU tensor: the result may be on the GPU.
    assert.deepStrictEqual(findings(code.replace("torch.tensor(im0.shape)[[1, 0, 1, 0]]", "torch.tensor(im0.scale)"), "host-transfer-in-hot-path").map((f) => f.line), [8]);
  });

  it("`if \"loss_ota\" not in hyp or hyp[\"loss_ota\"] == 1:` reads a setting with its default on every step; `if \"step\" not in state: state[\"step\"] = 0` fills what it tests, once (YOLOv7's loss choice)", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, hyp, compute_loss_ota, state):
          for imgs, targets in loader:
              pred = model(imgs.cuda(non_blocking=True))
              if "loss_ota" not in hyp or hyp["loss_ota"] == 1:
                  loss = compute_loss_ota(pred, targets.cuda(non_blocking=True))
                  print(loss.item())
              if "step" not in state or state["step"] is None:
                  state["step"] = torch.zeros(1, device="cuda")
                  print(state["step"].item())
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [7]);
  });

  it("a branch under `and` never runs when one operand never holds (`merge = False` ... `if merge and n < 3000:`), nor one testing a parameter left at an empty default (`labels=()`; YOLOv7's NMS)", () => {
    const code = py`
      import torch
      def non_max_suppression(prediction, conf_thres=0.25, labels=()):
          merge = False
          output = []
          for xi, x in enumerate(prediction):
              x = x[x[:, 4] > conf_thres]
              if labels and len(labels[xi]):
                  x = x[x[:, 6] > len(labels[xi])]
              n = x.shape[0]
              if merge and (1 < n < 3000):
                  x = x[x[:, 5] > 0.5]
              output.append(x)
          return output
      def detect(model, loader):
          for img in loader:
              pred = non_max_suppression(model(img.cuda(non_blocking=True)), 0.3)
    `;
    assert.deepStrictEqual(findings(code, "data-dependent-shape").map((f) => f.line), [6]);
    assert.deepStrictEqual(findings(code.replace("merge = False", "merge = True").replace("labels=()", "labels=(1,)"), "data-dependent-shape").map((f) => f.line), [6, 8, 11]);
  });

  it("a loop of a few literal iterations outside per-step code (`for i in range(4):` in a self-check run from `__main__`) waits a handful of times, once: not reported; longer loops, nested ones counted together, are (FastChat's flash-attention patch test)", () => {
    const code = py`
      import torch
      def test():
          device = torch.device("cuda")
          for i in range(4):
              ref = torch.rand(2, 8, device=device)
              print(f"Mean(abs(ref)) = {torch.mean(torch.abs(ref))}")
      if __name__ == "__main__":
          test()
    `;
    assert.deepStrictEqual(findings(code), []);
    assert.deepStrictEqual(findings(code.replace("range(4)", "range(40)")).map((f) => `${f.line} ${f.rule}`), ["6 tensor-formatting"]);
    const nested = py`
      import torch
      def test(device):
          for i in range(2):
              for j in range(2, 8):
                  ref = torch.rand(2, 8, device=device)
                  print(f"Mean(abs(ref)) = {torch.mean(torch.abs(ref))}")
    `;
    assert.deepStrictEqual(findings(nested).map((f) => `${f.line} ${f.rule}`), ["6 tensor-formatting"]);
  });

  it("a value moved to the host in a branch for another device (`if device == \"mps\": logits = logits.to(\"cpu\")`) is where an earlier binding made it beside a CUDA GPU; one moved under `if args.n_gpu > 0:` is on the host (FastChat's generate_stream)", () => {
    const code = py`
      import torch
      def generate_stream(model, input_ids, device, args, max_new_tokens=256):
          output_ids = list(input_ids)
          for i in range(max_new_tokens):
              logits = model(torch.as_tensor([output_ids], device=device)).logits
              if args.processor:
                  last_token_logits = args.processor(logits[:, -1, :])[0]
              else:
                  last_token_logits = logits[0, -1, :]
              if device == "mps":
                  last_token_logits = last_token_logits.float().to("cpu")
              probs = torch.softmax(last_token_logits, dim=-1)
              if args.n_gpu > 0:
                  probs = probs.cpu()
              tokens = [int(token) for token in torch.multinomial(last_token_logits.softmax(-1), num_samples=2).tolist()]
              output_ids.append(tokens[0])
              print(probs.max().item())
    `;
    assert.deepStrictEqual(findings(code, "host-transfer-in-hot-path").map((f) => f.line), [14, 15]);
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), []);
  });

  it("a cache filled under `if key not in cache:` is filled once per distinct key, as `@lru_cache` is (VITS's `mel_basis` and `hann_window`); a test that does not fill what it tests runs every time", () => {
    const code = py`
      import torch
      mel_basis = {}
      seen = {}
      def mel_spectrogram(y, n_fft, win_size):
          key = str(win_size) + "_" + str(y.device)
          if key not in mel_basis:
              mel_basis[key] = torch.hann_window(win_size).to(dtype=y.dtype, device=y.device)
          if key not in seen:
              window = torch.hann_window(win_size).to(device=y.device)
          return torch.stft(y, n_fft, window=mel_basis[key], return_complex=True)
      def train(model, loader, optimizer, device):
          for audio, _ in loader:
              audio = audio.to(device, non_blocking=True)
              loss = model(mel_spectrogram(audio, 1024, 1024)).mean()
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [9]);
  });

  it("`if num_gpus > 1:` tests for several GPUs: its `else:` runs on one GPU, not without one (WaveGlow's single-GPU `loss.item()`); `if num_gpus == 0:` still tells a run without a GPU", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer, num_gpus):
          for mel, audio in loader:
              loss = model(mel.cuda(non_blocking=True), audio.cuda(non_blocking=True))
              if num_gpus > 1:
                  reduced_loss = reduce_tensor(loss.data, num_gpus).item()
              else:
                  reduced_loss = loss.item()
              if num_gpus == 0:
                  print(loss.item())
              loss.backward()
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [6, 8]);
  });

  it("in `forward` and what it calls, `.to(device)` of a value of unknown kind in a loop is a copy only when the loop goes over what the function was given (detectron2's `for x in batched_inputs`), not over the model's own values (LLaVA's per-sample embeddings)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class Detr(nn.Module):
          def forward(self, batched_inputs):
              images = [x["image"].to(self.device) for x in batched_inputs]
              features = self.backbone(torch.stack(images))
              embeds = []
              for feature in features.unbind(0):
                  embeds.append(self.project(feature))
              embeds = [x.to(self.device) for x in embeds]
              return torch.stack(embeds)
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [5]);
  });

  it("a torchmetrics state added with a tensor default (`self.add_state(\"cer\", default=torch.tensor(0))`) is a tensor of the metric module; one with a list default is not (deepspeech.pytorch's CharErrorRate)", () => {
    const code = py`
      import torch
      import pytorch_lightning as pl
      from torchmetrics import Metric
      class CharErrorRate(Metric):
          def __init__(self):
              super().__init__()
              self.add_state("cer", default=torch.tensor(0), dist_reduce_fx="sum")
              self.add_state("texts", default=[], dist_reduce_fx="cat")
          def compute(self):
              return float(self.cer) + float(len(self.texts))
      class DeepSpeech(pl.LightningModule):
          def __init__(self):
              super().__init__()
              self.cer_metric = CharErrorRate()
          def validation_step(self, batch, batch_idx):
              self.log("cer", self.cer_metric.compute(), prog_bar=True)
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read").map((f) => f.line), [10]);
  });

  it("a call of a name that a local import rebinds (`from helpers import item_of` in the function) calls that import, not the file's function of that name (YOLOv7's `from thop import profile` beside its own `profile()`)", () => {
    const code = py`
      import torch
      def item_of(x):
          return x.item()
      def train(model, loader, optimizer):
          from helpers import item_of
          for batch in loader:
              loss = model(batch.cuda(non_blocking=True)).mean()
              loss.backward()
              optimizer.step()
              print(item_of(loss))
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), []);
    assert.deepStrictEqual(findings(code.replace(/ *from helpers import item_of\n/, ""), "item-in-hot-path").map((f) => f.line), [3]);
  });

  it("a function that nothing in its file calls but that runs a backward pass itself runs once per training step (stylegan2-ada's `StyleGAN2Loss.accumulate_gradients`, built from a class name in a config); one with a loop of steps of its own does not", () => {
    const code = py`
      import torch
      class StyleGAN2Loss:
          def run_G(self, z):
              ws = self.G_mapping(z)
              cutoff = torch.empty([], dtype=torch.int64, device=ws.device).random_(1, ws.shape[1])
              ws[:, cutoff:] = self.G_mapping(torch.randn_like(z))[:, cutoff:]
              return self.G_synthesis(ws)
          def accumulate_gradients(self, phase, real_img, gen_z):
              img = self.run_G(gen_z)
              loss = torch.nn.functional.softplus(-self.D(img)).mean()
              loss.backward()
          def fit(self, loader, optimizer):
              print(self.summary.item())
              for real_img, gen_z in loader:
                  self.accumulate_gradients("Gmain", real_img, gen_z)
                  optimizer.step()
    `;
    assert.deepStrictEqual(findings(code.replace(/ {4}def fit[\s\S]*/, ""), "implicit-host-read").map((f) => f.line), [6, 6]);
    assert.deepStrictEqual(findings(code, "item-in-hot-path"), []);
    // A plain function that takes nothing makes its own data: a gradient check run once (faster-rcnn.pytorch's `compare_grid_sample`).
    const check = py`
      import torch
      def compare_grid_sample(grid=None):
          x = torch.randn(4, 2, 5, 5).cuda().requires_grad_()
          torch.nn.functional.grid_sample(x, grid).sum().backward()
    `;
    assert.deepStrictEqual(findings(check, "blocking-host-to-device").map((f) => f.line), [3]);
    assert.deepStrictEqual(findings(check.replace("(grid=None)", "()").replace(", grid)", ", x)"), "blocking-host-to-device"), []);
    // A closure takes nothing too, and runs every step (`optimizer.step(closure)` of L-BFGS: pytorch/examples' time_sequence_prediction).
    const closure = py`
      import torch
      def fit(model, optimizer, x, y):
          def closure():
              optimizer.zero_grad()
              loss = (model(x) - y).pow(2).mean()
              print("loss:", loss.item())
              loss.backward()
              return loss
          optimizer.step(closure)
    `;
    assert.deepStrictEqual(findings(closure, "item-in-hot-path").map((f) => f.line), [6]);
  });

  it("a loop in a function named for loading or converting weights (`load_pretrained_model`, and the helpers nested in it) runs once, at set-up: its per-layer copies are not reported; the same loop in another function is", () => {
    const code = py`
      import numpy as np
      import torch
      class ICNet(torch.nn.Module):
          def load_pretrained_model(self, model_path):
              weights = np.load(model_path, allow_pickle=True).item()
              def _transfer_conv(layer_name, module):
                  module.weight.data.copy_(torch.from_numpy(weights[layer_name]))
              def _transfer_block(block_name, block):
                  for i, layer in enumerate(block):
                      _transfer_conv(f"{block_name}_{i}", layer)
              for name, block in self.blocks.items():
                  _transfer_block(name, block)
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device"), []);
    assert.deepStrictEqual(findings(code.replace("def load_pretrained_model", "def refresh"), "blocking-host-to-device"), [{ line: 7, rule: "blocking-host-to-device" }]);
  });

  it("a parameter the function calls `.eval()` or `.parameters()` on is a model, whatever its name (`retinanet.eval()`, then `retinanet(img.cuda())` per image): its loop runs a forward pass per item", () => {
    const code = py`
      import torch
      def _get_detections(dataset, retinanet):
          retinanet.eval()
          with torch.no_grad():
              for index in range(len(dataset)):
                  data = dataset[index]
                  scores, labels, boxes = retinanet(data["img"].permute(2, 0, 1).cuda().float().unsqueeze(dim=0))
                  scores = scores.cpu().numpy()
    `;
    assert.deepStrictEqual(findings(code), [{ line: 7, rule: "blocking-host-to-device" }, { line: 8, rule: "host-transfer-in-hot-path" }]);
    // Without the call, nothing says the parameter is a model: a loop over the dataset is not known to run one.
    assert.deepStrictEqual(findings(code.replace("    retinanet.eval()\n", "    pass\n")), []);
  });

  it("`for step in range(args.epoch):` counts steps whatever its bound is called, and a model built from a class of another file and moved (`maml = Meta(args, config).to(device)`) runs a forward pass when called (MAML's training loop)", () => {
    const code = py`
      import torch
      from meta import Meta
      def main(args, config, db_train, device):
          maml = Meta(args, config).to(device)
          for step in range(args.epoch):
              x_spt, y_spt = db_train.next()
              x_spt, y_spt = torch.from_numpy(x_spt).to(device), torch.from_numpy(y_spt).to(device)
              accs = maml(x_spt, y_spt)
    `;
    assert.deepStrictEqual(findings(code, "blocking-host-to-device").map((f) => f.line), [7, 7]);
    // A loop over the epochs that runs the batches in a nested loop stays the epoch loop.
    const nested = code.replace("        x_spt, y_spt = db_train.next()\n", "        for x_spt, y_spt in db_train:\n").replace(/\n {8}(x_spt, y_spt = torch|accs)/g, "\n            $1");
    assert.deepStrictEqual(findings(nested, "blocking-host-to-device").map((f) => f.line), [7, 7]);
    assert.match(lintSource(nested).findings[0].message, /in the step loop of `main\(\)` \(line 6\)/);
  });

  it("a loop that takes a batch with `next()` each pass is a step loop, even around nested loops over that batch's minibatches (TRL's PPO)", () => {
    const code = py`
      import torch
      def train(policy, dataloader, args):
          iter_dataloader = iter(dataloader)
          for update in range(1, args.num_total_batches + 1):
              data = next(iter_dataloader)
              queries = data["input_ids"].to("cuda", non_blocking=True)
              scores = policy(queries)
              for ppo_epoch in range(args.num_ppo_epochs):
                  for start in range(0, args.batch_size, args.mini_batch_size):
                      loss = policy(queries[start:start + args.mini_batch_size]).mean()
                      loss.backward()
              print(scores.mean().item())
    `;
    assert.deepStrictEqual(findings(code, "item-in-hot-path").map((f) => f.line), [12]);
    assert.match(lintSource(code).findings.find((f) => f.line === 12)!.message, /in the step loop of `train\(\)` \(line 4\)/);
    // Without the draw, the outer loop runs the nested training loops: an epoch loop, its own body cold.
    assert.deepStrictEqual(findings(code.replace("        data = next(iter_dataloader)\n", "        data = dataloader.dataset[update]\n"), "item-in-hot-path"), []);
  });

  it("a boolean mask made by reducing a mask (`is_eos.any(dim=1)`) selects through `nonzero` (TRL's generation: eight trainers)", () => {
    const code = py`
      import torch
      def train(model, loader):
          for batch in loader:
              ids = model.generate(batch["input_ids"].cuda(non_blocking=True))
              is_eos = ids == 2
              eos_idx = torch.full((ids.size(0),), ids.size(1), dtype=torch.long, device=ids.device)
              eos_idx[is_eos.any(dim=1)] = is_eos.int().argmax(dim=1)[is_eos.any(dim=1)]
              model(ids, eos_idx).backward()
    `;
    const lines = lintSource(code).findings.filter((f) => f.rule === "data-dependent-shape").map((f) => `${f.line}:${f.column}`);
    assert.deepStrictEqual(lines, ["7:9", "7:38"]);
  });

  it("`a or b` of two tensors is a tensor whichever Python picks; read as a bool in each layer it waits each time (fairseq's `has_pads`)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class Encoder(nn.Module):
          def forward(self, src_tokens, x):
              padding_mask = src_tokens.eq(self.padding_idx)
              has_pads = torch.tensor(src_tokens.device.type == "xla") or padding_mask.any()
              for layer in self.layers:
                  x = layer(x, padding_mask=padding_mask if has_pads else None)
              return x
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read").map((f) => f.line), [8]);
    // A tensor or a Python number: no evidence either way.
    assert.deepStrictEqual(findings(code.replace("torch.tensor(src_tokens.device.type == \"xla\")", "self.always_pad"), "implicit-host-read"), []);
  });

  it("a value is no tensor where `torch.is_tensor(v)` or `isinstance(v, torch.Tensor)` fails: its `else`, a later `elif`, a conditional's other side (fairseq's trainer)", () => {
    const code = py`
      import torch
      def train(model, loader, optimizer):
          for batch in loader:
              batch = batch.cuda(non_blocking=True)
              loss = model(batch)
              sample_size = (batch != 0).sum()
              if torch.is_tensor(sample_size):
                  sample_size = sample_size.float()
              else:
                  sample_size = float(sample_size)
              if isinstance(loss, torch.Tensor):
                  loss.backward()
              elif loss:
                  print(float(loss))
              total = sample_size.item() if isinstance(sample_size, torch.Tensor) else int(sample_size)
              optimizer.step()
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["15 item-in-hot-path"]);
    // The same calls outside such a test are reported.
    assert.deepStrictEqual(findings(code.replace("if torch.is_tensor(sample_size):", "if sample_size.dim() > 0:"), "implicit-host-read").map((f) => f.line), [10]);
  });

  it("recovery code runs after a failure: a branch on a flag only an exception handler sets, and a first-update guard on a counter's getter (fairseq's trainer)", () => {
    const code = py`
      import torch
      class Trainer:
          def train_step(self, samples):
              has_oom = False
              for sample in samples:
                  try:
                      loss = self.model(sample.cuda(non_blocking=True))
                      loss.backward()
                      if self.get_num_updates() == 0:
                          torch.cuda.empty_cache()
                  except RuntimeError:
                      has_oom = True
                  if has_oom:
                      torch.cuda.empty_cache()
                  print(loss.item())
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["15 item-in-hot-path"]);
    // Set outside the handler too, the flag says nothing of how often its branch runs; nor does a getter of something else.
    const setElsewhere = code.replace("has_oom = False\n", "has_oom = self.check()\n").replace("get_num_updates()", "get_mode()");
    assert.deepStrictEqual(findings(setElsewhere).map((f) => f.line), [10, 14, 15]);
  });

  it("a module kept in an attribute after `.to(device)` returns GPU tensors; a `range` in its output's index and a product of masks are host reads (Rainbow's agent)", () => {
    const code = py`
      import torch
      from model import DQN
      class Agent:
          def __init__(self, args):
              self.online_net = DQN(args).to(device=args.device)
          def learn(self, states, actions, optimiser):
              log_ps = self.online_net(states)
              log_ps_a = log_ps[range(self.batch_size), actions]
              l, u = log_ps_a.floor().long(), log_ps_a.ceil().long()
              l[(u > 0) * (l == u)] -= 1
              loss = -log_ps_a.sum()
              loss.backward()
              optimiser.step()
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["8 host-index", "10 data-dependent-shape"]);
  });

  it("a training method's tensors are assumed on a GPU, as in a `*_step` method, when the file names no device (tianshou's algorithms)", () => {
    const code = py`
      import numpy as np
      import torch
      class DQN:
          def _update_with_batch(self, batch):
              q = self.policy(batch).logits
              q = q[np.arange(len(q)), batch.act]
              loss = (q - batch.returns).pow(2).mean()
              self.optim.zero_grad()
              loss.backward()
              self.optim.step()
              return {"loss": loss.item()}
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["6 host-index", "11 item-in-hot-path"]);
  });

  it("a tensor given as `torch.full`'s fill value is read with `item()` (the DDIM sampler's `torch.full(shape, alphas[index])`)", () => {
    const code = py`
      import torch
      class Sampler:
          def __init__(self, model):
              self.model = model
              self.ddim_alphas = torch.linspace(0.1, 0.9, 50, device="cuda")
          @torch.no_grad()
          def sample(self, x, timesteps):
              alphas = self.ddim_alphas
              for i, step in enumerate(timesteps):
                  index = len(timesteps) - i - 1
                  a_t = torch.full((x.shape[0], 1, 1, 1), alphas[index], device=x.device)
                  b_t = torch.full_like(x, fill_value=0.5)
                  x = self.model(x, step) * a_t + b_t
              return x
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["11 implicit-host-read"]);
    assert.match(lintSource(code).findings[0].message, /a fill value/);
  });

  it("a branch on a debugging parameter that is `None` by default does not run in training, even where the body binds it anew (StyleGAN2-ADA's augmentation)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class AugmentPipe(nn.Module):
          def forward(self, images, debug_percentile=None):
              device = images.device
              if debug_percentile is not None:
                  debug_percentile = torch.as_tensor(debug_percentile, device=device)
              i = torch.rand([images.shape[0]], device=device)
              if debug_percentile is not None:
                  i = torch.full_like(i, torch.floor(debug_percentile * 2))
              return images * i.view(-1, 1, 1, 1)
    `;
    assert.deepStrictEqual(findings(code), []);
    // Not a debugging switch by name: its branch runs when callers pass it.
    assert.deepStrictEqual(findings(code.replace(/debug_percentile/g, "percentile")).map((f) => f.line), [10]);
  });

  it("a name bound in one branch of an `if` is not what its other branch reads; in a loop it may be (Stable Diffusion's classifier)", () => {
    const code = py`
      import torch
      class Classifier:
          def shared_step(self, x, t=None):
              if t is None:
                  t = torch.randint(0, 1000, (x.shape[0],), device=self.device).long()
              else:
                  t = torch.full(size=(x.shape[0],), fill_value=t, device=self.device).long()
              return self.model(x, t)
          def training_step(self, batch, batch_idx):
              return self.shared_step(batch)
          def validation_step(self, batch, batch_idx):
              for t in self.noisy_steps:
                  self.shared_step(batch, t)
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read"), []);
    // In a loop, the next pass of the `else` reads what the body bound in this one.
    const looped = py`
      import torch
      def train(model, loader):
          prev = None
          for x in loader:
              out = model(x.cuda(non_blocking=True))
              if prev is None:
                  prev = out.sum()
              else:
                  print(float(prev))
    `;
    assert.deepStrictEqual(findings(looped, "implicit-host-read").map((f) => f.line), [9]);
  });

  it("a branch for a tensor on the CPU (`x.device == torch.device(\"cpu\")`) does not run beside a CUDA GPU (fairseq's masked LM loss)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class MaskedLmLoss(nn.Module):
          def forward(self, model, sample):
              masked_tokens = sample["target"].ne(self.padding_idx)
              if self.tpu:
                  masked_tokens = None
              elif masked_tokens.device == torch.device("cpu"):
                  if not masked_tokens.any():
                      masked_tokens = None
              return model(sample["net_input"], masked_tokens=masked_tokens)
    `;
    assert.deepStrictEqual(findings(code, "implicit-host-read"), []);
    assert.deepStrictEqual(findings(code.replace('torch.device("cpu")', 'torch.device("cuda")'), "implicit-host-read").map((f) => f.line), [9]);
  });

  it("a Hugging Face `Trainer` subclass gets its inputs on the device (`_prepare_inputs`): moving them again copies nothing (TRL's KTO)", () => {
    const code = py`
      import torch
      from transformers import Trainer
      class KTOTrainer(Trainer):
          def compute_loss(self, model, inputs, return_outputs=False):
              batch = {k: (v.to(self.accelerator.device) if isinstance(v, torch.Tensor) else v) for k, v in inputs.items()}
              labels = torch.as_tensor(inputs["label"], dtype=torch.bool, device=self.accelerator.device)
              loss = model(**batch).loss
              print(loss.item())
              return loss
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["8 item-in-hot-path"]);
    // The same method of a class that is no `Trainer` gets a loader's batch, on the host.
    assert.deepStrictEqual(findings(code.replace("class KTOTrainer(Trainer):", "class KTOLoss:")).map((f) => f.line), [5, 6, 8]);
  });

  it("a save test by name (`is_save_iter(args, iteration)`) guards a checkpoint, not a step; its barriers and host copies are cold (GPT-NeoX)", () => {
    const code = py`
      import torch
      import torch.distributed as dist
      def save_checkpoint(model, iteration):
          dist.barrier()
          torch.save({k: v.cpu() for k, v in model.state_dict().items()}, f"ckpt-{iteration}.pt")
      def train(model, loader, optimizer, args):
          for iteration, batch in enumerate(loader):
              model(batch.cuda(non_blocking=True)).mean().backward()
              optimizer.step()
              if args.save and is_save_iter(args, iteration):
                  save_checkpoint(model, iteration)
    `;
    assert.deepStrictEqual(findings(code), []);
    assert.deepStrictEqual(findings(code.replace("is_save_iter(args, iteration)", "should_stop(args, iteration)")).map((f) => `${f.line} ${f.rule}`), ["4 explicit-synchronize", "5 host-transfer-in-hot-path"]);
  });

  it("`self.method(...)` in a function nested in a method calls the method of that `self`'s class (HuBERT's `compute_pred` in `forward`)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class Hubert(nn.Module):
          def __init__(self):
              super().__init__()
              self.label_embs = nn.Parameter(torch.randn(10, 4))
          def compute_nce(self, x, pos, negs):
              logits = torch.cosine_similarity(x, pos, dim=-1)
              print(logits.mean().item())
              return logits
          def forward(self, x, targets):
              def compute_pred(proj_x, target):
                  y = torch.index_select(self.label_embs, 0, target.long())
                  return self.compute_nce(proj_x, y, self.label_embs)
              return [compute_pred(x, t) for t in targets]
    `;
    assert.deepStrictEqual(findings(code).map((f) => `${f.line} ${f.rule}`), ["9 item-in-hot-path"]);
    // A nested function that binds a `self` of its own is no method of the class.
    assert.deepStrictEqual(findings(code.replace("def compute_pred(proj_x, target):", "def compute_pred(self, proj_x, target):")), []);
  });

  it("a model output tested for a key it is then read with (`if lk in net_output: net_output[lk]`) is a dict, and the names a model returns beside its losses are strings (fairseq's HuBERT criterion)", () => {
    const code = py`
      import torch
      import torch.nn as nn
      class Criterion(nn.Module):
          def forward(self, model, sample):
              net_output = model(**sample["net_input"])
              logging_output = {}
              for lk in self.log_keys:
                  if lk in net_output:
                      logging_output[lk] = net_output[lk]
              extra_losses, names = model.get_extra_losses(net_output)
              for p, n in zip(extra_losses, names):
                  logging_output[f"loss_{n}"] = p.detach()
              return logging_output
    `;
    assert.deepStrictEqual(findings(code), []);
    // Tested for a key it is not read with, a model output may be a tensor; so may what is not named like names.
    assert.deepStrictEqual(findings(code.replace("net_output[lk]", "net_output.sum()").replace(/names/g, "parts")).map((f) => `${f.line} ${f.rule}`), ["8 implicit-host-read", "12 tensor-formatting"]);
  });
});
