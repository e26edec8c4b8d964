/**
 * The one analysis pass per file that every rule shares: scopes, classes, tensor evidence, hot paths.
 * Everything is computed lazily and memoised, so a file with nothing to report costs little.
 */
import { SyntaxNode, SyntaxTree, childByField, ownString, unparenthesized } from "../syntax";
import { SourceText } from "../source-text";
import { collectScopes, Scopes } from "./scopes";
import { ClassInfo, Evidence, EvidenceEnvironment, TensorEvidence, keywordArgument, positionalArguments, stringValue } from "./tensor-evidence";
import { HotPaths, SiteContext } from "./hot-paths";
import { HOST_ONLY_ENTRY, isProjectTarget, type HotEntries } from "./cross-file";
import { importedModules } from "./class-names";
import { mentionsADevice } from "./names";

export interface AnalysisOptions {
  extraStepFunctions?: readonly string[];
  /** The top-level statements that mention a name (where its call sites can be), if known. */
  statementsMentioning?: (name: string) => ReadonlySet<SyntaxNode> | undefined;
  /** The top-level statements that bind a name in the module scope (or more), if known. */
  statementsBinding?: (name: string) => ReadonlySet<SyntaxNode> | undefined;
  /** This file's functions that other files call from hot paths. */
  hotEntries?: HotEntries;
}

export class FileAnalysis {
  readonly scopes: Scopes;
  readonly classes: Map<SyntaxNode, ClassInfo>;
  readonly evidence: TensorEvidence;
  readonly hotPaths: HotPaths;
  /** The file is PyTorch code (`importsTorch`): without evidence, a tensor-looking value may be assumed to be on a GPU. */
  readonly importsTorch: boolean;
  /** The project never puts anything on a GPU (`HostOnlyProject`): its syncs wait for nothing. */
  readonly hostOnlyProject: boolean;
  /** The file mentions a device or an accelerator (`.to(`, `cuda`, `device`, ...). */
  readonly mentionsDevice: boolean;
  /** `torch.set_default_device(...)` or similar: factory functions without `device=` may allocate on a GPU. */
  readonly defaultDeviceChanged: boolean;
  /** The file may put tensors on a GPU (`TextFlags.mayUseGpu`). */
  readonly mayUseGpu: boolean;
  private readonly contexts = new Map<SyntaxNode, SiteContext>();
  private readonly extraStepFunctions: ReadonlySet<string>;

  constructor(readonly tree: SyntaxTree, readonly source: SourceText, options: AnalysisOptions = {}) {
    const text = source.text;
    this.extraStepFunctions = new Set(options.extraStepFunctions ?? []);
    this.scopes = collectScopes(tree.root, text, options.statementsBinding);
    this.classes = collectClasses(tree.root, text);
    const flags = textFlags(text);
    this.importsTorch = flags.importsTorch;
    this.hostOnlyProject = !!options.hotEntries && Object.prototype.hasOwnProperty.call(options.hotEntries, HOST_ONLY_ENTRY);
    this.mentionsDevice = flags.mentionsDevice;
    this.defaultDeviceChanged = flags.defaultDeviceChanged;
    this.mayUseGpu = flags.mayUseGpu;
    const environment: EvidenceEnvironment = {
      text,
      scopes: this.scopes,
      classes: this.classes,
      defaultDeviceChanged: this.defaultDeviceChanged,
      mayUseGpu: this.mayUseGpu,
    };
    this.evidence = new TensorEvidence(environment);
    this.hotPaths = new HotPaths({
      text,
      root: tree.root,
      scopes: this.scopes,
      evidence: this.evidence,
      lineOf: (offset) => source.position(offset).line,
      extraStepFunctions: this.extraStepFunctions,
      statementsMentioning: options.statementsMentioning,
      hotEntries: options.hotEntries,
    });
    // What the file's calls pass tells the evidence what a parameter is (`device="cpu"` left at its default).
    environment.leftAtDefault = (parameter) => this.hotPaths.callsLeaveDefault(parameter);
    environment.passedByEveryCall = (parameter) => this.hotPaths.argumentsOfEveryCall(parameter);
    environment.passedToNamedLambda = (lambda, index) => this.hotPaths.argumentsOfNamedLambda(lambda, index);
    environment.replacesForward = (fn) => this.hotPaths.replacesForward(fn);
    environment.argumentKindFromOtherFile = (parameter) => this.hotPaths.argumentKindFromOtherFile(parameter);
    environment.deviceTest = (condition) => this.hotPaths.deviceTest(condition);
  }

