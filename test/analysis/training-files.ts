/**
 * Generators for the incremental linter's property test (incremental-lint.test.ts): multi-statement PyTorch
 * training files whose top-level statements reference each other by name, and edits aimed at what makes
 * re-linting only the changed statements go wrong.
 *
 * The files are built from templates over a small shared pool of names (three helpers, two or three step
 * functions, a few classes, `device`, `loader`, `model`, ...), so that a helper defined in one top-level
 * statement is called from a step loop in another, module-level assignments are read by functions, classes are
 * instantiated elsewhere, `torch.compile(fn)` names a function defined elsewhere, and so on. The edits then
 * rename, retype and delete exactly those names and lines. Everything is driven by fast-check's random
 * choices, so a run is deterministic under a fixed seed.
 */
import fc from "fast-check";

// ---------------------------------------------------------------------------------------------------------
// Names shared by the templates (and by the edits)
// ---------------------------------------------------------------------------------------------------------

export const HELPERS = ["helper_a", "helper_b", "helper_c"];
/** Names a helper may be defined under: the shared ones, a `*_step` name (hot by convention) and a plain one. */
const HELPER_DEFINITIONS = [...HELPERS, ...HELPERS, "train_step", "log_metrics"];
const STEP_FUNCTIONS = ["train", "fit", "run_epoch"];
const CLASSES = ["Net", "Block", "Wrapper"];
const PARAMS = ["t", "loss", "out"];

/** Groups of interchangeable names: an edit replacing a name picks another one of its group. */
export const NAME_GROUPS: string[][] = [
  [...HELPERS, "train_step", "log_metrics", "helper_d"],
  [...STEP_FUNCTIONS, "main"],
  [...CLASSES, "Model"],
  ["device", "DEVICE", "dev"],
  ["loader", "train_loader", "val_loader"],
  ["model", "net"],
  ["item", "cpu", "tolist", "detach", "any", "sum"],
  ["log_every", "loss_sum", "check_every", "NUM_CLASSES"],
  ["torch", "nn", "np"],
  ["forward", "aux", "__init__"],
];
const NAME_PATTERN = new RegExp(`\\b(${[...new Set(NAME_GROUPS.flat())].sort((a, b) => b.length - a.length).join("|")})\\b`, "g");

/** Consumes a list of random numbers, cyclically, for the many small choices of one template. */
class Picker {
  private k = 0;
  constructor(private readonly choices: readonly number[]) {}
  nat(n: number): number {
    return this.choices[this.k++ % this.choices.length] % n;
  }
  one<T>(items: readonly T[]): T {
    return items[this.nat(items.length)];
  }
  chance(percent: number): boolean {
    return this.nat(100) < percent;
  }
}

const indent = (lines: string[], depth = 1): string[] => lines.map((line) => "    ".repeat(depth) + line);

// ---------------------------------------------------------------------------------------------------------
// Statement templates. Each returns the lines of one (rarely two) top-level statement(s), unindented.
// ---------------------------------------------------------------------------------------------------------

/** One line (or a small block) of a helper's body, about the parameter `v`. */
function helperLine(p: Picker, v: string): string[] {
  const other = p.one(HELPERS);
  const lines: Array<() => string[]> = [
    () => [`return ${v}.item()`],
    () => [`value = ${v}.sum().item()`],
    () => [`print(${v})`],
    () => [`print(f"loss {${v}:.4f}")`],
    () => [`print(${v}.item())`],
    () => [`arr = ${v}.detach().cpu().numpy()`],
    () => [`vals = ${v}.tolist()`],
    () => [`if ${v}.any():`, "    return None"],
    () => [`if ${v}.sum() > 0:`, `    ${v} = ${v} / 2`],
    () => [`sel = ${v}[${v} > 0]`],
    () => [`idx = torch.nonzero(${v})`],
    () => ["torch.cuda.synchronize()"],
    () => [`${v} = ${v}.to(device)`],
    () => ["w = torch.tensor([0.3, 0.7], device=device)"],
    () => [`${other}(${v})`],
    () => [`return ${other}(${v})`],
    () => [`out2 = ${other}(${v}.detach())`],
    () => [`${v} = ${v} * 2`],
    () => [`n = int(${v}.sum())  # noqa: SYN103`],
    () => [`value = ${v}.mean().item()  # synclint: ignore[item-in-hot-path]`],
    () => [`value = ${v}.mean().item()  # noqa: SYN101`],
    () => [`return max(${v}, 1e-6)`],
    () => [`writer.add_scalar("loss", ${v}, step)`],
    () => [`assert ${v}.isfinite().all()`],
    () => [`labels = F.one_hot(${v})`],
    () => ["# note: keep on device"],
    () => [`total = loss_sum + ${v}`],
  ];
  return p.one(lines)();
}

