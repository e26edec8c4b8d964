/**
 * Hot paths across files: the calls a file's hot paths make into the project (`links`), import resolution
 * among the project's files, and `lintProject`, which lints a function with the context of its caller in
 * another file.
 */
import * as assert from "assert";
import * as path from "path";
import { FileAnalysis, ProjectModules, SourceText, hotEntriesOf, initParser, lintProject, lintSource, parseSyntaxTree } from "synclint-rules";
import type { HotEntries, HotEntry, LintResult, ModuleLinks } from "synclint-rules";
import { py } from "../helpers";

const ROOT = path.resolve(path.sep, "project");
const at = (name: string) => path.join(ROOT, ...name.split("/"));

function linksOf(code: string, name = "engine.py"): ModuleLinks {
  return lintSource(code, { filePath: at(name), linkModules: true }).links!;
}

/** Lints files held in memory as one project (paths under ROOT), as the CLI lints files on disk. */
async function lintInMemory(files: Record<string, string>): Promise<(name: string) => LintResult> {
  const byPath = new Map(Object.entries(files).map(([name, code]) => [at(name), code]));
  const results = await lintProject([...byPath.keys()], async (requests) => {
    return new Map(requests.map(({ file, entries }) => [file, lintSource(byPath.get(file)!, { filePath: file, hotEntries: entries, linkModules: true })]));
  });
  return (name) => results.get(at(name))!;
}

const ENGINE = py`
  import torch
  import util.misc as utils
  from util.misc import all_reduce_mean


  def train_one_epoch(model, loader, optimizer, device):
      logger = utils.MetricLogger()
      for samples, targets in loader:
          samples = samples.to(device, non_blocking=True)
          loss = model(samples).mean()
          optimizer.zero_grad()
          loss.backward()
          optimizer.step()
          logger.update(loss=loss)
          all_reduce_mean(loss)
`;

const MISC = py`
  import torch


  class MetricLogger:
      def update(self, **kwargs):
          for name, value in kwargs.items():
              if isinstance(value, torch.Tensor):
                  value = value.item()

      def summary(self, value):
          return value.item()


  def all_reduce_mean(x):
      return x.item()


  def unused(x):
      return x.item()
`;

