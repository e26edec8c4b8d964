/**
 * Hot paths across files. A function is hot when a hot path calls it, and the caller may live in another file:
 * `engine.py`'s step loop calls `metric_logger.update(...)`, which `util/misc.py` defines. A file's lint lists
 * the calls its hot sites make to what it imports from the project (`moduleLinks`); the project (`project.ts`)
 * resolves them to the files that define the functions, and lints those again with the calls as hot entries.
 */
import { SyntaxNode, childByField, enclosingClassOf, enclosingFunctionOf, forEachNode, returnStatementsOf } from "../syntax";
import type { FileAnalysis } from "./file-analysis";
import type { CompiledRegion, OptionDefault, PassedArguments, SiteContext } from "./hot-paths";
import { agreedArguments, passedArguments } from "./hot-paths";
import { Binding, identifiersNamed, resolveBinding, scopeOf } from "./scopes";
import { importedName } from "./tensor-evidence";
import { isProperty, methodCallsOn } from "./instances";
import { CLASS_NAME, DATA_ITERABLE_NAME, attributeWrites, lastName, mayDefineOptions, optionWrites, setsAnyOption } from "./names";

/** A function that another file calls from a hot path: its caller's context, told from the callee's side. */
export interface HotEntry {
  /** "which `../engine.py` calls at line 45 in the step loop of `train_one_epoch()` (line 31)" */
  where: string;
  frequency: string;
  reason: string;
  compiled?: CompiledRegion;
  /** The caller's values may be assumed to live on a GPU. */
  gpu: boolean;
  /** What the hot calls in the project pass, where they agree (`agreedArguments`). */
  arguments?: PassedArguments;
  /** No hot caller passes anything that may be a tensor (every argument a number, a string, an array...). */
  tensorFree?: boolean;
  /** Where what the hot callers pass lives, where they agree (`agreedKinds`). */
  argumentKinds?: ArgumentKinds;
  /**
   * A method that every hot caller calls on an instance it constructs (`compute_loss = ComputeLoss(model)`, then
   * `compute_loss(pred, targets)`): what the project's constructions pass is what the instance keeps.
   */
  onOwnInstance?: true;
}

/** Where a value passed to a function lives, when the caller knows: in host memory, or on the GPU. */
export type ArgumentKind = "cpu" | "numpy" | "batch" | "gpu";

/** Argument kinds by keyword name or positional index ("0", "1"): what the callee cannot see of its callers' values. */
export type ArgumentKinds = Readonly<Record<string, ArgumentKind>>;

/** A class of the file that nothing else in the project names (`class-names.ts`): its methods are not known to run. */
export interface UnreferencedClass {
  unreferenced: true;
}

/**
 * Every file of a project that never puts anything on a GPU is given this entry (`HOST_ONLY_ENTRY`): a script
 * runs it (`if __name__ == "__main__":`, argparse), and no file, config or document of the project mentions
 * CUDA, a device, a GPU or an accelerator (pytorch-a3c trains on CPU processes sharing memory).
 */
export interface HostOnlyProject {
  hostOnly: true;
}
/** The key of `HostOnlyProject`, never a Python name. */
export const HOST_ONLY_ENTRY = "(host only)";

/**
 * A class of the file that keeps options from its construction (`ModuleLinks.options`), and what its
 * constructions in other files pass (`ComputeLoss(model)`), each once.
 */
export interface ConstructedClass {
  constructions: PassedArguments[];
}

/** A function of the file that returns a loader whose batches another file moves to a GPU (`get_loader(...)` in `train.py`). */
export interface LoaderFactory {
  /** Where, as a phrase: "`train.py` calls it at line 40 and moves the loader's batches to the GPU at line 45". */
  loaderMovedBy: string;
}

/**
 * An option the file tests that another file defines (`if opt.eval_oracle_wh:` in a trainer, `add_argument(
 * "--eval_oracle_wh", action="store_true")` in `opts.py`), with its default, which no file of the project sets.
 */