/** What the templates of one file have used so far: later definitions take the names earlier ones did not. */
interface FileContext {
  helpers: number;
  classes: number;
  stepFunctions: number;
}

function helperDefinition(p: Picker, file: FileContext): string[] {
  // Mostly the next of the shared helper names (so that the calls elsewhere resolve), sometimes any.
  const name = p.chance(75) ? HELPERS[file.helpers++ % HELPERS.length] : p.one(HELPER_DEFINITIONS);
  const v = p.one(PARAMS);
  const decorators = p.chance(12) ? ["@torch.compile"] : p.chance(5) ? ["@torch.no_grad()"] : [];
  const params = p.chance(25) ? `${v}, step=0` : v;
  const body: string[] = [];
  const count = 1 + p.nat(3);
  for (let i = 0; i < count; i++) body.push(...helperLine(p, v));
  if (p.chance(30)) body.push(`return ${v}`);
  return [...decorators, `def ${name}(${params}):`, ...indent(body)];
}

/** Extra lines of a step loop's body: helper calls, syncs, periodic guards, suppressions. */
function stepLine(p: Picker, counter: string | undefined): string[] {
  const helper = p.one(HELPERS);
  const guard = counter ? `if ${counter} % ${p.one(["10", "log_every"])} == 0:` : "if loss_sum > 0:";
  const lines: Array<() => string[]> = [
    () => [`${helper}(loss)`],
    () => [`${helper}(out)`],
    () => [`value = ${helper}(loss.detach())`],
    () => ["total += loss.item()"],
    () => ["print(loss.item())"],
    () => ['print(f"{loss:.4f}")'],
    () => [guard, "    print(loss.item())"],
    () => [guard, `    ${helper}(loss)`],
    () => ["preds.extend(out.argmax(1).cpu().numpy())"],
    () => ["torch.cuda.synchronize()"],
    () => ["if torch.isnan(loss).any():", "    break"],
    () => ["loss_sum += loss.detach()"],
    () => ["pbar.set_postfix(loss=loss.item())"],
    () => ["scaler.step(optimizer)"],
    () => ["pos = out[out > 0]"],
    () => [`${helper}(loss)  # noqa: SYN101`],
    () => ["lv = loss.item()  # synclint: ignore[item-in-hot-path]"],
    () => ["y = y.cuda()"],
    () => ["target = F.one_hot(y)"],
    () => ["y = y.to(device, non_blocking=True)", "onehot = F.one_hot(y)"],
  ];
  return p.one(lines)();
}

function stepFunction(p: Picker, file: FileContext): string[] {
  const name = p.chance(75) ? STEP_FUNCTIONS[file.stepFunctions++ % STEP_FUNCTIONS.length] : p.one(STEP_FUNCTIONS);
  const loaderParam = p.chance(50);
  const params = loaderParam ? "model, loader, optimizer" : "model, optimizer";
  const before: string[] = [];
  if (p.chance(30)) before.push("total = 0.0");
  if (p.chance(20)) before.push("preds = []");
  if (p.chance(15)) before.push("log_every = 10");
  let header: string;
  let counter: string | undefined;
  const unpack: string[] = [];
  switch (p.nat(5)) {
    case 0:
      header = "for step, (x, y) in enumerate(loader):";
      counter = "step";
      break;
    case 1:
      header = "for x, y in loader:";
      break;
    case 2:
      header = "for i, batch in enumerate(train_loader):";
      counter = "i";
      unpack.push("x, y = batch");
      break;
    case 3:
      header = "for step in range(num_steps):";
      counter = "step";
      unpack.push("x, y = next(it)");
      before.push("it = iter(loader)");
      break;
    default:
      header = "while True:";
      unpack.push("x, y = next(it)");
      before.push("it = iter(loader)");
  }
  const move = p.one(["x = x.to(device)", "x = x.to(device, non_blocking=True)", "x, y = x.cuda(), y.cuda()", "", "x = x.to(DEVICE)"]);
  const body = [...unpack, ...(move ? [move] : []), "out = model(x)", p.one(["loss = criterion(out, y)", "loss = out.mean()"]), "loss.backward()", "optimizer.step()"];
  // Most step loops call a helper (defined, or not, in another top-level statement).
  if (p.chance(85)) body.push(`${p.one(HELPERS)}(${p.one(["loss", "out", "x"])})`);
  const extra = p.nat(4);
  for (let i = 0; i < extra; i++) body.push(...stepLine(p, counter));
  const after = p.chance(25) ? [p.one(["return total", "print(loss.item())", "return loss"])] : [];
  return [`def ${name}(${params}):`, ...indent([...before, header, ...indent(body), ...after])];
}