  text(node: SyntaxNode): string {
    return this.source.text.slice(node.start, node.end);
  }

  /** How often `node` runs and why (memoised per node). */
  contextOf(node: SyntaxNode): SiteContext {
    let context = this.contexts.get(node);
    if (!context) {
      context = this.hotPaths.contextOf(node);
      this.contexts.set(node, context);
    }
    return context;
  }

  /**
   * May a value without positive GPU evidence at `node` be assumed to live on a GPU? In a file that never
   * mentions a device, a loop over batches that are never moved runs on the CPU; but `nn.Module` methods,
   * compiled code and `*_step` methods run wherever the caller put the model, so they still count; so does a
   * function that another file's GPU code calls from a hot path, even in a module that never imports torch.
   */
  assumesGpu(node: SyntaxNode): boolean {
    if (!this.importsTorch) return this.contextOf(node).gpuCaller === true;
    if (this.mentionsDevice) return true;
    const site = this.contextOf(node);
    if (site.compiled || site.gpuCaller) return true;
    for (let current = node.parent; current; current = current.parent) {
      if (current.type === "function_definition") {
        const name = childByField(current, "name");
        if (name && (/(^|_)step$/.test(this.text(name)) || this.extraStepFunctions.has(this.text(name)))) return true;
      }
      if (current.type === "class_definition") return this.classes.get(current)?.isModule ?? false;
    }
    return false;
  }

  tensorEvidence(node: SyntaxNode): Evidence {
    return this.evidence.of(node);
  }
}