export interface ProjectOption {
  option: OptionDefault;
}

/**
 * What the project tells a file of its names: the functions other files call from hot paths, by their name in
 * the file (`all_reduce_mean`, `MetricLogger.update`), the classes no other file names, by class name, and the
 * options it tests that other files define, by `--` and destination (`--eval_oracle_wh`, never a Python name).
 */
export type HotEntries = Readonly<Record<string, HotEntry | UnreferencedClass | LoaderFactory | ConstructedClass | ProjectOption | HostOnlyProject>>;

/** A call from a hot site of this file to something it imports from the project. */
export interface ProjectCall {
  /** The callee's dotted name as imported: `util.misc.MetricLogger.update`, `.box_ops.box_iou` (relative dots kept). */
  target: string;
  line: number;
  where: string;
  frequency: string;
  reason: string;
  compiled?: CompiledRegion;
  gpu: boolean;
  /** What the hot calls of the callee in this file pass, where they agree (`agreedArguments`). */
  arguments: PassedArguments;
  /** Where the arguments of every hot call of the callee in this file live, where they agree. */
  argumentKinds?: ArgumentKinds;
  /** Some hot call of the callee in this file passes something that may be a tensor. */
  tensors: boolean;
  /** An attribute read (`meter.avg`), not a call: it runs the callee only if that is a `@property`. */
  read?: true;
  /** Every hot call of the method in this file is on an instance this file constructs (`compute_loss = ComputeLoss(model)`). */
  onOwnInstance?: true;
}

export interface ModuleLinks {
  /** The first hot call of each callee, in source order. */
  calls: ProjectCall[];
  /** What the module imports from the project at its top level, which other modules may import from it in turn. */
  imports: Record<string, string>;
  /**
   * The functions and methods other modules can call by name, each to the function that runs
   * (`importableName`): `Sampler.sample` to itself, `UniformSampler.sample` to `Sampler.sample` when
   * `UniformSampler(Sampler)` inherits it from a class of the same file.
   */
  functions: Record<string, string>;
  /** The project modules it imports everything from at its top level (`from .dist import *`), which it re-exports. */
  starImports?: string[];
  /** Its methods that reading an attribute runs (`@property`), as `Class.method`. */
  properties?: string[];
  /** The class-like names its text holds outside its classes, and those in each class (`namesOfClasses`). */
  names?: string[];
  classes?: Record<string, string[]>;
  /** The project modules it imports anywhere, as written (`namesOfClasses`). */
  importedModules?: string[];
  /** The project functions whose returned loader this file iterates and moves to a GPU (`data_loader = get_loader(...)`), first call of each. */
  loaders?: LoaderCall[];
  /** Folders the file puts on `sys.path` (`sys.path.append("core")`), as written: its imports may name modules there. */
  searchPaths?: string[];
  /** The classes that keep attributes of `self` from `__init__` parameters and test them (`if self.autobalance:`) (`classesWithOptions`). */
  options?: string[];
  /** By callee as imported (`utils.loss.ComputeLoss`), what each call of a project class in this file passes, each once. */
  constructions?: Record<string, PassedArguments[]>;
  /** The argparse options the file defines with a default that it never changes, by destination (`HotPaths.ownOptions`). */
  optionDefaults?: Record<string, OptionDefault>;
  /** The option names the file sets (`opt.flip = True`) or makes required, "*" for any: their defaults hold nowhere. */
  optionsSet?: string[];
  /** The option names the file only sets to `False` or `None` (`args.fsdp = False`): a default that is neither holds nowhere. */
  optionsCleared?: string[];
  /** The options the file tests in a branch without defining them (`if opt.eval_oracle_wh:`). */
  optionsTested?: string[];
  /** The file may put tensors on a GPU (`FileAnalysis.mayUseGpu`). */
  mayUseGpu?: true;
  /** The file runs as a script (`if __name__ == "__main__":`, `parse_args(`). */
  script?: true;
}