function classDefinition(p: Picker, file: FileContext): string[] {
  const name = p.chance(75) ? CLASSES[file.classes++ % CLASSES.length] : p.one(CLASSES);
  const base = p.one(["nn.Module", "nn.Module", "torch.nn.Module", p.one(CLASSES), "object", ""]);
  const helper = p.one(HELPERS);
  const forward: string[] = ["h = self.fc(x)"];
  const forwardLines: Array<() => string[]> = [
    () => ["if h.any():", "    h = h * 2"],
    () => ["h = h[h > 0]"],
    () => ["v = h.max().item()"],
    () => [`${helper}(h)`],
    () => ["h = self.aux(h)"],
    () => ["print(h)"],
    () => ["h = h.cpu()"],
    () => ["mask = h > 0", "h = h[mask]"],
    () => ["h = torch.unique(h)"],
    () => ["if h.sum() > 0:  # noqa: SYN103", "    h = -h"],
  ];
  const count = 1 + p.nat(3);
  for (let i = 0; i < count; i++) forward.push(...p.one(forwardLines)());
  forward.push("return h");
  const methods = [
    ...indent(["def __init__(self):", "    super().__init__()", "    self.fc = nn.Linear(8, 8)"]),
    ...indent(["def forward(self, x):", ...indent(forward)]),
  ];
  if (p.chance(50)) methods.push(...indent(["def aux(self, h):", ...indent([p.one(["return h.sum().item()", "return h * 2", "return h.tolist()", `return ${helper}(h)`])])]));
  return [base ? `class ${name}(${base}):` : `class ${name}:`, ...methods];
}

function moduleAssignment(p: Picker): string[] {
  const cls = p.one(CLASSES);
  const helper = p.one(HELPERS);
  const choices: Array<() => string[]> = [
    () => ['device = torch.device("cuda")'],
    () => ['device = torch.device("cuda" if torch.cuda.is_available() else "cpu")'],
    () => ['device = "cpu"'],
    () => ['DEVICE = "cuda"'],
    () => ["loader = DataLoader(dataset, batch_size=32)"],
    () => ["loader = DataLoader(dataset, batch_size=32, pin_memory=True)"],
    () => ["loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=False)"],
    () => ["train_loader = torch.utils.data.DataLoader(train_set, shuffle=True)"],
    () => [`model = ${cls}().to(device)`],
    () => [`model = ${cls}().cuda()`],
    () => [`model = torch.compile(${cls}())`],
    () => ["criterion = nn.CrossEntropyLoss()"],
    () => ["optimizer = torch.optim.AdamW(model.parameters())"],
    () => ["scaler = torch.cuda.amp.GradScaler()"],
    () => ["log_every = 10"],
    () => ["NUM_CLASSES = 10"],
    () => ["loss_sum = 0.0"],
    () => [`${helper} = torch.compile(${helper})`],
    () => [`compiled_step = torch.compile(${helper})`],
    () => ["# helpers below; cuda only"],
    () => ["# noqa: SYN202"],
    () => ['torch.set_default_device("cuda")'],
    () => ['NOTES = """', "import torch", '"""'],
    () => ["g = torch.cuda.CUDAGraph()", "with torch.cuda.graph(g):", "    static_out = model(static_x)", `    ${helper}(static_out)`],
  ];
  return p.one(choices)();
}

