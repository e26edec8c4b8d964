/**
 * Classes the project never uses (`class-names.ts`): what a file says of the names it holds, which modules it
 * imports, and `lintProject` taking the `forward` of a class nothing names for code that does not run, in a
 * module the project loads, and only when the files are known to be the whole project.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { initParser, lintProject, lintSource, parseSyntaxTree } from "synclint-rules";
import type { HotEntries, LintResult } from "synclint-rules";
import { importedModules, namesOfClasses } from "synclint-rules/out/analysis/class-names";
import { projectNamingFiles, textsOf } from "synclint-rules/out/cli/files";
import { analyse, findNode, py } from "../helpers";

const ROOT = path.resolve(path.sep, "project");
const at = (name: string) => path.join(ROOT, ...name.split("/"));

async function lintInMemory(files: Record<string, string>, namedOutside?: ReadonlySet<string>): Promise<(name: string) => LintResult> {
  const byPath = new Map(Object.entries(files).map(([name, code]) => [at(name), code]));
  const results = await lintProject(
    [...byPath.keys()],
    async (requests) => new Map(requests.map(({ file, entries }) => [file, lintSource(byPath.get(file)!, { filePath: file, hotEntries: entries, linkModules: true })])),
    namedOutside && { names: namedOutside, deviceMentioned: false },
  );
  return (name) => results.get(at(name))!;
}

const NETS = py`
  import torch
  import torch.nn as nn


  class Net(nn.Module):
      def forward(self, x):
          if x.sum() > 0:
              x = -x
          return x


  class OldNet(nn.Module):
      """Replaced by Net."""

      def __init__(self):
          super(OldNet, self).__init__()
          self.head = Head()

      def forward(self, x):
          return self.head(x).item()


  class Head(nn.Module):
      def forward(self, x):
          return x[x > 0]
`;

const TRAIN = py`
  import torch
  from models.nets import Net


  def train(loader, optimizer):
      model = Net().cuda()
      for batch in loader:
          model(batch.cuda(non_blocking=True)).mean().backward()
          optimizer.step()
`;

const rulesAndLines = (result: LintResult) => result.findings.map((finding) => [finding.rule, finding.line]);

describe("classes the project never uses", () => {
  before(() => initParser());

  describe("namesOfClasses", () => {
    it("keeps each class's names apart, leaves out its mentions of itself, and takes no decorated, duplicated or lower-case class", () => {
      const code = py`
        import torch.nn as nn
        from .registry import MODELS

        __all__ = ["Exported"]


        class Exported(nn.Module):
            """Exported is built by name."""

            def __init__(self):
                super(Exported, self).__init__()
                self.block = Block()


        class Block(nn.Module):
            pass


        @MODELS.register_module()
        class Registered(nn.Module):
            def __init__(self):
                self.inner = Inner()


        class Twice:
            pass


        class Twice:
            pass


        class lowercase_net(nn.Module):
            pass
      `;
      const names = namesOfClasses(parseSyntaxTree(code).root, code);
      assert.deepStrictEqual(Object.keys(names.classes), ["Exported", "Block"]);
      // Its bases are in a class's definition: a base class is used if a subclass is.
      assert.deepStrictEqual(names.classes.Exported, ["Block", "Module"]);
      assert.deepStrictEqual(names.classes.Block, ["Module"]);
      // `__all__`'s string names Exported; a decorated class's body counts as used.
      assert.ok(names.names.includes("Exported") && names.names.includes("Inner") && names.names.includes("MODELS"));
      assert.ok(!names.names.includes("Block"));
      assert.deepStrictEqual(names.importedModules, [".registry", ".registry.MODELS"]);
    });

    it("lists the modules a file imports anywhere, lazily too, in every form of import", () => {
      const code = [
        "import os, sgm.util as util",
        "from . import quantize",
        "from ..losses import (",
        "    LPIPS,",
        "    GAN as Gan,",
        ")",
        "from pkg.sub import thing  # a comment",
        "",
        "def build():",
        "    from .heads import Head",
        "    return Head()",
        "",
      ].join("\n");
      assert.deepStrictEqual(importedModules(code).sort(), ["..losses", "..losses.GAN", "..losses.LPIPS", ".heads", ".heads.Head", ".quantize", "os", "pkg.sub", "pkg.sub.thing", "sgm.util"]);
    });

    it("finds the imports that start lines only, however often a line says `import` and wherever the text ends", () => {
      const code = [
        "from pkg.a import b  # import c, then: import d",
        'x = "import e"; import f',
        "from pkg.g import (h,",
        "    i)  # import j",
        "    import k",
        "import_path = 1",
        "import l",
      ].join("\n");
      assert.deepStrictEqual(importedModules(code).sort(), ["k", "l", "pkg.a", "pkg.a.b", "pkg.g", "pkg.g.h", "pkg.g.i"]);
      assert.deepStrictEqual(importedModules("import m"), ["m"]);
      assert.deepStrictEqual(importedModules("x = 1  # no imports here: import"), []);
    });
  });

  describe("lintProject", () => {
    it("does not report the forward of a class nothing names, nor of a class only such a class uses, and says why", async () => {
      const result = await lintInMemory({ "models/__init__.py": "", "models/nets.py": NETS, "train.py": TRAIN }, new Set());
      const nets = result("models/nets.py");
      assert.deepStrictEqual(rulesAndLines(nets), [["implicit-host-read", 7]]);
      // The same files, not known to be the whole project: every forward is hot.
      const alone = await lintInMemory({ "models/__init__.py": "", "models/nets.py": NETS, "train.py": TRAIN });
      assert.deepStrictEqual(rulesAndLines(alone("models/nets.py")), [["implicit-host-read", 7], ["item-in-hot-path", 20], ["data-dependent-shape", 25]]);
    });

    it("takes a class named in a config, a string or another file's code for used, and what it uses too", async () => {
      const inConfig = await lintInMemory({ "models/__init__.py": "", "models/nets.py": NETS, "train.py": TRAIN }, new Set(["OldNet"]));
      assert.deepStrictEqual(rulesAndLines(inConfig("models/nets.py")), [["implicit-host-read", 7], ["item-in-hot-path", 20], ["data-dependent-shape", 25]]);
      const byString = await lintInMemory({ "models/__init__.py": "", "models/nets.py": NETS, "train.py": TRAIN, "build.py": 'import models.nets\n\nMODEL = getattr(models.nets, "Head")\n' }, new Set());
      assert.deepStrictEqual(rulesAndLines(byString("models/nets.py")), [["implicit-host-read", 7], ["data-dependent-shape", 25]]);
    });

    it("takes a class whose name starts with a lower-case word (`aLRPLoss`, YOLOv7's unused `autograd.Function`) for a class too: unused when nothing names it, used when another file does", async () => {
      const loss = py`
        import torch


        class aLRPLoss(torch.autograd.Function):
            @staticmethod
            def forward(ctx, logits, targets):
                if targets.sum().item() == 0:
                    return logits.sum() * 0
                return logits.mean()


        class ComputeLoss:
            def __call__(self, p, targets):
                targets = targets.to(p.device, non_blocking=True)
                return (p - targets).abs().mean()
      `;
      const train = (use: string) => py`
        import torch
        from utils.loss import ComputeLoss${use ? ", aLRPLoss" : ""}


        def train(model, loader, optimizer):
            compute_loss = ComputeLoss()
            for x, y in loader:
                loss = compute_loss(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))${use}
                loss.backward()
                optimizer.step()
      `;
      const unused = await lintInMemory({ "utils/__init__.py": "", "utils/loss.py": loss, "train.py": train("") }, new Set());
      assert.deepStrictEqual(rulesAndLines(unused("utils/loss.py")), []);
      const used = await lintInMemory({ "utils/__init__.py": "", "utils/loss.py": loss, "train.py": train(" + aLRPLoss.apply(x, y)") }, new Set());
      assert.deepStrictEqual(rulesAndLines(used("utils/loss.py")), [["item-in-hot-path", 7]]);
    });

    it("keeps the classes of a module nothing loads (a script, a snippet): they may be used from outside the project", async () => {
      const result = await lintInMemory({ "snippet.py": NETS, "train.py": TRAIN.replace("from models.nets import Net", "from snippet import Net") }, new Set());
      assert.deepStrictEqual(rulesAndLines(result("snippet.py")), [["implicit-host-read", 7]]);
      const notImported = await lintInMemory({ "snippet.py": NETS, "other.py": "import torch\n\n\ndef f(x):\n    return x + 1\n" }, new Set());
      assert.deepStrictEqual(rulesAndLines(notImported("snippet.py")), [["implicit-host-read", 7], ["item-in-hot-path", 20], ["data-dependent-shape", 25]]);
      // Another snippet that builds a `Net` of its own does not load this one.
      const ownNet = py`
        import torch.nn as nn


        class Net(nn.Module):
            def forward(self, x):
                return x


        model = Net()
      `;
      const twoSnippets = await lintInMemory({ "snippet.py": NETS, "other.py": ownNet }, new Set());
      assert.deepStrictEqual(rulesAndLines(twoSnippets("snippet.py")), [["implicit-host-read", 7], ["item-in-hot-path", 20], ["data-dependent-shape", 25]]);
    });

    it("gives the project's reason as the context of an unused class's sites", async () => {
      const files: Record<string, string> = { "models/__init__.py": "from .nets import Net\n", "models/nets.py": NETS, "train.py": TRAIN };
      const given = new Map<string, HotEntries | undefined>();
      await lintProject(
        Object.keys(files).map(at),
        async (requests) =>
          new Map(
            requests.map(({ file, entries }) => {
              given.set(file, entries);
              return [file, lintSource(files[path.relative(ROOT, file).split(path.sep).join("/")], { filePath: file, hotEntries: entries, linkModules: true })];
            }),
          ),
        { names: new Set(), deviceMentioned: false },
      );
      const entries = given.get(at("models/nets.py"));
      assert.deepStrictEqual(entries, { Head: { unreferenced: true }, OldNet: { unreferenced: true } });
      const analysed = analyse(NETS, [], entries);
      const context = analysed.analysis.contextOf(findNode(analysed, "self.head(x).item()"));
      assert.strictEqual(context.hot, false);
      assert.match(context.reason, /no file of the project builds, subclasses, imports or otherwise names `OldNet`/);
      assert.strictEqual(analysed.analysis.contextOf(findNode(analysed, "x.sum() > 0")).hot, true);
    });
  });

  describe("the project's texts (CLI and server)", () => {
    it("reads the names of configs, scripts and Python files under the project root above a linted folder, and none for a file outside any project", () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-names-"));
      try {
        fs.writeFileSync(path.join(root, "pyproject.toml"), "[project]\nname = 'demo'\n");
        fs.mkdirSync(path.join(root, "src"));
        fs.mkdirSync(path.join(root, "configs"));
        fs.mkdirSync(path.join(root, "scripts"));
        fs.writeFileSync(path.join(root, "src", "nets.py"), NETS);
        fs.writeFileSync(path.join(root, "configs", "model.yaml"), "model:\n  target: src.nets.OldNet\n");
        fs.writeFileSync(path.join(root, "scripts", "run.sh"), "python train.py --head Head\n");
        fs.writeFileSync(path.join(root, "scripts", "train.py"), "from src.nets import Net\n");
        fs.writeFileSync(path.join(root, "data.bin"), "NotAName");
        const files = projectNamingFiles([path.join(root, "src")])!;
        assert.deepStrictEqual(files.map((file) => path.relative(root, file).split(path.sep).join("/")), ["configs/model.yaml", "pyproject.toml", "scripts/run.sh", "scripts/train.py", "src/nets.py"]);
        const { names, deviceMentioned } = textsOf(files.filter((file) => !file.endsWith("nets.py")));
        assert.ok(names.has("OldNet") && names.has("Head") && names.has("Net"));
        assert.ok(!names.has("NotAName"));
        assert.strictEqual(deviceMentioned, false);
        fs.writeFileSync(path.join(root, "README.md"), "Trains in a day on 8 GPUs.\n");
        assert.strictEqual(textsOf([...files, path.join(root, "README.md")].filter((file) => !file.endsWith("nets.py"))).deviceMentioned, true);
        const outside = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-lone-"));
        fs.writeFileSync(path.join(outside, "lone.py"), NETS);
        // A file given alone, with no project root above it, is no project; a folder is its own root.
        assert.strictEqual(projectNamingFiles([path.join(outside, "lone.py")]), undefined);
        assert.deepStrictEqual(projectNamingFiles([outside]), [path.join(outside, "lone.py")]);
        fs.rmSync(outside, { recursive: true, force: true });
        // A repository inside another that ignores it (a cache of fetched code) is read by its own ignore files.
        fs.mkdirSync(path.join(root, ".git"));
        fs.writeFileSync(path.join(root, ".gitignore"), "cache/\n");
        fs.mkdirSync(path.join(root, "cache", "repo", ".git"), { recursive: true });
        fs.writeFileSync(path.join(root, "cache", "repo", "model.py"), NETS);
        fs.writeFileSync(path.join(root, "cache", "repo", "config.yaml"), "net: Net\n");
        assert.deepStrictEqual(projectNamingFiles([path.join(root, "cache", "repo")]), [path.join(root, "cache", "repo", "config.yaml"), path.join(root, "cache", "repo", "model.py")]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