/** A call of a project function that returns a loader, whose batches the calling file moves to a GPU. */
export interface LoaderCall {
  target: string;
  /** The line of the call, and of the first move of a batch. */
  line: number;
  movedAt: number;
}

/** Names Python binds in every module, which no star import needs to supply. */
const PYTHON_BUILTINS = new Set([
  "abs", "all", "any", "bool", "bytes", "callable", "chr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "filter",
  "float", "format", "frozenset", "getattr", "hasattr", "hash", "id", "input", "int", "isinstance", "issubclass", "iter",
  "len", "list", "map", "max", "min", "next", "object", "open", "ord", "pow", "print", "property", "range", "repr",
  "reversed", "round", "set", "setattr", "slice", "sorted", "str", "sum", "super", "tuple", "type", "vars", "zip",
]);

export const NO_LINKS: ModuleLinks = { calls: [], imports: {}, functions: {} };

/**
 * Top-level modules that are never part of the linted project: the standard library and the libraries PyTorch
 * code imports most. Anything else may be, and is resolved against the linted files; this list only saves work,
 * so it leaves out names that projects give their own packages (`datasets`, `utils`, `models`).
 */
const EXTERNAL_MODULES = new Set(
  (
    "__future__ abc argparse array ast asyncio atexit base64 bisect builtins bz2 calendar cmath codecs collections concurrent " +
    "configparser contextlib copy copyreg cProfile csv ctypes dataclasses datetime decimal difflib dis email enum errno fnmatch " +
    "fractions functools gc getpass glob gzip hashlib heapq hmac html http importlib inspect io ipaddress itertools json keyword " +
    "linecache locale logging lzma marshal math mmap multiprocessing numbers operator optparse os pathlib pdb pickle pkgutil " +
    "platform pprint profile pstats queue random re reprlib resource sched secrets select selectors shelve shlex shutil signal " +
    "site socket sqlite3 ssl stat statistics string struct subprocess sys sysconfig tarfile tempfile textwrap threading time " +
    "timeit tokenize tomllib traceback tracemalloc types typing unicodedata unittest urllib uuid warnings weakref xml zipfile " +
    "zlib zoneinfo torch torchvision torchaudio torchtext numpy scipy pandas sklearn PIL cv2 matplotlib seaborn tqdm yaml einops " +
    "wandb tensorboard tensorboardX h5py requests setuptools pytest typing_extensions omegaconf hydra packaging psutil termcolor " +
    "tabulate six cloudpickle fsspec safetensors huggingface_hub sentencepiece tiktoken triton"
  ).split(" "),
);

export function isProjectTarget(target: string): boolean {
  return target.startsWith(".") || !EXTERNAL_MODULES.has(target.split(".")[0]);
}

/**
 * The name another file imports `fn` by, with the class for a method: `f`, `Class.method`; undefined for
 * functions nested in functions or in nested classes, which no other file can call by name.
 */
export function importableName(fn: SyntaxNode, text: string): string | undefined {
  const name = childByField(fn, "name");
  if (!name) return undefined;
  const own = text.slice(name.start, name.end);
  if (isTopLevel(fn)) return own;
  const cls = enclosingClassOf(fn);
  const className = cls && isTopLevel(cls) ? childByField(cls, "name") : undefined;
  return className ? `${text.slice(className.start, className.end)}.${own}` : undefined;
}

function isTopLevel(definition: SyntaxNode): boolean {
  const parent = definition.parent?.type === "decorated_definition" ? definition.parent.parent : definition.parent;
  return parent?.type === "module";
}

/**
 * The hot calls this file makes into the project, and what it imports from the project. `movesBatches`: where
 * the file moves the batches of the loader a call returns to a GPU, if it does (`dataloader-pin-memory`'s search).
 */