function moduleLoop(p: Picker): string[] {
  const fn = p.one(STEP_FUNCTIONS);
  const helper = p.one(HELPERS);
  const choices: Array<() => string[]> = [
    () => ["for epoch in range(3):", `    ${fn}(model, loader, optimizer)`],
    () => ['if __name__ == "__main__":', `    ${fn}(model, loader, optimizer)`],
    () => ["for x, y in loader:", "    x = x.to(device)", "    loss = model(x).mean()", `    ${helper}(loss)`],
    () => ["for step, batch in enumerate(loader):", "    out = model(batch.cuda())", "    if step % 10 == 0:", `        ${helper}(out)`, "    print(out.sum().item())"],
  ];
  return p.one(choices)();
}

/** Less common shapes: names bound inside compound statements, several statements on a line, aliases, imports. */
function unusual(p: Picker): string[] {
  const helper = p.one(HELPERS);
  const other = p.one(HELPERS);
  const fn = p.one(STEP_FUNCTIONS);
  const choices: Array<() => string[]> = [
    () => ["if torch.cuda.is_available():", `    def ${helper}(t):`, "        return t.item()", "else:", `    def ${helper}(t):`, "        return t"],
    () => ["try:", "    import torch", "except ImportError:", "    torch = None"],
    () => [`from utils import ${helper}`],
    () => [`${helper} = ${other}`],
    () => [`del ${helper}`],
    () => [`${helper} = lambda t: t.item()`],
    () => [`${helper} = lambda t: ${other}(t.detach())`],
    () => ["from functools import partial", `${helper} = partial(${other}, step=1)`],
    () => [`handle = model.register_forward_hook(lambda m, i, o: ${helper}(o))`],
    () => [`model.register_full_backward_hook(${helper})`],
    () => ['device = torch.device("cuda"); loader = DataLoader(dataset)'],
    () => ["x = model(inp); print(x.item())"],
    () => [`import torch; ${helper}(model(inp))`],
    () => [`${helper}(model(inp))  # noqa: SYN101`],
    () => [`def ${fn}(model, loader):`, "    def inner(t):", "        return t.sum().item()", "    for x, y in loader:", "        inner(model(x))", `        ${helper}(x)`],
    () => ['with torch.device("cuda"):', "    model = Net()"],
    () => ["from torch import *"],
    () => ["while step < max_steps:", "    out = model(next(it))", `    ${helper}(out)`, "    step += 1"],
    () => ["if (n := loss.item()) > 0:", "    print(n)"],
    () => ["x: torch.Tensor = torch.zeros(3, device=device)"],
    () => ["class Config:", `    fn = ${helper}`, "    steps = 10"],
    () => [`results = [${helper}(b) for b in loader]`],
    () => ["def reset():", "    # global settings", "    total = loss_sum + NUM_CLASSES + log_every", "    return total"],
    () => ["def configure():", "    n = NUM_CLASSES  # classes", "    return n"],
  ];
  return p.one(choices)();
}

const TEMPLATES: Array<{ weight: number; render: (p: Picker, file: FileContext) => string[] }> = [
  { weight: 30, render: helperDefinition },
  { weight: 20, render: stepFunction },
  { weight: 12, render: classDefinition },
  { weight: 26, render: moduleAssignment },
  { weight: 10, render: moduleLoop },
  { weight: 8, render: unusual },
];

const PRELUDES = [
  "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\n",
  "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nfrom torch.utils.data import DataLoader\n",
  "import torch\n",
  '"""Training script."""\nfrom __future__ import annotations\nimport torch\nimport numpy as np\n',
  // importsTorch, but `torch` is not bound: fixes that need it add `import torch`.
  "import torch.nn as nn\nfrom torch.utils.data import DataLoader\n",
  "from torch import nn\nimport numpy as np\n",
  // No torch import at all.
  "import numpy as np\n",
];

export interface StatementSpec {
  template: number;
  choices: number[];
}

export interface FileSpec {
  prelude: number;
  statements: StatementSpec[];
  /** Blank lines after each statement (0 to 2), cyclically. */
  blanks: number[];
  crlf: boolean;
  finalNewline: boolean;
}

const TOTAL_WEIGHT = TEMPLATES.reduce((sum, t) => sum + t.weight, 0);