/** What the analysis reads from the whole text rather than from statements. */
export function textFlags(text: string): TextFlags {
  // The incremental linter asks before the analysis does, of the same text.
  if (lastFlags?.text === text) return lastFlags.flags;
  const mentionsDevice = mentionsADevice(text);
  const defaultDeviceChanged = /set_default_device|set_default_tensor_type\(\s*['"]?(torch\.)?cuda|with\s+torch\.device\(/.test(text);
  const flags = {
    importsTorch: importsTorch(text) || trainsOnDevice(text, mentionsDevice),
    mentionsDevice,
    defaultDeviceChanged,
    mayUseGpu: mayUseGpu(text, mentionsDevice, defaultDeviceChanged),
  };
  lastFlags = { text, flags };
  return flags;
}

/** `os.environ["CUDA_VISIBLE_DEVICES"] = ""`: no GPU is visible to the process (pytorch-a3c's `main.py`). */
const HIDES_GPUS = /os\.environ\[\s*["']CUDA_VISIBLE_DEVICES["']\s*\]\s*=\s*(""|'')/g;
/** Frameworks that move models and batches to a GPU themselves, with no device in the user's code. */
const PLACING_FRAMEWORK = /^[ \t]*(from|import)[ \t]+(transformers|pytorch_lightning|lightning|accelerate|deepspeed|mmengine|mmcv|mmdet|detectron2|fairseq|ignite|fastai|composer|ray|trl|peft|stable_baselines3|torchrl|colossalai|megatron)\b/m;

function mayUseGpu(text: string, mentionsDevice: boolean, defaultDeviceChanged: boolean): boolean {
  if (defaultDeviceChanged || PLACING_FRAMEWORK.test(text)) return true;
  // `mentionsDevice` is `mentionsADevice` of the whole text: scanned again only without the lines that hide the GPUs.
  if (!mentionsDevice) return false;
  return !text.includes("CUDA_VISIBLE_DEVICES") || mentionsADevice(text.replace(HIDES_GPUS, ""));
}

/**
 * The file is PyTorch code: it imports torch, for more than TensorBoard's writer (`from torch.utils.tensorboard
 * import SummaryWriter` in a JAX script), and does not import JAX or Flax, whose arrays its values would be.
 */
function importsTorch(text: string): boolean {
  // Runs on every file: a substring test first, and the scan stops at the first import beyond TensorBoard's.
  if ((text.includes("jax") || text.includes("flax")) && /^[ \t]*(import[ \t]+(jax|flax)\b|from[ \t]+(jax|flax)[ \t.])/m.test(text)) return false;
  const imports = /^[ \t]*(import[ \t]+torch\b|from[ \t]+torch[ \t.]).*$/gm;
  for (let match = imports.exec(text); match; match = imports.exec(text)) {
    if (!/^\s*from\s+torch\.utils\.tensorboard\s+import\b/.test(match[0])) return true;
  }
  // `from ...openaimodel import *`, then `th.Tensor`, `nn.Module`: torch's names reached through a star import.
  return text.includes("import *") && /^[ \t]*from[ \t]+\S+[ \t]+import[ \t]+\*/m.test(text) && /\b(torch|th)\.[A-Za-z_]|\bnn\.Module\b/.test(text);
}

/**
 * A file that runs backward passes and moves data to a device, without importing torch itself: torchreid's
 * `ImageSoftmaxEngine.forward_backward` gets its tensors and its `Engine` through the project's own modules, which
 * it imports.
 * Not a file of another framework with the same names (MXNet's and Paddle's `loss.backward()`).
 */
function trainsOnDevice(text: string, mentionsDevice: boolean): boolean {
  if (!mentionsDevice || !text.includes(".backward(")) return false;
  if (/^[ \t]*(import|from)[ \t]+(jax|flax|mxnet|paddle|tensorflow|chainer|mindspore|oneflow|megengine)\b/m.test(text)) return false;
  return importedModules(text).some(isProjectTarget);
}

interface TextFlags {
  importsTorch: boolean;
  mentionsDevice: boolean;
  defaultDeviceChanged: boolean;
  /**
   * The file may put tensors on a GPU: it mentions a device (`mentionsADevice`; not in hiding every GPU with
   * `os.environ["CUDA_VISIBLE_DEVICES"] = ""`), changes the default one, or imports a framework that places
   * models itself (Lightning, Hugging Face's `Trainer` and `accelerate`, DeepSpeed, ...).
   */
  mayUseGpu: boolean;
}
let lastFlags: { text: string; flags: TextFlags } | undefined;

const MODULE_BASE = /(^|\.)(Module|LightningModule|Sequential|ModuleList|ModuleDict|Metric)$|Model$|Net$|Network$|Layer$|Block$|Encoder$|Decoder$|Head$|Attention$|MLP$|Loss$/;

/** The classes of one top-level statement, with what each declares of itself; reused while the statement is unchanged. */
interface DeclaredClass {
  info: ClassInfo;
  bases: string[];
  /** A module by its own bases (`nn.Module`, `...Model`), before other classes of the file are known. */
  moduleByBases: boolean;
}
const classesByStatement = new WeakMap<SyntaxNode, DeclaredClass[]>();

/** Classes of the file, whether they are `nn.Module`s, and what their `self.` attributes hold. */
function collectClasses(root: SyntaxNode, text: string): Map<SyntaxNode, ClassInfo> {
  const classes = new Map<SyntaxNode, ClassInfo>();
  const byName = new Map<string, ClassInfo>();
  const pending: DeclaredClass[] = [];
  // Last statement first, as a walk over the whole file met them: of two classes of one name, the first wins.
  for (let i = root.children.length - 1; i >= 0; i--) {
    const statement = root.children[i];
    let declared = classesByStatement.get(statement);
    if (!declared) {
      declared = declaredClasses(statement, text);
      classesByStatement.set(statement, declared);
    }
    // Indexed: this loop runs per keystroke over every statement, often before V8 has optimised it.
    for (let k = 0; k < declared.length; k++) {
      const entry = declared[k];
      entry.info.isModule = entry.moduleByBases;
      classes.set(entry.info.node, entry.info);
      byName.set(entry.info.name, entry.info);
      pending.push(entry);
    }
  }
  // A subclass of a module class of this file is a module too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const { info, bases } of pending) {
      if (!info.isModule && bases.some((base) => byName.get(base)?.isModule)) {
        info.isModule = true;
        changed = true;
      }
    }
  }
  return classes;
}

function declaredClasses(statement: SyntaxNode, text: string): DeclaredClass[] {
  const declared: DeclaredClass[] = [];
  const stack = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    // A class is a statement: expressions never hold one, and they are most of a file's nodes.
    if (node.type === "expression_statement" || node.type === "return_statement") continue;
    for (const child of node.children) stack.push(child);
    if (node.type !== "class_definition") continue;
    const nameNode = childByField(node, "name");
    const name = nameNode ? ownString(text.slice(nameNode.start, nameNode.end)) : "";
    const superclasses = childByField(node, "superclasses");
    const bases = (superclasses?.children ?? []).filter((c) => c.type !== "keyword_argument").map((c) => ownString(text.slice(c.start, c.end)));
    const moduleByBases = bases.some((base) => MODULE_BASE.test(base));
    const info: ClassInfo = { node, name, isModule: moduleByBases, attributes: new Map(), tensorAttributes: new Set(), methods: new Map() };
    collectMembers(info, text);
    declared.push({ info, bases, moduleByBases });
  }
  return declared;
}

function collectMembers(info: ClassInfo, text: string): void {
  const body = childByField(info.node, "body");
  for (const statement of body?.children ?? []) {
    const fn = statement.type === "decorated_definition" ? childByField(statement, "definition") : statement;
    if (fn?.type !== "function_definition") continue;
    const nameNode = childByField(fn, "name");
    if (nameNode) info.methods.set(ownString(text.slice(nameNode.start, nameNode.end)), fn);
    const stack = [...fn.children];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === "function_definition" || node.type === "class_definition") continue;
      stack.push(...node.children);
      if (node.type === "assignment") {
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        const attribute = left && selfAttribute(left, text);
        if (attribute && right) {
          const list = info.attributes.get(attribute) ?? [];
          list.push(right);
          info.attributes.set(attribute, list);
          if (/^(nn\.|torch\.nn\.)?Parameter\(/.test(text.slice(right.start, right.end))) info.tensorAttributes.add(attribute);
        }
      } else if (node.type === "call") {
        const callee = childByField(node, "function");
        if (!callee || callee.type !== "attribute") continue;
        const method = text.slice(childByField(callee, "attribute")!.start, callee.end);
        // torchmetrics' `self.add_state("cer", default=torch.tensor(0), ...)`: a buffer of the metric module (a list default is no tensor).
        const [nameArgument, defaultArgument] = positionalArguments(node);
        const stateDefault = method === "add_state" ? (keywordArgument(node, "default", text) ?? defaultArgument) : undefined;
        if (method !== "register_buffer" && method !== "register_parameter" && !(stateDefault && /^torch\.(tensor|zeros|ones|full|empty)\(/.test(text.slice(stateDefault.start, stateDefault.end)))) continue;
        const nameLiteral = nameArgument ? unparenthesized(nameArgument) : undefined;
        if (nameLiteral?.type === "string") info.tensorAttributes.add(ownString(stringValue(text.slice(nameLiteral.start, nameLiteral.end))));
      }
    }
  }
}

function selfAttribute(node: SyntaxNode, text: string): string | undefined {
  if (node.type !== "attribute") return undefined;
  const object = childByField(node, "object");
  const attribute = childByField(node, "attribute");
  if (!object || !attribute || text.slice(object.start, object.end) !== "self") return undefined;
  return ownString(text.slice(attribute.start, attribute.end));
}

export { keywordArgument, positionalArguments };