export function moduleLinks(analysis: FileAnalysis, movesBatches?: (call: SyntaxNode) => SyntaxNode | undefined): ModuleLinks {
  const text = analysis.source.text;
  const root = analysis.tree.root;
  const imports: Record<string, string> = {};
  const byTarget = new Map<string, ProjectCall>();
  const loaders = new Map<string, LoaderCall>();
  const constructions = new Map<string, Map<string, PassedArguments>>();
  const line = (node: SyntaxNode) => analysis.source.position(node.start).line + 1;
  // `train_loader = data.get_loader(...)`: named for a loader, or made by a function named for one.
  const recordLoader = (call: SyntaxNode, target: string) => {
    const assigned = call.parent?.type === "assignment" && call.field === "right" ? childByField(call.parent, "left") : undefined;
    if (!movesBatches || loaders.has(target) || !assigned || (assigned.type !== "identifier" && assigned.type !== "attribute")) return;
    if (!DATA_ITERABLE_NAME.test(lastName(text.slice(assigned.start, assigned.end))) && !/loader/i.test(lastName(target))) return;
    const move = movesBatches(call);
    if (move) loaders.set(target, { target, line: line(call), movedAt: line(move) });
  };

  const record = (call: SyntaxNode, target: string, read?: true, onOwnInstance?: true) => {
    const site: SiteContext = analysis.contextOf(call);
    // A loop that is neither a step loop nor in a per-step function (over a module's parameters, a list of
    // metrics, at setup) makes its own sites hot only on positive GPU evidence; a callee in another file is
    // too far from that evidence to be judged by it.
    if (!site.hot || site.plainLoop) return;
    const known = byTarget.get(target);
    if (known) {
      known.arguments = agreedArguments([known.arguments, passedArguments(call, text)])!;
      known.tensors ||= passesTensors(call, analysis);
      const kinds = agreedKinds(known.argumentKinds, argumentKindsOf(call, analysis));
      if (kinds) known.argumentKinds = kinds;
      else delete known.argumentKinds;
      if (!onOwnInstance) delete known.onOwnInstance;
      return;
    }
    const argumentKinds = argumentKindsOf(call, analysis);
    byTarget.set(target, {
      target,
      line: analysis.source.position(call.start).line + 1,
      where: site.where,
      frequency: site.frequency,
      reason: site.reason,
      ...(site.compiled ? { compiled: site.compiled } : {}),
      gpu: analysis.assumesGpu(call),
      arguments: passedArguments(call, text),
      ...(argumentKinds ? { argumentKinds } : {}),
      tensors: passesTensors(call, analysis),
      ...(read ? { read } : {}),
      ...(onOwnInstance ? { onOwnInstance } : {}),
    });
  };

  analysis.scopes.module.bindings.forEach((bindings, name) => {
    const imported = bindings.filter((binding) => binding.kind === "import");
    if (imported.length === 0) return;
    const targets = new Map<Binding, string>();
    for (const binding of imported) {
      const target = importedName(binding, text);
      if (!target || !isProjectTarget(target)) continue;
      targets.set(binding, target);
      imports[name] = target;
    }
    if (targets.size === 0) return;
    for (const node of identifiersNamed(analysis.source.text, name, root)) {
      const binding = resolveBinding(name, node.start, scopeOf(node, analysis.scopes));
      const target = binding && targets.get(binding);
      if (!target) continue;
      const called = calledThrough(node, text);
      const construct = (callee: string, passed: PassedArguments) => {
        const known = constructions.get(callee) ?? constructions.set(callee, new Map()).get(callee)!;
        known.set(JSON.stringify(passed), passed);
      };
      // `class MyLoss(ComputeLoss)`, `partial(ComputeLoss, ...)`: constructed in ways this file does not show.
      if (!called && node.parent?.type !== "import_from_statement" && node.parent?.type !== "dotted_name" && node.parent?.type !== "aliased_import" && CLASS_NAME.test(name)) construct(target, UNKNOWN_CONSTRUCTION);
      if (!called) continue;
      const callee = `${target}${called.path}`;
      // `compute_loss = ComputeLoss(model)`, hot or not: what the class keeps may settle its methods' branches;
      // unless the file then sets the instance's attributes itself (`compute_loss.autobalance = True`).
      const constructed = CLASS_NAME.test(lastName(callee)) ? (setsAttributeOf(called.call, root, text) ? UNKNOWN_CONSTRUCTION : passedArguments(called.call, text)) : undefined;
      if (constructed) construct(callee, constructed);
      recordLoader(called.call, callee);
      record(called.call, callee);
      // `logger = utils.MetricLogger()` ... `logger.update(loss=loss)`: the methods of the instance, called on an
      // instance this file constructs when a class (not a factory function) was called.
      for (const method of methodCallsOn(called.call, analysis.hotPaths.instanceSource)) record(method.call, `${callee}.${method.name}`, method.read, constructed ? true : undefined);
    }
  });
  const { functions, properties } = importableFunctions(root, text);
  // `class LlavaLlamaForCausalLM(LlamaForCausalLM, LlavaMetaForCausalLM)`, then `self.prepare_inputs_labels_for_multimodal(...)`
  // in its `forward`: a method none of the file's classes defines comes from a base class another file defines.
  for (const [cls, info] of analysis.classes) {
    const bases = (childByField(cls, "superclasses")?.children ?? []).flatMap((base) => {
      const name = base.type === "identifier" ? text.slice(base.start, base.end) : "";
      return Object.prototype.hasOwnProperty.call(imports, name) ? [imports[name]] : [];
    });
    if (bases.length === 0) continue;
    forEachNode(cls, (node) => {
      const callee = node.type === "call" ? childByField(node, "function") : undefined;
      const object = callee?.type === "attribute" ? childByField(callee, "object") : undefined;
      if (!callee || object?.type !== "identifier" || text.slice(object.start, object.end) !== "self") return;
      const method = text.slice(childByField(callee, "attribute")!.start, callee.end);
      if (Object.prototype.hasOwnProperty.call(functions, `${info.name}.${method}`) || info.attributes.has(method)) return;
      for (const base of bases) record(node, `${base}.${method}`);
    });
  }
  const starImports = root.children.filter((statement) => statement.type === "import_from_statement" && statement.children.some((child) => child.type === "wildcard_import")).flatMap((statement) => {
    const module = childByField(statement, "module_name");
    const target = module && text.slice(module.start, module.end).replace(/\s+/g, "");
    return target && isProjectTarget(target) ? [target] : [];
  });
  // `from utils import *` ... `accuracy(scores, targets, 5)`: a name the file never binds comes from one of the
  // modules it imports everything from; the project finds which of them defines it.
  if (starImports.length > 0) {
    forEachNode(root, (node) => {
      const callee = node.type === "call" ? childByField(node, "function") : undefined;
      if (callee?.type !== "identifier") return;
      const name = text.slice(callee.start, callee.end);
      if (PYTHON_BUILTINS.has(name) || resolveBinding(name, callee.start, scopeOf(callee, analysis.scopes))) return;
      for (const module of starImports) record(node, `${module}.${name}`);
    });
  }
  const calls = [...byTarget.values()].sort((a, b) => a.line - b.line || (a.target < b.target ? -1 : 1));
  const options = classesWithOptions(analysis);
  const optionLinks = argumentOptionLinks(analysis);
  return {
    calls,
    imports,
    functions,
    ...(starImports.length > 0 ? { starImports } : {}),
    ...(properties.length > 0 ? { properties } : {}),
    ...(loaders.size > 0 ? { loaders: [...loaders.values()].sort((a, b) => a.line - b.line) } : {}),
    ...searchPathsOf(text),
    ...(options.length > 0 ? { options } : {}),
    ...(constructions.size > 0 ? { constructions: Object.fromEntries([...constructions].map(([callee, passed]) => [callee, [...passed.values()]])) } : {}),
    ...optionLinks,
    ...(analysis.mayUseGpu ? { mayUseGpu: true as const } : {}),
    ...(SCRIPT.test(text) ? { script: true as const } : {}),
  };
}