function templateOf(n: number): (p: Picker, file: FileContext) => string[] {
  let k = n % TOTAL_WEIGHT;
  for (const t of TEMPLATES) {
    if (k < t.weight) return t.render;
    k -= t.weight;
  }
  return TEMPLATES[0].render;
}

export const fileSpecArbitrary: fc.Arbitrary<FileSpec> = fc.record({
  prelude: fc.nat(PRELUDES.length - 1),
  statements: fc.array(fc.record({ template: fc.nat(TOTAL_WEIGHT - 1), choices: fc.array(fc.nat(), { minLength: 12, maxLength: 24 }) }), { minLength: 5, maxLength: 15 }),
  blanks: fc.array(fc.nat(2), { minLength: 1, maxLength: 4 }),
  crlf: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
  finalNewline: fc.nat(9).map((n) => n > 0),
});

export function renderFile(spec: FileSpec): string {
  const lines = PRELUDES[spec.prelude].split("\n").slice(0, -1);
  lines.push("");
  const file: FileContext = { helpers: 0, classes: 0, stepFunctions: 0 };
  spec.statements.forEach((statement, i) => {
    lines.push(...templateOf(statement.template)(new Picker(statement.choices), file));
    for (let k = 0; k < spec.blanks[i % spec.blanks.length]; k++) lines.push("");
  });
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const eol = spec.crlf ? "\r\n" : "\n";
  return lines.join(eol) + (spec.finalNewline ? eol : "");
}

// ---------------------------------------------------------------------------------------------------------
// Edits
// ---------------------------------------------------------------------------------------------------------

/**
 * An edit in terms independent of the text (numbers taken modulo what the text offers), resolved against the
 * current text when applied.
 */
export type EditSpec =
  | { kind: "insert"; at: number; text: string }
  | { kind: "delete"; at: number; length: number }
  | { kind: "name"; which: number; op: "insert" | "delete" | "replace"; at: number; text: string }
  | { kind: "defLine"; which: number; at: number; op: "insert" | "delete"; text: string }
  | { kind: "insertLine"; line: number; text: string; otherEol: boolean }
  | { kind: "appendToLine"; line: number; text: string }
  /** The text of a comment replaced: no line or name changes, only what is read from the whole text. */
  | { kind: "comment"; which: number; text: string }
  | { kind: "deleteLine"; line: number }
  | { kind: "duplicateLine"; line: number }
  | { kind: "indentLine"; line: number; dedent: boolean }
  | { kind: "toggleTorchImport" }
  /** A whole statement from the templates, pasted at the start of a top-level line (or at the end). */
  | { kind: "insertStatement"; line: number; template: number; choices: number[] }
  /** A whole top-level statement deleted, from its first line to the next top-level line. */
  | { kind: "deleteStatement"; line: number }
  /** Reverts the last change not yet reverted (as an editor's undo does); resolved by the test, which keeps the history. */
  | { kind: "undo" };

/** What the test does after applying an edit. */
export type Action =
  /** Lint the updated syntax tree and compare (most steps). */
  | "lint"
  /** Lint, then lint the same syntax tree once more, comparing both times. */
  | "lint-twice"
  /** Only update the syntax tree: the next lint gets a tree derived from one the linter never saw. */
  | "no-lint"
  /** Lint a syntax tree built afresh from the tree (not derived by updateSyntaxTree), as after a full re-parse. */
  | "rebuild"
  /** Lint with other options than the previous call. */
  | "switch-options";

export interface Step {
  edit: EditSpec;
  action: Action;
  /** Which options a `switch-options` step switches to. */
  options: number;
  /** Typing stops after this step: a tree re-parsed incrementally with syntax errors is replaced by a fresh parse (in runs that do so). */
  settle: boolean;
}