describe("cross-file hot paths", () => {
  before(() => initParser());

  describe("links: the calls a file's hot paths make into the project", () => {
    it("lists calls through `from m import f`, `import m as x`, a relative import and an instance of an imported class", () => {
      const links = linksOf(py`
        import torch
        import util.misc as utils
        from util.misc import all_reduce_mean
        from util import box_ops
        from .local import helper


        def train(model, loader, optimizer):
            logger = utils.MetricLogger()
            all_reduce_mean(torch.zeros(1))
            for x, y in loader:
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
                logger.update(loss=loss)
                all_reduce_mean(loss)
                box_ops.check(x)
                helper(x)
                torch.cuda.synchronize()
      `);
      assert.deepStrictEqual(
        links.calls.map((call) => [call.target, call.line]),
        [
          ["util.misc.MetricLogger.update", 15],
          ["util.misc.all_reduce_mean", 16],
          ["util.box_ops.check", 17],
          [".local.helper", 18],
        ],
      );
      for (const call of links.calls) {
        assert.match(call.where, /in the step loop of `train\(\)` \(line 11\)/);
        assert.strictEqual(call.frequency, "every step");
      }
      assert.deepStrictEqual(links.imports, { utils: "util.misc", all_reduce_mean: "util.misc.all_reduce_mean", box_ops: "util.box_ops", helper: ".local.helper" });
    });

    it("follows an attribute of `self` made from an imported class (or given, or made) to its method calls", () => {
      const links = linksOf(py`
        from meters import AverageMeter


        class Trainer:
            def __init__(self, meter=None):
                self.meter = meter or AverageMeter()

            def training_step(self, batch):
                loss = batch.sum()
                self.meter.update(loss)
                return loss
      `);
      assert.deepStrictEqual(links.calls.map((call) => [call.target, call.frequency]), [["meters.AverageMeter.update", "every step"]]);
    });

    it("follows an instance into the function of this file it is passed to, and calls of the instance itself (`__call__`)", () => {
      const links = linksOf(py`
        import torch
        from utils import NativeScaler


        def train_one_epoch(model, loader, optimizer, loss_scaler, other=None):
            for x in loader:
                loss = model(x).mean()
                loss_scaler(loss, optimizer)
                loss_scaler.state_dict()
                other.update()


        def main(model, loader, optimizer):
            loss_scaler = NativeScaler()
            meter = NativeScaler()
            train_one_epoch(model, loader, optimizer, loss_scaler, other=meter)
      `);
      assert.deepStrictEqual(links.calls.map((call) => [call.target, call.line]), [
        ["utils.NativeScaler.__call__", 8],
        ["utils.NativeScaler.state_dict", 9],
        ["utils.NativeScaler.update", 10],
      ]);
    });

    it("lists no call from cold code, from a loop that is not a step loop, through a shadowing local name, or in a test file", () => {
      const cold = linksOf(py`
        from helpers import log_value, f


        def report(values):
            for name in values:
                log_value(values[name])


        def train(loader, model, optimizer, f):
            for x in loader:
                model(x).mean().backward()
                optimizer.step()
                f(x)


        log_value(1)
      `);
      assert.deepStrictEqual(cold.calls, []);
      assert.deepStrictEqual(linksOf(ENGINE, "tests/test_engine.py").calls, []);
      assert.strictEqual(linksOf(ENGINE).calls.length, 2);
    });

    it("maps a method a class inherits from a class of the same file to the method that runs", () => {
      const links = linksOf(py`
        class Sampler:
            def sample(self, n):
                pass

            def weights(self):
                pass


        class UniformSampler(Sampler):
            def weights(self):
                pass


        class Nested(UniformSampler, object):
            pass
      `, "resample.py");
      assert.deepStrictEqual(links.functions, {
        "Sampler.sample": "Sampler.sample",
        "Sampler.weights": "Sampler.weights",
        "UniformSampler.weights": "UniformSampler.weights",
        "UniformSampler.sample": "Sampler.sample",
        "Nested.weights": "UniformSampler.weights",
        "Nested.sample": "Sampler.sample",
      });
    });

    it("names what other modules can import: re-exported names, top-level functions and methods of top-level classes", () => {
      const links = linksOf(py`
        from .cuda import NativeScaler
        from . import misc


        def top():
            def nested():
                pass


        @decorated
        class Meter:
            def update(self):
                pass
      `, "utils/__init__.py");
      assert.deepStrictEqual(links.imports, { NativeScaler: ".cuda.NativeScaler", misc: ".misc" });
      assert.deepStrictEqual(links.functions, { top: "top", "Meter.update": "Meter.update" });
    });
  });

  describe("import resolution among the project's files", () => {
    const modules = new ProjectModules(["engine.py", "util/__init__.py", "util/misc.py", "models/__init__.py", "models/detr.py"].map(at));

    it("finds an absolute module from the importer's folder up, the longest module path first", () => {
      assert.deepStrictEqual(modules.resolve(at("engine.py"), "util.misc.MetricLogger.update"), { file: at("util/misc.py"), name: "MetricLogger.update" });
      assert.deepStrictEqual(modules.resolve(at("models/detr.py"), "util.misc.all_reduce_mean"), { file: at("util/misc.py"), name: "all_reduce_mean" });
      assert.deepStrictEqual(modules.resolve(at("engine.py"), "util.helper"), { file: at("util/__init__.py"), name: "helper" });
      assert.strictEqual(modules.resolve(at("engine.py"), "numpy.linalg.norm"), undefined);
    });

    it("resolves relative imports from the importer's package only", () => {
      assert.deepStrictEqual(modules.resolve(at("util/__init__.py"), ".misc"), { file: at("util/misc.py"), name: "" });
      assert.deepStrictEqual(modules.resolve(at("models/detr.py"), "..util.misc.f"), { file: at("util/misc.py"), name: "f" });
      assert.deepStrictEqual(modules.resolve(at("models/detr.py"), ".helper"), { file: at("models/__init__.py"), name: "helper" });
      assert.strictEqual(modules.resolve(at("engine.py"), ".misc.f"), undefined);
    });

    it("finds an absolute module in a folder the importer puts on `sys.path` (`sys.path.append('core')`), after the usual places, and lists such folders in its links", () => {
      const withCore = new ProjectModules(["train.py", "core/datasets.py", "core/utils/utils.py", "utils.py"].map(at));
      assert.strictEqual(withCore.resolve(at("train.py"), "datasets.fetch_dataloader"), undefined);
      assert.deepStrictEqual(withCore.resolve(at("train.py"), "datasets.fetch_dataloader", ["core"]), { file: at("core/datasets.py"), name: "fetch_dataloader" });
      assert.deepStrictEqual(withCore.resolve(at("train.py"), "datasets", ["./core"]), { file: at("core/datasets.py"), name: "" });
      // A module of the importer's own folder still comes first, and a relative import never looks there.
      assert.deepStrictEqual(withCore.resolve(at("train.py"), "utils.helper", ["core"]), { file: at("utils.py"), name: "helper" });
      assert.strictEqual(withCore.resolve(at("train.py"), ".datasets", ["core"]), undefined);
      const code = "import sys\nsys.path.append('core')\nsys.path.insert(0, \"../lib\")\nsys.path.append(os.path.join(root, 'x'))\nimport datasets\n";
      assert.deepStrictEqual(linksOf(code, "train.py").searchPaths, ["core", "../lib"]);
      assert.strictEqual(linksOf("import datasets\n", "train.py").searchPaths, undefined);
    });

    it("follows a package's re-export to the module that defines the name", () => {
      const links = new Map([[at("util/__init__.py"), { calls: [], imports: { NativeScaler: ".misc.NativeScaler" }, functions: {} }]]);
      assert.deepStrictEqual(
        modules.resolveDefinition(at("engine.py"), "util.NativeScaler.__call__", (file) => links.get(file)),
        { file: at("util/misc.py"), name: "NativeScaler.__call__" },
      );
    });

    it("follows `from .misc import *` in a package's `__init__.py` to the module that defines the name, but not past a name the package defines itself", () => {
      const links = new Map<string, ModuleLinks>([
        [at("util/__init__.py"), { calls: [], imports: {}, functions: { helper: "helper" }, starImports: [".misc"] }],
        [at("util/misc.py"), { calls: [], imports: {}, functions: { time_synchronized: "time_synchronized", helper: "helper" } }],
      ]);
      const linksOf = (file: string) => links.get(file);
      assert.deepStrictEqual(modules.resolveDefinition(at("engine.py"), "util.time_synchronized", linksOf), { file: at("util/misc.py"), name: "time_synchronized" });
      assert.deepStrictEqual(modules.resolveDefinition(at("engine.py"), "util.helper", linksOf), { file: at("util/__init__.py"), name: "helper" });
      assert.deepStrictEqual(modules.resolveDefinition(at("engine.py"), "util.unknown", linksOf), { file: at("util/__init__.py"), name: "unknown" });
      assert.deepStrictEqual(linksOf(at("util/__init__.py"))!.starImports, lintSource("from .misc import *\nfrom numpy import *\n", { filePath: at("util/__init__.py"), linkModules: true }).links!.starImports);
    });

    it("gives each called function of another file one entry, from its first caller, for the names the file defines", () => {
      const engine = lintSource(ENGINE, { filePath: at("engine.py"), linkModules: true }).links!;
      const misc = lintSource(MISC, { filePath: at("util/misc.py"), linkModules: true }).links!;
      const entries = hotEntriesOf(new Map([[at("engine.py"), engine], [at("util/misc.py"), misc]]), new ProjectModules([at("engine.py"), at("util/misc.py")]));
      assert.deepStrictEqual([...entries.keys()], [at("util/misc.py")]);
      const forMisc = entries.get(at("util/misc.py"))! as Readonly<Record<string, HotEntry>>;
      assert.deepStrictEqual(Object.keys(forMisc), ["MetricLogger.update", "all_reduce_mean"]);
      assert.strictEqual(forMisc.all_reduce_mean.where, "which `../engine.py` calls at line 15 in the step loop of `train_one_epoch()` (line 8)");
      assert.strictEqual(forMisc.all_reduce_mean.gpu, true);
    });
  });

  describe("lintProject", () => {
    it("reports syncs in the functions another file calls from its step loop, and says where they are called", async () => {
      const result = await lintInMemory({ "engine.py": ENGINE, "util/__init__.py": "", "util/misc.py": MISC });
      const misc = result("util/misc.py").findings;
      assert.deepStrictEqual(misc.map((finding) => [finding.rule, finding.line]), [["item-in-hot-path", 8], ["item-in-hot-path", 15]]);
      assert.match(misc[1].message, /^`x\.item\(\)` in `all_reduce_mean\(\)`, which `\.\.\/engine\.py` calls at line 15 in the step loop of `train_one_epoch\(\)` \(line 8\) waits for the GPU every step/);
      assert.match(misc[0].context.reason, /`MetricLogger\.update\(\)` is called from a hot path in another file: the loop at line 8 iterates over batches of data/);
      // Alone, the module has no hot path.
      assert.deepStrictEqual(lintSource(MISC, { filePath: at("util/misc.py") }).findings, []);
    });

    it("follows a call of a name that a star import brings (`from utils import *`) to the module that defines it, not to another star-imported one", async () => {
      const train = py`
        import torch
        from datasets import *
        from utils import *
        def train(model, loader, optimizer, device):
            for images, targets in loader:
                scores = model(images.to(device, non_blocking=True))
                loss = scores.mean()
                loss.backward()
                optimizer.step()
                top5 = accuracy(scores, targets.to(device, non_blocking=True), 5)
      `;
      const utils = py`
        import torch
        def accuracy(scores, targets, k):
            _, ind = scores.topk(k, 1, True, True)
            correct = ind.eq(targets.view(-1, 1).expand_as(ind))
            return correct.view(-1).float().sum().item() * (100.0 / targets.size(0))
      `;
      const datasets = py`
        import torch
        def unused_accuracy(scores):
            return scores.sum().item()
        class CaptionDataset(torch.utils.data.Dataset):
            pass
      `;
      const result = await lintInMemory({ "train.py": train, "utils.py": utils, "datasets.py": datasets });
      const findings = result("utils.py").findings;
      assert.deepStrictEqual(findings.map((finding) => [finding.rule, finding.line]), [["item-in-hot-path", 5]]);
      assert.match(findings[0].message, /in `accuracy\(\)`, which `train\.py` calls at line 10 in the step loop of `train\(\)`/);
      assert.deepStrictEqual(result("datasets.py").findings, []);
    });

    it("follows `next(fetcher)` in a step loop to the `__next__` of the class the file constructs it from (stargan-v2's `InputFetcher`)", async () => {
      const solver = py`
        import torch
        from core.data_loader import InputFetcher
        def train(nets, optims, loaders, device, total_iters):
            fetcher = InputFetcher(loaders.src, device)
            for i in range(total_iters):
                inputs = next(fetcher)
                loss = nets.generator(inputs.x_src).mean()
                loss.backward()
                optims.generator.step()
      `;
      const dataLoader = py`
        import torch
        class InputFetcher:
            def __init__(self, loader, device):
                self.loader = loader
                self.iter = iter(loader)
                self.device = device
            def __next__(self):
                x, y = next(self.iter)
                inputs = {"x_src": x, "y_src": y, "z": torch.randn(x.size(0), 16)}
                return {k: v.to(self.device) for k, v in inputs.items()}
      `;
      const result = await lintInMemory({ "solver.py": solver, "core/__init__.py": "", "core/data_loader.py": dataLoader });
      const findings = result("core/data_loader.py").findings;
      assert.deepStrictEqual(findings.map((finding) => [finding.rule, finding.line]), [["blocking-host-to-device", 10]]);
      assert.match(findings[0].message, /in `InputFetcher\.__next__\(\)`, which `\.\.\/solver\.py` calls at line 6 in the step loop of `train\(\)`/);
    });

    it("reports a loader without pin_memory that a function returns to another file, which moves its batches to the GPU; not a pinned one, one returned to a file that does not move its batches, or one not returned", async () => {
      const data = py`
        import torch
        from torch.utils.data import DataLoader
        def get_loader(dataset, batch_size):
            data_loader = DataLoader(dataset=dataset, batch_size=batch_size, num_workers=2)
            return data_loader
        def get_pinned_loader(dataset):
            return DataLoader(dataset, pin_memory=True)
        def get_eval_loader(dataset):
            return DataLoader(dataset, batch_size=8)
        def count(dataset):
            loader = DataLoader(dataset, batch_size=8)
            return len(loader)
      `;
      const train = py`
        import torch
        from data import get_loader, get_pinned_loader, get_eval_loader, count
        def main(model, optimizer, dataset, device):
            data_loader = get_loader(dataset, 64)
            pinned_loader = get_pinned_loader(dataset)
            eval_loader = get_eval_loader(dataset)
            steps = count(dataset)
            for images, labels in data_loader:
                images = images.to(device, non_blocking=True)
                model(images).mean().backward()
                optimizer.step()
            for images, labels in pinned_loader:
                model(images.to(device, non_blocking=True))
            for images, labels in eval_loader:
                print(images.shape)
      `;
      const links = linksOf(train, "train.py");
      assert.deepStrictEqual(links.loaders, [{ target: "data.get_loader", line: 4, movedAt: 9 }, { target: "data.get_pinned_loader", line: 5, movedAt: 13 }]);
      const result = await lintInMemory({ "data.py": data, "train.py": train });
      const findings = result("data.py").findings.filter((finding) => finding.rule === "dataloader-pin-memory");
      assert.deepStrictEqual(findings.map((finding) => finding.line), [4]);
      assert.match(findings[0].message, /`get_loader\(\)` returns it, and `train\.py` calls it at line 4 and moves the loader's batches to the GPU at line 9/);
      // Alone, the module moves nothing.
      assert.deepStrictEqual(lintSource(data, { filePath: at("data.py") }).findings, []);
    });

    it("reports a loader returned to a script that imports its module from a folder it puts on `sys.path` (RAFT's `sys.path.append('core')`, `import datasets`)", async () => {
      const data = py`
        from torch.utils import data
        def fetch_dataloader(args, train_dataset):
            train_loader = data.DataLoader(train_dataset, batch_size=args.batch_size, pin_memory=False, shuffle=True)
            return train_loader
      `;
      const train = py`
        import sys
        sys.path.append('core')
        import torch
        import datasets
        def train(args, model, optimizer, dataset):
            train_loader = datasets.fetch_dataloader(args, dataset)
            for i_batch, data_blob in enumerate(train_loader):
                image1, image2, flow, valid = [x.cuda(non_blocking=True) for x in data_blob]
                model(image1, image2).mean().backward()
                optimizer.step()
      `;
      const result = await lintInMemory({ "core/datasets.py": data, "train.py": train });
      assert.deepStrictEqual(result("core/datasets.py").findings.map((finding) => `${finding.line} ${finding.rule}`), ["3 dataloader-pin-memory"]);
      // Without the folder on `sys.path`, `import datasets` is another package (Hugging Face's, say).
      const elsewhere = await lintInMemory({ "core/datasets.py": data, "train.py": train.replace("sys.path.append('core')\n", "") });
      assert.deepStrictEqual(elsewhere("core/datasets.py").findings, []);
    });

    it("follows a chain of calls across three files", async () => {
      const result = await lintInMemory({
        "train.py": py`
          import torch
          from steps import forward_backward


          def train(model, loader, optimizer):
              for batch in loader:
                  forward_backward(model, batch.cuda())
                  optimizer.step()
        `,
        "steps.py": py`
          from metrics import record


          def forward_backward(model, batch):
              loss = model(batch).mean()
              loss.backward()
              record(loss)
        `,
        "metrics.py": py`
          import torch


          def record(loss):
              print(loss.item())
        `,
      });
      const [finding] = result("metrics.py").findings;
      assert.strictEqual(finding?.rule, "item-in-hot-path");
      assert.match(finding.message, /in `record\(\)`, which `steps\.py` calls at line 7 in `forward_backward\(\)`, which `train\.py` calls at line 7 in the step loop of `train\(\)` \(line 6\)/);
    });

    it("follows what a factory of another file returns (an instance of its class) to the class's methods, through a local kept on self", async () => {
      const model = py`
        import torch.nn as nn
        from .loss import make_loss_evaluator, make_postprocessor


        class Detector(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                loss_evaluator = make_loss_evaluator(cfg)
                self.loss_evaluator = loss_evaluator
                self.post = make_postprocessor(cfg)

            def forward(self, x, targets):
                return self.loss_evaluator(x, targets) + self.post.scale(x)
      `;
      const loss = py`
        import torch


        class LossComputation:
            def __init__(self, cfg):
                self.cfg = cfg

            def __call__(self, x, targets):
                positive = torch.nonzero(targets > 0).squeeze(1)
                return x[positive].sum()


        class PostProcessor:
            def scale(self, x):
                return x * x.max().item()


        def make_loss_evaluator(cfg):
            evaluator = LossComputation(cfg)
            return evaluator


        def make_postprocessor(cfg):
            return PostProcessor()
      `;
      const result = await lintInMemory({ "models/__init__.py": "", "models/detector.py": model, "models/loss.py": loss });
      const findings = result("models/loss.py").findings;
      assert.deepStrictEqual(findings.map((finding) => [finding.rule, finding.line]), [["data-dependent-shape", 9], ["item-in-hot-path", 15]]);
      assert.match(findings[0].message, /in `LossComputation\.__call__\(\)`, which `detector\.py` calls at line 13 in `Detector\.forward\(\)`/);
    });

    it("makes a property of another file's class hot where a hot path reads it, and not a method read without a call", async () => {
      const result = await lintInMemory({
        "train.py": py`
          import torch
          from meters import AverageMeter


          def train(model, loader, optimizer, callbacks):
              loss_meter = AverageMeter()
              for batch in loader:
                  loss = model(batch.cuda(non_blocking=True)).mean()
                  loss.backward()
                  optimizer.step()
                  loss_meter.update(loss.detach())
                  callbacks.append(loss_meter.summary)
                  print(loss_meter.avg)
        `,
        "meters.py": py`
          import torch


          class AverageMeter:
              def __init__(self):
                  self.sum = 0
                  self.count = 0

              def update(self, value):
                  self.sum += value
                  self.count += 1

              def summary(self):
                  return self.sum.item()

              @property
              def avg(self):
                  return self.sum.item() / self.count
        `,
      });
      const findings = result("meters.py").findings;
      assert.deepStrictEqual(findings.map((finding) => [finding.rule, finding.line]), [["item-in-hot-path", 18]]);
      assert.match(findings[0].message, /in `AverageMeter\.avg\(\)`, which `train\.py` calls at line 13 in the step loop of `train\(\)`/);
    });

    it("makes a method that a class inherits hot where it is defined", async () => {
      const result = await lintInMemory({
        "train.py": py`
          import torch
          from resample import UniformSampler


          def train(model, loader, optimizer, device, sampler=None):
              sampler = sampler or UniformSampler()
              for batch in loader:
                  batch = batch.to(device, non_blocking=True)
                  t = sampler.sample(batch.shape[0])
                  model(batch, t).mean().backward()
                  optimizer.step()
        `,
        "resample.py": py`
          import numpy as np
          import torch


          class Sampler:
              def sample(self, n):
                  return torch.from_numpy(np.ones(n)).to("cuda")


          class UniformSampler(Sampler):
              pass
        `,
      });
      const [finding] = result("resample.py").findings;
      assert.strictEqual(finding?.rule, "blocking-host-to-device");
      assert.match(finding.message, /in `Sampler\.sample\(\)`, which `train\.py` calls at line 9 in the step loop of `train\(\)` \(line 7\)/);
    });

    it("a branch for tensors (`if isinstance(v, torch.Tensor):`) is not hot when every hot caller passes numbers", async () => {
      const engine = (extra: string) => py`
        import torch
        import util.misc as utils


        def train_one_epoch(model, loader, optimizer, device):
            logger = utils.MetricLogger()
            for samples in loader:
                loss = model(samples.to(device, non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                logger.update(loss=loss.item(), lr=optimizer.param_groups[0]["lr"])
                ${extra}
      `;
      const numbers = await lintInMemory({ "engine.py": engine("logger.update(count=3)"), "util/__init__.py": "", "util/misc.py": MISC });
      assert.deepStrictEqual(numbers("util/misc.py").findings.map((f) => f.line), []);
      const tensors = await lintInMemory({ "engine.py": engine("logger.update(**losses)"), "util/__init__.py": "", "util/misc.py": MISC });
      assert.deepStrictEqual(tensors("util/misc.py").findings.map((f) => f.line), [8]);
    });

    it("a helper that a package re-exports with `from .dist import *` is hot where its module defines it", async () => {
      const result = await lintInMemory({
        "evaluate.py": py`
          import torch
          from utils import time_synchronized
          def evaluate(model, loader):
              for imgs in loader:
                  start = time_synchronized()
                  outputs = model(imgs.cuda(non_blocking=True))
        `,
        "utils/__init__.py": "from .dist import *\n",
        "utils/dist.py": py`
          import time
          import torch
          def time_synchronized():
              torch.cuda.synchronize()
              return time.time()
        `,
      });
      assert.deepStrictEqual(result("utils/dist.py").findings.map((finding) => [finding.rule, finding.line]), [["explicit-synchronize", 4]]);
    });

    it("does not make a function with a step loop of its own hot: its caller's loop runs it once per pass", async () => {
      const result = await lintInMemory({
        "main.py": py`
          from engine import train


          def main(model, loader, optimizer):
              for batch in loader:
                  model(batch).mean().backward()
                  optimizer.step()
                  train(model, loader, optimizer)
        `,
        "engine.py": py`
          import torch


          def train(model, loader, optimizer):
              total = torch.zeros(1, device="cuda")
              for batch in loader:
                  loss = model(batch).mean()
                  loss.backward()
                  optimizer.step()
                  total += loss.detach()
              print(total.item())
        `,
      });
      assert.deepStrictEqual(result("engine.py").findings, []);
    });

    it("assumes a GPU in the callee when the caller's site may (a helper module that never names a device)", async () => {
      const helper = py`
        import torch


        def total(x: torch.Tensor):
            return float(x.sum())
      `;
      const onGpu = await lintInMemory({
        "train.py": py`
          import torch
          from helper import total


          def train(model, loader, optimizer, device):
              for x in loader:
                  x = x.to(device, non_blocking=True)
                  model(x).mean().backward()
                  optimizer.step()
                  total(x)
        `,
        "helper.py": helper,
      });
      assert.deepStrictEqual(onGpu("helper.py").findings.map((finding) => finding.rule), ["implicit-host-read"]);
      const onHost = await lintInMemory({
        "train.py": py`
          import torch
          from helper import total


          def train(model, loader, optimizer):
              for x in loader:
                  model(x).mean().backward()
                  optimizer.step()
                  total(x)
        `,
        "helper.py": helper,
      });
      assert.deepStrictEqual(onHost("helper.py").findings, []);
    });

    it("what the file's own calls pass (a dataset's CPU audio) says nothing of a hot caller in another file: the callee's copies to the input's device count", async () => {
      const result = await lintInMemory({
        "train.py": py`
          import torch
          from meldataset import mel_spectrogram


          def train(generator, loader, optimizer, device):
              for x in loader:
                  y = generator(x.to(device, non_blocking=True))
                  loss = (mel_spectrogram(y.squeeze(1)) - 1).abs().mean()
                  loss.backward()
                  optimizer.step()
        `,
        "meldataset.py": py`
          import torch


          def mel_spectrogram(y, n_fft=1024):
              window = torch.hann_window(n_fft).to(y.device)
              return torch.stft(y, n_fft, window=window, return_complex=True).abs()


          class MelDataset(torch.utils.data.Dataset):
              def __getitem__(self, index):
                  audio = torch.FloatTensor(self.audio[index])
                  return mel_spectrogram(audio)
        `,
      });
      assert.deepStrictEqual(result("meldataset.py").findings.map((finding) => [finding.line, finding.rule]), [[5, "blocking-host-to-device"]]);
      // Linted alone, the dataset's call is all the file says: the audio, and the window's device, are the CPU's.
      assert.deepStrictEqual(lintSource(result("meldataset.py").source.text, { filePath: at("meldataset.py") }).findings, []);
    });

    it("what the one hot caller in another file passes in host memory (`labels=labels.cpu()`, a `.numpy()` array) is host data in the callee; what it passes on the GPU still syncs there (SlowFast's wrong-prediction visualizer)", async () => {
      const result = await lintInMemory({
        "tools/vis.py": py`
          import torch
          from vislib.prediction import WrongPredictionVis


          def run(model, loader, cfg):
              vis = WrongPredictionVis(cfg)
              for inputs, labels in loader:
                  if cfg.NUM_GPUS:
                      inputs = inputs.cuda(non_blocking=True)
                      labels = labels.cuda(non_blocking=True)
                  preds = model(inputs)
                  if cfg.NUM_GPUS:
                      labels = labels.cpu()
                      preds = preds.cpu()
                  vis.visualize(preds.detach().clone(), labels=labels, scores=preds.numpy())
                  vis.visualize_gpu(model(inputs))
        `,
        "vislib/prediction.py": py`
          import torch


          class WrongPredictionVis:
              def visualize(self, preds, labels, scores):
                  mask = preds.argmax(-1) != labels
                  for index in torch.squeeze(mask.nonzero(), dim=-1):
                      print(f"{index}: {scores[index]}")
                  return preds.max().item()

              def visualize_gpu(self, preds):
                  return preds.max().item()
        `,
      });
      assert.deepStrictEqual(result("vislib/prediction.py").findings.map((finding) => [finding.line, finding.rule]), [[12, "item-in-hot-path"]]);
      assert.deepStrictEqual(result("tools/vis.py").findings.map((finding) => [finding.line, finding.rule]), [[13, "host-transfer-in-hot-path"], [14, "host-transfer-in-hot-path"]]);
    });

    it("what every hot call from another file passes on the GPU (`compute_loss(pred, targets.to(device))`) is a GPU tensor in the callee, so its boolean masks read the GPU; host data passed there reads nothing (YOLOv7's OTA loss)", async () => {
      const loss = py`
        import torch


        class ComputeLoss:
            def __call__(self, p, targets):
                total = 0
                for batch_index in range(p.shape[0]):
                    this_target = targets[targets[:, 0] == batch_index]
                    total = total + (p[batch_index] * len(this_target)).sum()
                return total
      `;
      const train = (argument: string) => py`
        import torch
        from utils.loss import ComputeLoss


        def train(model, loader, optimizer, device):
            compute_loss = ComputeLoss()
            for imgs, targets in loader:
                pred = model(imgs.to(device, non_blocking=True))
                loss = compute_loss(pred, ${argument})
                loss.backward()
                optimizer.step()
      `;
      const onGpu = await lintInMemory({ "train.py": train("targets.to(device, non_blocking=True)"), "utils/loss.py": loss });
      assert.deepStrictEqual(onGpu("utils/loss.py").findings.map((finding) => [finding.line, finding.rule]), [[8, "data-dependent-shape"]]);
      const onHost = await lintInMemory({ "train.py": train("targets"), "utils/loss.py": loss });
      assert.deepStrictEqual(onHost("utils/loss.py").findings, []);
    });

    it("a GPU tensor that one hot caller passes, where the others' values are unknown, is on the GPU in the callee: its boolean masks read the GPU on that caller's path; a caller that passes host data leaves it unknown (YOLOv5's non_max_suppression)", async () => {
      const general = py`
        import torch

        def non_max_suppression(prediction, conf_thres=0.25):
            xc = prediction[..., 4] > conf_thres
            return prediction[xc]
      `;
      const caller = (prediction: string) => py`
        import torch
        from tools import postprocess
        from utils.general import non_max_suppression

        def run(model, loader, device):
            for im, _ in loader:
                pred = ${prediction}
                pred = non_max_suppression(pred)
      `;
      const detect = caller("model(im.to(device, non_blocking=True))");
      const unknown = await lintInMemory({ "detect.py": detect, "val.py": caller("postprocess(model, im)"), "utils/general.py": general });
      assert.deepStrictEqual(unknown("utils/general.py").findings.map((finding) => [finding.line, finding.rule]), [[5, "data-dependent-shape"]]);
      assert.match(unknown("utils/general.py").findings[0].message, /`prediction\[xc\]`/);
      const onHost = await lintInMemory({ "detect.py": detect, "val.py": caller("model(im.to(device, non_blocking=True)).cpu()"), "utils/general.py": general });
      assert.deepStrictEqual(onHost("utils/general.py").findings, []);
    });

    it("an option an object keeps from its construction (`self.gr, self.autobalance = 1.0, autobalance`, then `if self.autobalance:`) settles the branch when every construction in the project passes the same literal or leaves the default, and the hot caller constructs the instance (YOLOv5's ComputeLoss)", async () => {
      const loss = py`
        import torch

        class ComputeLoss:
            def __init__(self, model, autobalance=False):
                self.gr, self.autobalance = 1.0, autobalance
                self.balance = [4.0, 1.0, 0.4]
                for k in "na", "nc":
                    setattr(self, k, getattr(model, k))

            def __call__(self, p, targets):
                total = torch.zeros(1, device=targets.device)
                for i, pi in enumerate(p):
                    obji = pi.sum()
                    total += obji
                    if self.autobalance:
                        self.balance[i] = self.balance[i] * 0.9999 + 0.0001 / obji.detach().item()
                return total
      `;
      const train = (construction: string) => py`
        import torch
        from utils.loss import ComputeLoss

        def train(model, loader, optimizer, device, opt):
            compute_loss = ${construction}
            for imgs, targets in loader:
                pred = model(imgs.to(device, non_blocking=True))
                loss = compute_loss(pred, targets.to(device, non_blocking=True))
                loss.backward()
                optimizer.step()
      `;
      const lines = (result: (name: string) => LintResult) => result("utils/loss.py").findings.map((finding) => finding.line);
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model)"), "utils/loss.py": loss })), []);
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model, autobalance=False)"), "utils/loss.py": loss })), []);
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model, autobalance=True)"), "utils/loss.py": loss })), [16]);
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model, opt.autobalance)"), "utils/loss.py": loss })), [16]);
      // Another construction elsewhere, even off the hot path, may set it.
      const other = py`
        from utils.loss import ComputeLoss

        def make(model):
            return ComputeLoss(model, autobalance=True)
      `;
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model)"), "tools/other.py": other, "utils/loss.py": loss })), [16]);
      // An attribute that the file also sets elsewhere is no option of the construction.
      const reset = loss.replace("        return total", "        self.autobalance = True\n        return total");
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model)"), "utils/loss.py": reset })), [16]);
      const anyAttribute = loss.replace('for k in "na", "nc":', "for k in model.names:");
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model)"), "utils/loss.py": anyAttribute })), [16]);
      // The caller sets the option on its instance itself (a comment that does so counts for nothing).
      const setsIt = train("ComputeLoss(model)").replace("    for imgs, targets in loader:", "    compute_loss.autobalance = opt.autobalance\n    for imgs, targets in loader:");
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": setsIt, "utils/loss.py": loss })), [16]);
      const commented = train("ComputeLoss(model)").replace("    for imgs, targets in loader:", "    # compute_loss.autobalance = True\n    for imgs, targets in loader:");
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": commented, "utils/loss.py": loss })), []);
      // A subclass in another file may construct it otherwise.
      const subclass = py`
        from utils.loss import ComputeLoss

        class BalancedLoss(ComputeLoss):
            pass
      `;
      assert.deepStrictEqual(lines(await lintInMemory({ "train.py": train("ComputeLoss(model)"), "tools/balanced.py": subclass, "utils/loss.py": loss })), [16]);
    });

    it("a class whose methods run hot on instances no construction of the project makes (a library's callback, run by its trainer's hooks) keeps its options' branches, whatever the project's own constructions pass", async () => {
      const callback = py`
        import torch
        from lightning.pytorch.callbacks import Callback

        class Checkpoint(Callback):
            def __init__(self, monitor=None):
                self.monitor = monitor

            def on_train_batch_end(self, trainer, outputs):
                if self.monitor:
                    torch.cuda.synchronize()
      `;
      const connector = py`
        from callbacks.checkpoint import Checkpoint

        def default_callbacks():
            return [Checkpoint()]
      `;
      const result = await lintInMemory({ "callbacks/checkpoint.py": callback, "trainer/connector.py": connector });
      assert.deepStrictEqual(result("callbacks/checkpoint.py").findings.map((finding) => [finding.line, finding.rule]), [[10, "explicit-synchronize"]]);
    });

    it("what every hot caller passes alike settles a branch, as one caller's would: two scripts that leave `classes` at `None` never build its tensor; one that passes it does (PyTorch-YOLOv3's non_max_suppression)", async () => {
      const general = py`
        import torch

        def non_max_suppression(prediction, conf_thres=0.25, classes=None):
            output = []
            for x in prediction:
                if classes is not None:
                    x = x[(x[:, 5:6] == torch.tensor(classes, device=x.device)).any(1)]
                output.append(x)
            return output
      `;
      const script = (call: string) => py`
        import torch
        from utils.general import non_max_suppression

        def run(model, loader, device):
            for im, _ in loader:
                pred = model(im.to(device, non_blocking=True))
                pred = ${call}
      `;
      const lines = (result: (name: string) => LintResult) => result("utils/general.py").findings.map((finding) => [finding.line, finding.rule]);
      const defaults = await lintInMemory({ "detect.py": script("non_max_suppression(pred, 0.5)"), "test.py": script("non_max_suppression(pred, conf_thres=0.1)"), "utils/general.py": general });
      assert.deepStrictEqual(lines(defaults), []);
      const passed = await lintInMemory({ "detect.py": script("non_max_suppression(pred, 0.5)"), "test.py": script("non_max_suppression(pred, classes=[0])"), "utils/general.py": general });
      // The tensor of classes, and the mask its comparison reduces to (`.any(1)`), selecting through `nonzero`.
      assert.deepStrictEqual(lines(passed), [[7, "data-dependent-shape"], [7, "blocking-host-to-device"]]);
    });

    it("a method a class inherits from a base class of another file (`class LlavaLlamaForCausalLM(LlamaForCausalLM, LlavaMetaForCausalLM)`, then `self.prepare_inputs(...)` in `forward`) runs on every forward pass where that file defines it (LLaVA's multimodal input preparation)", async () => {
      const result = await lintInMemory({
        "llava/model/llava_llama.py": py`
          import torch
          from transformers import LlamaForCausalLM
          from .llava_arch import LlavaMetaForCausalLM


          class LlavaLlamaForCausalLM(LlamaForCausalLM, LlavaMetaForCausalLM):
              def forward(self, input_ids, attention_mask, images):
                  inputs_embeds = self.prepare_inputs(input_ids, attention_mask, images)
                  return self.run(inputs_embeds)
        `,
        "llava/model/llava_arch.py": py`
          import torch


          class LlavaMetaForCausalLM:
              def prepare_inputs(self, input_ids, attention_mask, images):
                  images = images.to(device=self.device, non_blocking=True)
                  embeds = []
                  for ids, mask in zip(input_ids, attention_mask):
                      embeds.append(self.embed_tokens(ids[mask.bool()]))
                  return torch.cat(embeds)

              def run(self, inputs_embeds):
                  return inputs_embeds.sum().item()
        `,
      });
      const arch = result("llava/model/llava_arch.py").findings;
      assert.deepStrictEqual(arch.map((finding) => [finding.line, finding.rule]), [[9, "data-dependent-shape"], [13, "item-in-hot-path"]]);
      assert.match(arch[0].message, /which `llava_llama\.py` calls at line 8 in `LlavaLlamaForCausalLM\.forward\(\)`/);
    });

    describe("options that another file's parser defines (CenterNet's `opts.py`, monodepth2's `options.py`)", () => {
      const OPTS = py`
        import argparse
        class opts(object):
            def __init__(self):
                self.parser = argparse.ArgumentParser()
                self.parser.add_argument("--eval_oracle_wh", action="store_true", help="use ground truth width and height")
                self.parser.add_argument("--mse_loss", action="store_true")
            def parse(self, args=""):
                opt = self.parser.parse_args(args)
                opt.mse_loss = opt.mse_loss or False
                return opt
      `;
      const MAIN = py`
        import torch
        from opts import opts
        from trains.trainer import train
        if __name__ == "__main__":
            train(opts().parse(), torch.nn.Linear(2, 2).cuda(), [])
      `;
      const TRAINER = py`
        import torch
        def train(opt, model, loader):
            for batch in loader:
                output = model(batch["input"].cuda(non_blocking=True))
                if opt.eval_oracle_wh:
                    print(output.detach().cpu().numpy())
                if opt.mse_loss:
                    print(output.sum().item())
                loss = output.mean()
                loss.backward()
      `;
      const lines = (result: LintResult) => result.findings.map((finding) => finding.line);

      it("links list the options a file sets on an options object (`opt.flip = True`, `self.args.lr *= 2`), not on another object or in a comparison, and `*` for `vars(args).update(...)`; and the options it tests without defining", () => {
        const links = linksOf(py`
          import torch
          def setup(opt, self, model):
              opt.flip = True
              self.args.lr *= 2
              myopt.scale = 3
              model.opt_level = 1
              if opt.debug == 4 or not self.opt.verbose:
                  pass
              x = opt.unused
        `);
        assert.deepStrictEqual(links.optionsSet, ["flip", "lr"]);
        assert.deepStrictEqual(links.optionsTested, ["debug", "verbose"]);
        assert.deepStrictEqual(linksOf("def merge(args, cfg):\n    vars(args).update(cfg)\n").optionsSet, ["*"]);
        assert.deepStrictEqual(linksOf("def merge(model, cfg):\n    vars(model).update(cfg)\n    setattr(model, 'x', 1)\n").optionsSet, undefined);
      });

      it("a branch on such an option whose default fails its test does not run by default, in a file that a script parsing the options imports, and the reason names the file", async () => {
        const result = await lintInMemory({ "main.py": MAIN, "opts.py": OPTS, "trains/__init__.py": "", "trains/trainer.py": TRAINER });
        // `--mse_loss` is set in code (`opt.mse_loss = ...`): its default says nothing.
        assert.deepStrictEqual(lines(result("trains/trainer.py")), [8]);
        assert.deepStrictEqual(lines(lintSource(TRAINER, { filePath: at("trains/trainer.py") })), [6, 8], "alone, the file knows no option");
        const links = linksOf(TRAINER, "trains/trainer.py");
        assert.deepStrictEqual(links.optionsTested, ["eval_oracle_wh", "mse_loss"]);
        const entries = hotEntriesOf(new Map([[at("opts.py"), linksOf(OPTS, "opts.py")], [at("main.py"), linksOf(MAIN, "main.py")], [at("trains/trainer.py"), links]]), new ProjectModules([at("opts.py"), at("main.py"), at("trains/trainer.py")]));
        const option = entries.get(at("trains/trainer.py"))?.["--eval_oracle_wh"];
        assert.ok(option && "option" in option);
        const syntax = parseSyntaxTree(TRAINER);
        const analysis = new FileAnalysis(syntax, new SourceText(TRAINER), { hotEntries: entries.get(at("trains/trainer.py")) });
        const cpu = TRAINER.indexOf("print(output.detach()");
        let print = syntax.root;
        for (let inside = print.children.find((child) => child.start <= cpu && cpu < child.end); inside; inside = print.children.find((child) => child.start <= cpu && cpu < child.end)) print = inside;
        assert.match(analysis.hotPaths.neverRunsByDefault(print)!, /depends on the option `--eval_oracle_wh`, which defaults to `False` \(`\.\.\/opts\.py` line 5\)/);
      });

      it("read through `getattr(opt, \"name\", default)`, or kept in a name that a branch tests (`use = getattr(opt, ...) and opt.distributed`, then `if use:`)", async () => {
        const trainer = py`
          import torch
          def train(opt, model, loader):
              use_oracle = getattr(opt, "eval_oracle_wh", False) and opt.distributed
              for batch in loader:
                  output = model(batch["input"].cuda(non_blocking=True))
                  if use_oracle:
                      print(output.detach().cpu().numpy())
                  if getattr(opt, "mse_loss", False):
                      print(output.sum().item())
                  loss = output.mean()
                  loss.backward()
        `;
        assert.deepStrictEqual(linksOf(trainer, "trains/trainer.py").optionsTested, ["distributed", "eval_oracle_wh", "mse_loss"]);
        const result = await lintInMemory({ "main.py": MAIN, "opts.py": OPTS, "trains/__init__.py": "", "trains/trainer.py": trainer });
        // `--mse_loss` is set in code: its branch stays.
        assert.deepStrictEqual(lines(result("trains/trainer.py")), [9]);
        const aliasOr = await lintInMemory({ "main.py": MAIN, "opts.py": OPTS, "trains/__init__.py": "", "trains/trainer.py": trainer.replace("False) and opt.distributed", "False) or opt.distributed") });
        assert.deepStrictEqual(lines(aliasOr("trains/trainer.py")), [7, 9], "`or` another option: the name may hold");
      });

      it("a write that only turns an option off (`opt.fsdp = False` where FSDP cannot run) keeps an option that is off by default at its default, not one that is on", async () => {
        const downgrade = MAIN.replace("if __name__", "def downgrade(opt):\n    opt.eval_oracle_wh = False\nif __name__");
        assert.deepStrictEqual(linksOf(downgrade, "main.py").optionsCleared, ["eval_oracle_wh"]);
        assert.deepStrictEqual(linksOf(downgrade, "main.py").optionsSet, undefined);
        const off = await lintInMemory({ "main.py": downgrade, "opts.py": OPTS, "trains/__init__.py": "", "trains/trainer.py": TRAINER });
        assert.deepStrictEqual(lines(off("trains/trainer.py")), [8]);
        const onByDefault = OPTS.replace('"--eval_oracle_wh", action="store_true"', '"--eval_oracle_wh", action="store_false"');
        const trainer = TRAINER.replace("if opt.eval_oracle_wh:", "if not opt.eval_oracle_wh:");
        assert.deepStrictEqual(lines((await lintInMemory({ "main.py": MAIN, "opts.py": onByDefault, "trains/__init__.py": "", "trains/trainer.py": trainer }))("trains/trainer.py")), [8]);
        assert.deepStrictEqual(lines((await lintInMemory({ "main.py": downgrade, "opts.py": onByDefault, "trains/__init__.py": "", "trains/trainer.py": trainer }))("trains/trainer.py")), [6, 8]);
      });

      it("found through an import that resolves only at run time (`import _init_paths`, then `from opts import opts` of `lib/`)", async () => {
        const main = MAIN.replace("import torch\n", "import torch\nimport _init_paths\n");
        const result = await lintInMemory({ "tools/main.py": main, "tools/_init_paths.py": "import sys\nsys.path.insert(0, LIB)\n", "lib/opts.py": OPTS, "lib/trains/__init__.py": "", "lib/trains/trainer.py": TRAINER });
        assert.deepStrictEqual(lines(result("lib/trains/trainer.py")), [8]);
      });

      it("keeps the branch when the script that runs the file does not parse the option (another example of a collection defines one of that name), or a file sets it, or may set any", async () => {
        const unrelated = await lintInMemory({ "detection/main.py": MAIN.replace("from opts import opts\n", "from argparse import Namespace as opts\n"), "detection/trains/__init__.py": "", "detection/trains/trainer.py": TRAINER, "mnist/opts.py": OPTS });
        assert.deepStrictEqual(lines(unrelated("detection/trains/trainer.py")), [6, 8]);
        const setElsewhere = await lintInMemory({ "main.py": MAIN.replace("if __name__", "opt = opts().parse()\nopt.eval_oracle_wh = True\nif __name__"), "opts.py": OPTS, "trains/__init__.py": "", "trains/trainer.py": TRAINER });
        assert.deepStrictEqual(lines(setElsewhere("trains/trainer.py")), [6, 8]);
        const fromConfig = await lintInMemory({ "main.py": MAIN, "opts.py": OPTS, "config.py": "def merge(opt, config):\n    for key, value in config.items():\n        setattr(opt, key, value)\n", "trains/__init__.py": "", "trains/trainer.py": TRAINER });
        assert.deepStrictEqual(lines(fromConfig("trains/trainer.py")), [6, 8]);
        const disagree = await lintInMemory({ "main.py": MAIN, "opts.py": OPTS, "test.py": "import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--eval_oracle_wh', default=True)\n", "trains/__init__.py": "", "trains/trainer.py": TRAINER });
        assert.deepStrictEqual(lines(disagree("trains/trainer.py")), [6, 8]);
      });
    });

    it("keeps a local caller's context before another file's, and a file's analysis without entries unchanged", () => {
      const code = py`
        import torch


        def log(x):
            return x.item()


        def train(model, loader, optimizer):
            for batch in loader:
                loss = model(batch).mean()
                loss.backward()
                optimizer.step()
                log(loss)
      `;
      const entries: HotEntries = { log: { where: "which `other.py` calls at line 3 in the step loop of `main()` (line 2)", frequency: "every step", reason: "r", gpu: true } };
      const syntax = parseSyntaxTree(code);
      const source = new SourceText(code);
      const log = syntax.root.children[1];
      const withEntries = new FileAnalysis(syntax, source, { hotEntries: entries }).hotPaths.functionContext(log);
      assert.match(withEntries.where, /called at line 13 in the step loop of `train\(\)`/);
      const unusedEntry = new FileAnalysis(syntax, source, { hotEntries: { "train.x": entries.log } }).hotPaths.functionContext(syntax.root.children[2]);
      assert.strictEqual(unusedEntry.hot, false);
    });
  });
});