/** `if __name__ == "__main__":`, `args = parser.parse_args()`: what a script a person runs has. */
const SCRIPT = /^if\s+__name__\s*==\s*["']__main__["']|\.parse_(known_)?args\(/m;

/** What the file tells the project of argparse options: those it defines, sets and tests (`ProjectOption`). */
function argumentOptionLinks(analysis: FileAnalysis): Pick<ModuleLinks, "optionDefaults" | "optionsSet" | "optionsCleared" | "optionsTested"> {
  const text = analysis.source.text;
  const { written: set, cleared } = optionWrites(text);
  if (text.includes("set_defaults(")) for (const call of text.matchAll(/\bset_defaults\(([^)]*)\)/g)) for (const keyword of call[1].matchAll(/(\w+)\s*=(?!=)/g)) set.add(keyword[1]);
  if (setsAnyOption(text)) set.add("*");
  let defaults: Array<[string, OptionDefault]> = [];
  // Only a file that builds a parser defines options; the rest is cheaper read off the text.
  if (mayDefineOptions(text)) {
    const { defined, setInCode, setForProject } = analysis.hotPaths.ownOptions();
    if (!setInCode.has("*")) defaults = [...defined].filter(([name]) => !setInCode.has(name));
    for (const name of setForProject) set.add(name);
  }
  const tested = analysis.hotPaths.testedOptionsDefinedElsewhere().filter((name) => !set.has(name));
  return {
    ...(defaults.length > 0 ? { optionDefaults: Object.fromEntries(defaults) } : {}),
    ...(set.size > 0 ? { optionsSet: [...set].sort() } : {}),
    ...(cleared.size > 0 ? { optionsCleared: [...cleared].filter((name) => !set.has(name)).sort() } : {}),
    ...(tested.length > 0 ? { optionsTested: tested } : {}),
  };
}