// Mostly characters that keep the text valid inside an identifier or a line; some that break the syntax.
const INSERTED_CHARACTERS = ["a", "e", "_", "x", "1", "a", "e", "_", "x", "1", " ", " ", "(", ")", ":", ".", "#", "\n", "\n", '"', "\t", ",", "="];
const INSERTED_SNIPPETS = ["\r\n", "\r", "    ", "def ", "import torch\n", "(", "):", "loss.item()", "if x:\n", "\n\n", "helper_a(", "'''"];
const LINE_CONTENTS = [
  "", "", "helper_a(loss)", "helper_b(x)", "helper_c(out)", "train_step(x)", "print(loss.item())", "v = x.item()  # noqa: SYN101",
  "# noqa: SYN101", "# synclint: ignore[item-in-hot-path]", "import torch", "x = x.to(device)", "torch.cuda.synchronize()",
  "if step % 10 == 0:", "# cuda", "for batch in loader:", "def helper_a(t):", "def helper_b(t, step=0):", "return t.item()", "pass",
  'device = torch.device("cuda")', 'device = "cpu"', "log_every = 10", "loss_sum = 0", "@torch.compile", "helper_b = torch.compile(helper_b)",
  "loader = DataLoader(dataset, pin_memory=True)", "class Net(nn.Module):", "# synclint: disable-file", 'torch.set_default_device("cuda")', "global step", "global loss_sum",
];
const LINE_SUFFIXES = [
  "  # noqa: SYN101", "  # noqa", "  # synclint: ignore[item-in-hot-path]", "  # synclint: ignore", "  # noqa: SYN102, SYN104",
  "  # synclint: ignore[data-dependent-shape, SYN301]", "  # noqa: SYN999", ":", " \\", "(", ".item()", ".cpu()", ".to(device)",
  "; global loss_sum", "; global NUM_CLASSES", "  # global NUM_CLASSES", "; x = 1",
];
/** What an edit puts in place of a comment's text: the same lines and names, other text-wide facts. */
const COMMENT_TEXTS = [
  "global NUM_CLASSES", "global loss_sum", "global log_every", "noqa: SYN101", "noqa", "synclint: ignore[item-in-hot-path]", "synclint: ignore",
  "noqa: SYN102, SYN105", "cuda", "set_default_device", "synclint: disable-file", "plain words", "",
];

const position = fc.nat(1 << 20);

/** Every kind of edit, with its weight; `typing` edits land anywhere and often break the syntax. */
const EDITS: Array<{ arbitrary: fc.Arbitrary<EditSpec>; weight: number; typing?: boolean }> = [
  { arbitrary: fc.record({ kind: fc.constant("insert" as const), at: position, text: fc.constantFrom(...INSERTED_CHARACTERS) }), weight: 15, typing: true },
  { arbitrary: fc.record({ kind: fc.constant("insert" as const), at: position, text: fc.constantFrom(...INSERTED_SNIPPETS) }), weight: 4, typing: true },
  { arbitrary: fc.record({ kind: fc.constant("delete" as const), at: position, length: fc.constant(1) }), weight: 13, typing: true },
  { arbitrary: fc.record({ kind: fc.constant("delete" as const), at: position, length: fc.integer({ min: 2, max: 60 }) }), weight: 3, typing: true },
  {
    arbitrary: fc.record({
      kind: fc.constant("name" as const),
      which: position,
      op: fc.constantFrom("insert" as const, "delete" as const, "replace" as const),
      at: position,
      text: fc.constantFrom("_", "x", "a", "2", " ", "."),
    }),
    weight: 26,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("defLine" as const), which: position, at: position, op: fc.constantFrom("insert" as const, "delete" as const), text: fc.constantFrom("_", "x", "(", ",", ")", ":", " ") }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant("insertLine" as const), line: position, text: fc.constantFrom(...LINE_CONTENTS), otherEol: fc.nat(9).map((n) => n === 0) }), weight: 12 },
  { arbitrary: fc.record({ kind: fc.constant("appendToLine" as const), line: position, text: fc.constantFrom(...LINE_SUFFIXES) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant("comment" as const), which: position, text: fc.constantFrom(...COMMENT_TEXTS) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("deleteLine" as const), line: position }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant("duplicateLine" as const), line: position }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("indentLine" as const), line: position, dedent: fc.boolean() }), weight: 2 },
  { arbitrary: fc.constant({ kind: "toggleTorchImport" as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: "undo" as const }), weight: 12 },
  {
    arbitrary: fc.record({ kind: fc.constant("insertStatement" as const), line: position, template: fc.nat(TOTAL_WEIGHT - 1), choices: fc.array(fc.nat(), { minLength: 12, maxLength: 24 }) }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant("deleteStatement" as const), line: position }), weight: 3 },
];