/** A construction whose arguments are not known (`*args`): it settles no option. */
const UNKNOWN_CONSTRUCTION: PassedArguments = { positional: 0, keywords: {}, spread: true };

/** `loss = ComputeLoss(model)`, then `loss.<attribute> = ...` (not in a comment) in the same scope. */
function setsAttributeOf(call: SyntaxNode, root: SyntaxNode, text: string): boolean {
  const left = call.parent?.type === "assignment" && call.field === "right" ? childByField(call.parent, "left") : undefined;
  if (left?.type !== "identifier") return false;
  const scope = enclosingFunctionOf(call) ?? root;
  const name = text.slice(left.start, left.end);
  for (const write of attributeWrites(text.slice(scope.start, scope.end))) if (write.owner === name && !write.inComment) return true;
  return false;
}

/**
 * The top-level classes that keep attributes of `self` from parameters of their `__init__` and test them
 * (`self.autobalance = autobalance`, then `if self.autobalance:`): what other files' constructions pass for them
 * may settle those tests (`HotPaths.constructorOption`).
 */
function classesWithOptions(analysis: FileAnalysis): string[] {
  return [...analysis.classes.keys()].filter((cls) => isTopLevel(cls) && analysis.hotPaths.constructorOptionsOf(cls).length > 0).map((cls) => analysis.text(childByField(cls, "name")!));
}