const ANY_EDIT = fc.oneof(...EDITS);
/** The edits aimed at names and whole lines: the text stays valid Python more often. */
const STRUCTURED_EDIT = fc.oneof(...EDITS.filter((edit) => !edit.typing));

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.constant("lint" as const), weight: 86 },
  { arbitrary: fc.constant("lint-twice" as const), weight: 3 },
  { arbitrary: fc.constant("no-lint" as const), weight: 5 },
  { arbitrary: fc.constant("rebuild" as const), weight: 3 },
  { arbitrary: fc.constant("switch-options" as const), weight: 3 },
);

const stepsOf = (edit: fc.Arbitrary<EditSpec>) => fc.array(fc.record({ edit, action: actionArbitrary, options: fc.nat(99), settle: fc.boolean() }), { minLength: 1, maxLength: 20 });

/** 1 to 20 steps: in half of the sequences any edit, in the other half only edits of names and lines. */
export const stepsArbitrary: fc.Arbitrary<Step[]> = fc.oneof(stepsOf(ANY_EDIT), stepsOf(STRUCTURED_EDIT));

/** A resolved edit: replace `text.slice(start, end)` with `inserted`. */
export interface TextChange {
  start: number;
  end: number;
  inserted: string;
}

interface Line {
  /** Offset of the first character. */
  start: number;
  /** Offset of the line break (or the end of the text). */
  end: number;
  /** Offset after the line break. */
  next: number;
}

/** The lines of `text`, broken at `\r\n`, `\n` and a lone `\r` (as tree-sitter and SourceText break them). */
export function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n" || c === "\r") {
      const next = c === "\r" && text[i + 1] === "\n" ? i + 2 : i + 1;
      lines.push({ start, end: i, next });
      start = next;
      i = next - 1;
    }
  }
  lines.push({ start, end: text.length, next: text.length });
  return lines;
}