const SYS_PATH_ADDITION = /\bsys\.path\.(?:append|insert)\(\s*(?:\d+\s*,\s*)?[rRuU]?(["'])([^"'\n]+)\1\s*\)/g;

/** `sys.path.append('core')`, `sys.path.insert(0, "../src")`: folders written as literals (RAFT's `train.py` then imports `datasets` from `core/`). */
function searchPathsOf(text: string): { searchPaths?: string[] } {
  if (!text.includes("sys.path")) return {};
  const found = new Set<string>();
  for (const match of text.matchAll(SYS_PATH_ADDITION)) found.add(match[2]);
  return found.size > 0 ? { searchPaths: [...found] } : {};
}

/** The functions other modules can call by name (`ModuleLinks.functions`), and the classes' properties among them. */
function importableFunctions(root: SyntaxNode, text: string): { functions: Record<string, string>; properties: string[] } {
  const functions: Record<string, string> = {};
  const properties: string[] = [];
  const nameOf = (node: SyntaxNode) => {
    const name = childByField(node, "name");
    return name ? text.slice(name.start, name.end) : "";
  };
  const definitionOf = (node: SyntaxNode) => (node.type === "decorated_definition" ? childByField(node, "definition") : node);
  const methods = new Map<string, string[]>();
  const bases = new Map<string, string[]>();
  for (const statement of root.children) {
    const definition = definitionOf(statement);
    if (definition?.type === "function_definition") functions[nameOf(definition)] = nameOf(definition);
    if (definition?.type !== "class_definition") continue;
    const className = nameOf(definition);
    const own: string[] = [];
    for (const member of childByField(definition, "body")?.children ?? []) {
      const method = definitionOf(member);
      if (method?.type !== "function_definition") continue;
      own.push(nameOf(method));
      if (isProperty(method, text)) properties.push(`${className}.${nameOf(method)}`);
    }
    methods.set(className, own);
    const superclasses = childByField(definition, "superclasses");
    bases.set(className, (superclasses?.children ?? []).filter((base) => base.type === "identifier").map((base) => text.slice(base.start, base.end)));
  }
  // Each class's methods, its own first, then its same-file bases' (depth first, as Python's order mostly is).
  for (const className of methods.keys()) {
    const seen = new Set<string>();
    const visit = (owner: string) => {
      if (seen.has(owner) || !methods.has(owner)) return;
      seen.add(owner);
      for (const method of methods.get(owner)!) functions[`${className}.${method}`] ??= `${owner}.${method}`;
      for (const base of bases.get(owner) ?? []) visit(base);
    };
    visit(className);
  }
  // `make_fcos_loss_evaluator(cfg)` returns an `FCOSLossComputation`: what is called on its result is that class's.
  for (const statement of root.children) {
    const definition = definitionOf(statement);
    if (definition?.type !== "function_definition") continue;
    const made = classReturned(definition, text);
    if (!made || !methods.has(made)) continue;
    const prefix = `${made}.`;
    for (const [name, runs] of Object.entries(functions)) if (name.startsWith(prefix)) functions[`${nameOf(definition)}.${name.slice(prefix.length)}`] ??= runs;
  }
  return { functions, properties };
}

/**
 * The class of the file whose instance every `return` of `fn` returns: `return Cls(cfg)`, or `evaluator =
 * Cls(cfg)` in the function's body and then `return evaluator`.
 */
function classReturned(fn: SyntaxNode, text: string): string | undefined {
  const returns = returnStatementsOf(fn);
  if (returns.length === 0) return undefined;
  const constructed = (value: SyntaxNode | undefined): string | undefined => {
    const callee = value?.type === "call" ? childByField(value, "function") : undefined;
    return callee?.type === "identifier" ? text.slice(callee.start, callee.end) : undefined;
  };
  let made: string | undefined;
  for (const statement of returns) {
    let value: SyntaxNode | undefined = statement.children[0];
    if (value?.type === "identifier") {
      const name = text.slice(value.start, value.end);
      const assignments = (childByField(fn, "body")?.children ?? []).flatMap((each) => {
        const assignment = each.type === "expression_statement" ? each.children[0] : undefined;
        const left = assignment?.type === "assignment" ? childByField(assignment, "left") : undefined;
        return left?.type === "identifier" && text.slice(left.start, left.end) === name ? [childByField(assignment!, "right")] : [];
      });
      value = assignments.length === 1 ? assignments[0] : undefined;
    }
    const cls = constructed(value);
    if (!cls || (made && made !== cls)) return undefined;
    made = cls;
  }
  return made;
}

/** Kinds of value that are never tensors, nor hold them. */
const NOT_TENSORS = new Set(["scalar", "numpy", "namespace", "module", "loader", "device-loader", "self"]);

/** Whether any argument of `call` (spread ones too) may be a tensor or hold one. */
function passesTensors(call: SyntaxNode, analysis: FileAnalysis): boolean {
  for (const argument of childByField(call, "arguments")?.children ?? []) {
    const value = argument.type === "keyword_argument" ? childByField(argument, "value") : argument.type === "list_splat" || argument.type === "dictionary_splat" ? argument.children[0] : argument;
    if (!value || !NOT_TENSORS.has(analysis.tensorEvidence(value).kind)) return true;
  }
  return false;
}

const ARGUMENT_KINDS = new Set(["cpu", "numpy", "batch", "gpu"]);

/** Where the arguments of `call` live, by keyword name or positional index, where its file knows; none past a splat. */
function argumentKindsOf(call: SyntaxNode, analysis: FileAnalysis): ArgumentKinds | undefined {
  const kinds: Record<string, ArgumentKind> = {};
  let position = 0;
  for (const argument of childByField(call, "arguments")?.children ?? []) {
    if (argument.type === "list_splat" || argument.type === "dictionary_splat") break;
    const keyword = argument.type === "keyword_argument" ? childByField(argument, "name") : undefined;
    const value = argument.type === "keyword_argument" ? childByField(argument, "value") : argument;
    const key = keyword ? analysis.text(keyword) : String(position++);
    const kind = value ? analysis.tensorEvidence(value).kind : "unknown";
    if (ARGUMENT_KINDS.has(kind)) kinds[key] = kind as ArgumentKind;
  }
  return Object.keys(kinds).length > 0 ? kinds : undefined;
}

/**
 * The argument kinds two sets of calls agree on, if any (a key left out: the calls do not know). A GPU tensor
 * passed by some hot calls, and by none of the others known to be on the host, is on the GPU on those calls' path,
 * where whatever it costs in the callee is paid each time; host memory must be what every call passes.
 */
export function agreedKinds(a: ArgumentKinds | undefined, b: ArgumentKinds | undefined): ArgumentKinds | undefined {
  const agreed: Record<string, ArgumentKind> = {};
  // A call that passes host data at all (by position or by keyword, which this cannot match up) may pass it there.
  const passesHostData = (kinds: ArgumentKinds | undefined) => Object.values(kinds ?? {}).some((kind) => kind !== "gpu");
  for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
    const kinds = [a?.[key], b?.[key]];
    if (kinds[0] === kinds[1]) agreed[key] = kinds[0]!;
    else if (kinds.includes("gpu") && !passesHostData(kinds[0] === undefined ? a : b) && kinds.includes(undefined)) agreed[key] = "gpu";
  }
  return Object.keys(agreed).length > 0 ? agreed : undefined;
}

/** The call whose callee is `name` or `name.a.b`, and the attribute path after the name (`.a.b`). */
function calledThrough(name: SyntaxNode, text: string): { call: SyntaxNode; path: string } | undefined {
  let callee = name;
  let path = "";
  while (callee.field === "object" && callee.parent?.type === "attribute") {
    const attribute = childByField(callee.parent, "attribute");
    if (!attribute) return undefined;
    path += `.${text.slice(attribute.start, attribute.end)}`;
    callee = callee.parent;
  }
  const call = callee.parent;
  return call?.type === "call" && callee.field === "function" ? { call, path } : undefined;
}