/** Lines that start a top-level statement: not indented, not blank, not a comment, not a decorated line's `def`. */
function topLevelLines(text: string, lines: Line[]): Line[] {
  return lines.filter((line, i) => {
    const content = text.slice(line.start, line.end);
    if (!/^[^\s#]/.test(content) || /^(else|elif|except|finally)\b/.test(content) || content.startsWith(")") || content.startsWith('"""')) return false;
    const previous = i > 0 ? text.slice(lines[i - 1].start, lines[i - 1].end) : "";
    return !previous.startsWith("@");
  });
}

function eolOf(text: string): string {
  const match = /\r\n|\n|\r/.exec(text);
  return match ? match[0] : "\n";
}

function otherName(name: string, pick: number): string {
  const group = NAME_GROUPS.find((g) => g.includes(name)) ?? [name];
  const others = group.filter((n) => n !== name);
  return others.length > 0 ? others[pick % others.length] : name;
}

/** The change `spec` makes to `text` (an empty change when there is nothing to apply it to). */
export function resolveEdit(spec: EditSpec, text: string): TextChange {
  const lines = linesOf(text);
  const lineAt = (n: number) => lines[n % lines.length];
  switch (spec.kind) {
    case "insert": {
      const at = spec.at % (text.length + 1);
      return { start: at, end: at, inserted: spec.text };
    }
    case "delete": {
      const at = spec.at % (text.length + 1);
      return { start: at, end: Math.min(text.length, at + spec.length), inserted: "" };
    }
    case "name": {
      const names = [...text.matchAll(NAME_PATTERN)];
      if (names.length === 0) return { start: 0, end: 0, inserted: "" };
      const match = names[spec.which % names.length];
      const start = match.index!;
      const length = match[0].length;
      if (spec.op === "replace") return { start, end: start + length, inserted: otherName(match[0], spec.at) };
      if (spec.op === "delete") {
        const at = start + (spec.at % length);
        return { start: at, end: at + 1, inserted: "" };
      }
      const at = start + (spec.at % (length + 1));
      return { start: at, end: at, inserted: spec.text };
    }
    case "defLine": {
      const defs = lines.filter((line) => /^\s*(def|class|async def)\s/.test(text.slice(line.start, line.end)));
      if (defs.length === 0) return { start: 0, end: 0, inserted: "" };
      const line = defs[spec.which % defs.length];
      if (spec.op === "delete") {
        if (line.end === line.start) return { start: 0, end: 0, inserted: "" };
        const at = line.start + (spec.at % (line.end - line.start));
        return { start: at, end: at + 1, inserted: "" };
      }
      const at = line.start + (spec.at % (line.end - line.start + 1));
      return { start: at, end: at, inserted: spec.text };
    }
    case "insertLine": {
      const line = lineAt(spec.line);
      const indentation = /^[ \t]*/.exec(text.slice(line.start, line.end))![0];
      const eol = spec.otherEol ? (eolOf(text) === "\n" ? "\r\n" : "\n") : eolOf(text);
      return { start: line.start, end: line.start, inserted: (spec.text ? indentation + spec.text : "") + eol };
    }
    case "appendToLine": {
      const line = lineAt(spec.line);
      return { start: line.end, end: line.end, inserted: spec.text };
    }
    case "comment": {
      // A `#` and the rest of its line (strings with `#` in them are rare in these files, and harmless).
      const comments = [...text.matchAll(/#[^\r\n]*/g)];
      if (comments.length === 0) return { start: 0, end: 0, inserted: "" };
      const match = comments[spec.which % comments.length];
      return { start: match.index! + 1, end: match.index! + match[0].length, inserted: ` ${spec.text}` };
    }
    case "deleteLine": {
      const line = lineAt(spec.line);
      return { start: line.start, end: line.next, inserted: "" };
    }
    case "duplicateLine": {
      const line = lineAt(spec.line);
      const eol = line.next > line.end ? text.slice(line.end, line.next) : eolOf(text);
      return { start: line.start, end: line.start, inserted: text.slice(line.start, line.end) + eol };
    }
    case "indentLine": {
      const line = lineAt(spec.line);
      if (!spec.dedent) return { start: line.start, end: line.start, inserted: "    " };
      const spaces = /^ {0,4}/.exec(text.slice(line.start, line.end))![0].length;
      return { start: line.start, end: line.start + spaces, inserted: "" };
    }
    case "toggleTorchImport": {
      const existing = lines.find((line) => /^import torch[ \t]*$/.test(text.slice(line.start, line.end)));
      if (existing) return { start: existing.start, end: existing.next, inserted: "" };
      // After a module docstring and `from __future__` imports, as a user (or a fix) would put it.
      let at = 0;
      for (const line of lines) {
        if (!/^("""|from __future__)/.test(text.slice(line.start, line.end))) break;
        at = line.next;
      }
      return { start: at, end: at, inserted: `import torch${eolOf(text)}` };
    }
    case "insertStatement": {
      const eol = eolOf(text);
      const statement = templateOf(spec.template)(new Picker(spec.choices), { helpers: spec.line, classes: spec.line, stepFunctions: spec.line }).join(eol) + eol;
      const starts = topLevelLines(text, lines);
      if (starts.length === 0 || spec.line % (starts.length + 1) === starts.length) {
        // At the end: after a line break.
        const last = lines[lines.length - 1];
        return { start: text.length, end: text.length, inserted: last.end > last.start ? eol + statement : statement };
      }
      const line = starts[spec.line % (starts.length + 1)];
      return { start: line.start, end: line.start, inserted: statement };
    }
    case "deleteStatement": {
      const starts = topLevelLines(text, lines);
      if (starts.length === 0) return { start: 0, end: 0, inserted: "" };
      const k = spec.line % starts.length;
      return { start: starts[k].start, end: k + 1 < starts.length ? starts[k + 1].start : text.length, inserted: "" };
    }
    case "undo":
      throw new Error("undo is resolved from the edit history, not from the text");
  }
}

/** A one-line description of a change, for failure messages. */
export function describeChange(change: TextChange, text: string): string {
  const lines = linesOf(text);
  const line = lines.findIndex((l) => change.start <= l.next && (change.start < l.next || l.next === text.length));
  const where = line >= 0 ? ` (line ${line + 1}, column ${change.start - lines[line].start + 1})` : "";
  if (change.end === change.start) return `insert ${JSON.stringify(change.inserted)} at ${change.start}${where}`;
  const removed = JSON.stringify(text.slice(change.start, change.end));
  return change.inserted ? `replace ${removed} [${change.start}, ${change.end}) with ${JSON.stringify(change.inserted)}${where}` : `delete ${removed} [${change.start}, ${change.end})${where}`;
}
