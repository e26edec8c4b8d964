/**
 * Which values are tensors, and can they live on a GPU? Decided from local evidence only: the calls that
 * built a value, the methods applied to it, annotations, what a loop iterates, names of modules and
 * loaders. Unknown stays unknown; each rule decides whether unknown is enough to report.
 */
import { TENSOR_METHODS } from "./tensor-methods";
import { SyntaxNode, childByField, childrenByField, contains, enclosingFunctionOf, nodeAt, ownString, parameterName, returnStatementsOf, unparenthesized } from "../syntax";
import type { ArgumentKind } from "./cross-file";
import { Binding, Scope, Scopes, assignedValue, identifiersNamed, previousBinding, resolveBinding, scopeOf } from "./scopes";
import { CLASS_NAME, COUNTER_NAME, CPU_DEVICE_NAME, DATA_ITERABLE_NAME, DEVICE_GETTER, DEVICE_NAME, DICT_NAME, FLAG_PARAMETER_NAME, HOST_TENSOR_TYPE, HYPERPARAMETER_NAME, INTEGER_PARAMETER_NAME, MODEL_INPUT_METHOD, MODULE_NAME, MODULE_SETUP_METHOD, SIZE_PARAMETER_NAME, RETURNS_MODULE, STRING_PARAMETER_NAME, TOKENIZER_NAME, lastName } from "./names";

export type EvidenceKind =
  /** A tensor with positive evidence of living on an accelerator (moved there, a model's output, ...). */
  | "gpu"
  /** A tensor whose device is not known. */
  | "tensor"
  /** A tensor known to be on the CPU. */
  | "cpu"
  /** What a data loader yields: CPU tensors, or tuples/dicts of them. */
  | "batch"
  | "numpy"
  /** A Python number, bool, string, dtype, device or shape. */
  | "scalar"
  /** A list, tuple, dict or set (its elements are unknown). */
  | "container"
  | "module"
  | "loader"
  /** A loader that puts its batches on the accelerator itself: accelerate's `prepare`, Fabric's `setup_dataloaders`. */
  | "device-loader"
  | "self"
  /** An imported module (`np`, `math`): calling its functions says nothing about tensors. */
  | "namespace"
  | "unknown";

export interface Evidence {
  kind: EvidenceKind;
  /** Why, in a few words, for messages and hovers ("the output of `model(...)`"). */
  reason: string;
  /** A dict: indexing it with a tensor hashes the tensor by identity and reads nothing from the GPU. */
  mapping?: boolean;
  /** What every value of a dict is, where it is known (`{k: v.to(device) for k, v in batch.items()}`, `dict[str, Tensor]`). */
  values?: Evidence;
  /** Moved to the GPU whole (`data = data.to(device)`, a batch a device loader yields): its tensor attributes are there too. */
  moved?: boolean;
}

export const UNKNOWN: Evidence = { kind: "unknown", reason: "no evidence" };

export function isTensorKind(kind: EvidenceKind): boolean {
  return kind === "gpu" || kind === "tensor" || kind === "cpu" || kind === "batch";
}

export type DeviceKind = "gpu" | "cpu" | "not-device" | "unknown";

/** Everything the evidence needs to know about the file. */
export interface EvidenceEnvironment {
  text: string;
  scopes: Scopes;
  classes: Map<SyntaxNode, ClassInfo>;
  /** `torch.set_default_device(...)` or similar: factory functions without `device=` may allocate on a GPU. */
  defaultDeviceChanged: boolean;
  /** The file may put tensors on a GPU (`FileAnalysis.mayUseGpu`): else a model it builds stays on the CPU (`modelOutput`). */
  mayUseGpu: boolean;
  /** Every call of the parameter's function in the file leaves it at its default (and there is one). */
  leftAtDefault?: (parameter: Binding) => boolean;
  /** What each call of the parameter's function in the file passes for it, if every call passes it (and there is one). */
  passedByEveryCall?: (parameter: Binding) => SyntaxNode[] | undefined;
  /** What each call of a lambda bound to a name passes for its parameter at `index`, if every call passes one. */
  passedToNamedLambda?: (lambda: SyntaxNode, index: number) => SyntaxNode[] | undefined;
  /** A function of the file assigned as a module's `forward` (`LlamaAttention.forward = forward`). */
  replacesForward?: (fn: SyntaxNode) => boolean;
  /** Where the values that the hot calls from other files pass for the parameter live, if they agree (`agreedKinds`). */
  argumentKindFromOtherFile?: (parameter: Binding) => ArgumentKind | undefined;
  /** Whether a test holds only with a CUDA device ("cuda") or only without one ("other"): `if cfg.NUM_GPUS:`, `if device == "mps":`. */
  deviceTest?: (condition: SyntaxNode) => "cuda" | "other" | undefined;
}

export interface ClassInfo {
  node: SyntaxNode;
  name: string;
  isModule: boolean;
  /** `self.<name> = <value>` assignments, in source order. */
  attributes: Map<string, SyntaxNode[]>;
  /** `self.register_buffer("<name>", ...)` and `nn.Parameter` attributes. */
  tensorAttributes: Set<string>;
  methods: Map<string, SyntaxNode>;
}

const NON_TENSOR_TORCH_FUNCTIONS = new Set([
  "is_tensor", "is_storage", "is_floating_point", "is_complex", "is_nonzero", "numel", "get_default_dtype",
  "set_default_dtype", "manual_seed", "seed", "initial_seed", "device", "dtype", "Size", "Generator", "save",
  "compile", "no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "autocast", "get_rng_state",
  "set_rng_state", "use_deterministic_algorithms", "set_printoptions", "set_num_threads", "get_num_threads",
  "finfo", "iinfo", "is_grad_enabled", "is_inference_mode_enabled", "typename", "result_type", "promote_types",
  "can_cast", "set_default_device", "get_default_device", "set_float32_matmul_precision", "is_autocast_enabled",
  "set_anomaly_enabled", "cond", "vmap", "stack_trace", "equal", "allclose", "is_same_size",
]);
const TENSOR_NAMESPACES = ["torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special", "torch.nested"];
/** The legacy constructors of the CPU tensor types: `torch.Tensor(data)`, `torch.FloatTensor(data)`, ... */
const LEGACY_CPU_CONSTRUCTOR = /^(Tensor|(Float|Double|Half|BFloat16|Long|Int|Short|Char|Byte|Bool)Tensor)$/;
const FACTORY_FUNCTIONS = new Set([
  "tensor", "as_tensor", "asarray", "zeros", "ones", "empty", "full", "rand", "randn", "randint", "randperm",
  "arange", "range", "linspace", "logspace", "eye", "tril_indices", "triu_indices", "empty_strided", "scalar_tensor",
  "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
]);
const LIKE_FACTORIES = /_like$/;
const NON_TENSOR_METHODS = new Set([
  "item", "size", "dim", "numel", "nelement", "element_size", "stride", "data_ptr", "is_contiguous", "get_device",
  "is_floating_point", "is_complex", "ndimension", "storage_offset", "is_pinned", "is_set_to", "equal", "__len__",
  "untyped_storage", "has_names", "is_shared", "dim_order", "is_signed", "is_inference", "allclose", "is_same_size",
]);
/** Methods that only tensors have (not numpy arrays, lists or Python numbers). */
const TORCH_ONLY_METHODS = new Set([
  "cuda", "detach", "float", "half", "bfloat16", "double", "long", "int", "short", "bool", "byte", "contiguous",
  "unsqueeze", "masked_fill", "masked_fill_", "softmax", "log_softmax", "type_as", "new_zeros", "new_ones",
  "new_full", "new_empty", "new_tensor", "requires_grad_", "clone", "permute", "sigmoid", "relu", "view_as",
  "expand_as", "index_select", "gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "masked_scatter",
  "bmm", "mm", "norm", "narrow", "pow", "exp", "log", "sqrt", "rsqrt", "abs", "neg", "detach_", "zero_",
  "add_", "mul_", "div_", "sub_", "clamp", "clamp_", "clamp_min", "clamp_max", "lerp_", "addcmul_", "logsumexp",
  "isnan", "isinf", "isfinite", "logical_not", "logical_and", "logical_or", "eq", "ne", "gt", "lt", "ge", "le",
  "masked_select", "nonzero_static", "topk", "sort", "argsort", "cumsum", "t", "expand", "repeat_interleave",
  "float16", "to_dense", "to_sparse", "pin_memory", "unflatten", "movedim", "amax", "amin", "nansum", "nanmean",
]);
/** Methods of `str` that tensors, arrays and containers do not have. */
const STRING_METHODS = new Set([
  "startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip", "replace", "format", "join",
  "isdigit", "isalpha", "isalnum", "isspace", "casefold", "removeprefix", "removesuffix", "splitlines", "capitalize",
  "title", "zfill", "ljust", "rjust", "center", "partition", "rpartition",
]);
const TENSOR_ATTRIBUTES = new Set(["data", "T", "mT", "H", "mH", "real", "imag", "grad"]);
const SCALAR_ATTRIBUTES = new Set([
  "shape", "ndim", "dtype", "device", "is_cuda", "requires_grad", "is_leaf", "layout", "names", "grad_fn",
  "is_sparse", "is_quantized", "itemsize", "nbytes", "is_meta", "is_mps", "training",
]);
/** Attributes that count or size (PyG's `num_nodes`, `num_graphs`; `batch_size`): Python numbers on any object. */
const COUNT_ATTRIBUTE = /^(num|n)_|_(size|count|len|length)$|^(size|count|length)$/;
/** Attributes of model outputs (Hugging Face and similar) that hold tensors. */
/** Helpers named for moving their argument to a GPU (`dataclass_to_cuda_`, `move_to_device`, `batch_to_gpu`). */
const IN_PLACE_MOVER = /(^|_)(to_(cuda|gpu|device)|cuda)_?$/;

/** Ops that return a `(values, indices)` named tuple. */
const VALUES_INDICES_OP = /(^|\.)(topk|sort|max|min|kthvalue|mode|median|nanmedian|cummax|cummin)$/;
const OUTPUT_TENSOR_ATTRIBUTES = new Set(["grad", "logits", "loss", "last_hidden_state", "pooler_output"]);
const SCALAR_BUILTINS = new Set([
  "float", "int", "bool", "len", "str", "repr", "format", "isinstance", "issubclass", "hasattr", "callable", "id",
  "hash", "ord", "chr", "type", "print", "input", "open",
]);
const CONTAINER_BUILTINS = new Set(["list", "tuple", "dict", "set", "frozenset", "sorted", "reversed", "enumerate", "zip", "range", "map", "filter"]);
/** Names of collections of data loaders, by split: `dataloaders`, `data_loaders`, `loaders`. */
const LOADERS_NAME = /^(data_?)?loaders$|_(data_?)?loaders$/i;

/** Names of Python lists: `answer_list`, `img_list`. */
const LIST_NAME = /(^|_)list$/i;

/** The tensors of a tokenizer's or a processor's output (`BatchEncoding`, `BatchFeature`). */
const ENCODING_FIELD = /^(input_ids|attention_mask|token_type_ids|position_ids|pixel_values|input_features)$/;

/** Calls that give back the loader they wrap, to iterate over: `iter(loader)`, `cycle(loader)` (itertools', or a generator named so), `CycleIterator(loader)`. */
const LOADER_WRAPPER = /^(iter|cycle|(Cycl\w*|Infinite\w*|Endless\w*|Repeat\w*)(Iterator|Loader|Sampler)|infinite_loader|endless_loader)$/;

/** Calls that iterate over their first argument's own elements (`tqdm(loader)`, `iter(loader)`, `islice(loader, n)`). */
/**
 * Progress displays over a loader, by their last name, the loader given in any position (`ITERATION_WRAPPERS`
 * take it first): `progress_bar`, `self.progress(loader)`, `ProgressBar`, `track`, and the
 * `metric_logger.log_every(data_loader, print_freq, header)` of DETR, DeiT, MAE and torchvision's references.
 * Not a solver's own `self.log_progress(stage, loader)`, whose stages include sampling a few batches every few
 * epochs (audiocraft's `generate`: review 34 found 27 of its 42 findings false).
 */
const PROGRESS_WRAPPER = /^_*progress(_?bar)?$|^track$|^log_every$/i;
export const ITERATION_WRAPPERS = /^(tqdm|tqdm\.tqdm|tqdm\.auto\.tqdm|tqdm\.notebook\.tqdm|iter|islice|itertools\.islice|reversed|sorted|list|trange|progress_bar|track|rich\.progress\.track|cycle|itertools\.cycle)$/;

function evidence(kind: EvidenceKind, reason: string): Evidence {
  return { kind, reason };
}

/**
 * Answers evidence questions about one file. Results are memoised per node; recursion is bounded so
 * that pathological nesting (10,000 parentheses) degrades to "unknown" instead of overflowing the stack.
 */
/** The reason `nn.ModuleDict(...)` and `nn.ModuleList(...)` give as modules: their entries and items are modules too. */
const CONTAINER_ENTRY = "an entry of a container module";
/** Callables that by name build an object, not a tensor, even when given a device (`build_model(cfg, device=d)`). */
const MAKES_OBJECT = /^_*(load|build|create|make|get|init|setup|prepare|instantiate|wrap|from_pretrained|compile)(_|$)|model|net|loader|dataset|optimizer|pipeline|tokenizer|trainer|engine|sampler|cache/i;
const CONTAINER_MODULE = /^an `(ModuleDict|ModuleList|Sequential)` module|an entry of a container module/;
/** What an `nn.Module` has of its own, not an entry of a container module. */
const MODULE_METHOD = /^(keys|items|values|get|pop|update|append|extend|insert|to|cuda|cpu|half|float|double|bfloat16|type|train|eval|apply|parameters|buffers|children|modules|named_\w+|state_dict|load_state_dict|zero_grad|requires_grad_|register_\w+|training)$/;

/** `Trainer` of `class KTOTrainer(BaseTrainer):`, or `` for a class with no bases. */
function superclassesText(cls: SyntaxNode | undefined, text: string): string {
  const superclasses = cls && childByField(cls, "superclasses");
  return superclasses ? text.slice(superclasses.start, superclasses.end) : "";
}

/** Names of lists of names or keys: `names`, `loss_names`, `keys`. */
const NAMES_NAME = /^(\w+_)?(names|keys)$/;

/** The methods of a Hugging Face `Trainer` that receive the batch after `_prepare_inputs` moved it. */
const HF_TRAINER_METHOD = /^(compute_loss|training_step|prediction_step)$/;

export class TensorEvidence {
  private readonly memo = new Map<SyntaxNode, Evidence>();
  private readonly returnMemo = new Map<SyntaxNode, Evidence>();
  private readonly parameterMemo = new Map<Binding, Evidence>();
  private readonly moverMemo = new Map<Binding, SyntaxNode | undefined>();
  private readonly tupleMemo = new Map<SyntaxNode, SyntaxNode | undefined>();
  private mentionsCudaTypes: boolean | undefined;
  private depth = 0;
  private static readonly MAX_DEPTH = 40;

  constructor(private readonly env: EvidenceEnvironment) {}

  text(node: SyntaxNode): string {
    return this.env.text.slice(node.start, node.end);
  }

  of(node: SyntaxNode): Evidence {
    const cached = this.memo.get(node);
    if (cached) return cached;
    if (this.depth >= TensorEvidence.MAX_DEPTH) return UNKNOWN;
    this.depth++;
    this.memo.set(node, UNKNOWN); // breaks cycles through loop-carried bindings
    let result: Evidence;
    try {
      result = this.compute(node);
    } finally {
      this.depth--;
    }
    this.memo.set(node, result);
    return result;
  }

  private compute(raw: SyntaxNode): Evidence {
    const node = unparenthesized(raw);
    switch (node.type) {
      case "integer":
      case "float":
      case "true":
      case "false":
      case "none":
      case "string":
      case "concatenated_string":
        return evidence("scalar", "a Python literal");
      case "dictionary":
        return { kind: "container", reason: "a Python dict", mapping: true };
      case "dictionary_comprehension":
        return this.ofDictionaryComprehension(node);
      case "list":
      case "tuple":
      case "set":
      case "list_comprehension":
      case "set_comprehension":
      case "generator_expression":
        return evidence("container", "a Python container");
      case "identifier":
        return this.ofName(node);
      case "call":
        return this.ofCall(node);
      case "attribute":
        return this.ofAttribute(node);
      case "subscript":
        return this.ofSubscript(node);
      case "binary_operator": {
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        if (!left || !right) return UNKNOWN;
        const leftEvidence = this.of(left);
        if (node.tokens[0] === "%" && leftEvidence.kind === "scalar" && isStringNode(left)) return evidence("scalar", "a formatted string");
        // `"\033[92m" + prompt + "\033[0m" + continuation`: adding a string to a tensor raises; this is text.
        if (node.tokens[0] === "+" && (isStringValued(left) || isStringValued(right) || leftEvidence.reason === STRING_SUM)) return evidence("scalar", STRING_SUM);
        return combine(leftEvidence, this.of(right));
      }
      case "comparison_operator": {
        if (node.tokens.some((token) => token === "is" || token === "in" || token === "not" || token === "is not" || token === "not in"))
          return evidence("scalar", "an identity or membership test");
        // A tensor compared with a string is never an elementwise comparison (`mode == "image"`): a Python bool. Nor
        // with `None` (`param.grad != None`): the tensor's `__ne__` gives up and Python compares identities.
        if (node.children.some(isStringValued)) return evidence("scalar", "a comparison with a string");
        if (node.children.some(isNoneNode)) return evidence("scalar", "a comparison with `None`");
        let result: Evidence | undefined;
        const operands = node.children.map((operand) => this.of(operand));
        for (const operand of operands) result = result ? combine(result, operand) : operand;
        // `torch.rand(1) < p`: a tensor just made on the host, compared with values of unknown kind, is compared on
        // the host (a CUDA tensor beside a CPU one that is not 0-dim is an error).
        const made = node.children.find((operand) => this.madeOnHost(operand));
        if (made && operands.every((operand) => operand.kind === "cpu" || operand.kind === "scalar" || operand.kind === "unknown")) return { kind: "cpu", reason: `a comparison on the host (\`${this.text(made)}\` is made there)` };
        // `step % log_freq == 0` on values of unknown kind: a periodic guard's test of counters, not of tensors; so
        // is one of a counter by name (`iteration`, `self.steps[phase]`), even one restored from a checkpoint.
        const modulo = node.children.length === 2 && node.children.some((side) => side.type === "integer") ? node.children.map(unparenthesized).find((side) => side.type === "binary_operator" && side.tokens[0] === "%") : undefined;
        const dividend = modulo && childByField(modulo, "left");
        if (dividend && !isStringNode(dividend) && (!result || !isTensorKind(result.kind) || (result.kind !== "gpu" && namesCounter(dividend, this.env.text))))
          return evidence("scalar", "a modulo test of counters");
        if (result && isTensorKind(result.kind)) return { kind: result.kind, reason: `a comparison of tensors (${result.reason})` };
        return result && result.kind === "scalar" ? result : UNKNOWN;
      }
      case "unary_operator": {
        const operand = childByField(node, "argument") ?? node.children[0];
        return operand ? this.of(operand) : UNKNOWN;
      }
      case "not_operator":
        return evidence("scalar", "a Python bool");
      case "boolean_operator": {
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        if (!left || !right) return UNKNOWN;
        const a = this.of(left);
        const b = this.of(right);
        if (a.kind === b.kind) return a;
        // `torch.tensor(on_xla) or padding_mask.any()` (fairseq's encoder): whichever Python picks, a tensor.
        if (isTensorKind(a.kind) && isTensorKind(b.kind) && a.kind !== "batch" && b.kind !== "batch") return evidence("tensor", `one of two tensors (${a.reason}; ${b.reason})`);
        return UNKNOWN;
      }
      case "conditional_expression": {
        const [consequence, , alternative] = node.children;
        if (!consequence || !alternative) return UNKNOWN;
        const a = this.of(consequence);
        const b = this.of(alternative);
        if (a.kind === b.kind) return a;
        if (isNoneNode(alternative)) return a;
        if (isNoneNode(consequence)) return b;
        return UNKNOWN;
      }
      case "named_expression": {
        const value = childByField(node, "value");
        return value ? this.of(value) : UNKNOWN;
      }
      default:
        return UNKNOWN;
    }
  }

  /**
   * `torch.cuda.FloatTensor`, or a name assigned one, also in one branch of a conditional (`Tensor =
   * torch.cuda.FloatTensor if cuda else torch.FloatTensor`): the legacy CUDA tensor types.
   */
  isCudaTensorType(raw: SyntaxNode, depth = 0): boolean {
    this.mentionsCudaTypes ??= /torch\.cuda\.\w*Tensor\b/.test(this.env.text);
    if (!this.mentionsCudaTypes || depth > 3) return false;
    const node = unparenthesized(raw);
    if (node.type === "conditional_expression") {
      const [consequence, , alternative] = node.children;
      return (!!consequence && this.isCudaTensorType(consequence, depth + 1)) || (!!alternative && this.isCudaTensorType(alternative, depth + 1));
    }
    if (node.type === "attribute") return /^torch\.cuda\.\w*Tensor$/.test(this.qualifiedName(node) ?? "");
    if (node.type !== "identifier") return false;
    const value = assignedValue(node, this.env.text, this.env.scopes);
    return !!value && this.isCudaTensorType(value, depth + 1);
  }

  /** `imgs.type(Tensor)` with a CUDA tensor type (`isCudaTensorType`): a move to the GPU. The type, if so. */
  cudaTypeCast(call: SyntaxNode): SyntaxNode | undefined {
    const fn = childByField(call, "function");
    if (fn?.type !== "attribute" || this.text(childByField(fn, "attribute")!) !== "type") return undefined;
    const [target] = positionalArguments(call);
    return target && this.isCudaTensorType(target) ? target : undefined;
  }

  private readonly qualifiedMemo = new Map<SyntaxNode, string | undefined>();

  /** The dotted name an expression stands for, with import aliases resolved (`F.relu` → `torch.nn.functional.relu`). */
  qualifiedName(raw: SyntaxNode): string | undefined {
    const known = this.qualifiedMemo.get(raw);
    if (known !== undefined || this.qualifiedMemo.has(raw)) return known;
    const name = this.computeQualifiedName(raw);
    this.qualifiedMemo.set(raw, name);
    return name;
  }

  private computeQualifiedName(raw: SyntaxNode): string | undefined {
    const node = unparenthesized(raw);
    if (node.type === "identifier") {
      const name = this.text(node);
      const binding = resolveBinding(name, Number.MAX_SAFE_INTEGER, this.env.scopes.module);
      const local = resolveBinding(name, node.start, scopeOf(node, this.env.scopes));
      const chosen = local?.kind === "import" ? local : binding?.kind === "import" ? binding : undefined;
      if (chosen) return importedName(chosen, this.env.text) ?? name;
      return name;
    }
    if (node.type === "attribute") {
      const object = childByField(node, "object");
      const attribute = childByField(node, "attribute");
      if (!object || !attribute) return undefined;
      const base = this.qualifiedName(object);
      return base === undefined ? undefined : `${base}.${this.text(attribute)}`;
    }
    return undefined;
  }

  private ofName(node: SyntaxNode): Evidence {
    const name = this.text(node);
    if (name === "self") return evidence("self", "the module itself");
    const narrowed = this.testedAsNumber(node, name);
    if (narrowed) return evidence("scalar", `\`${name}\` is a Python number where \`${this.text(narrowed).replace(/\s+/g, " ")}\` holds`);
    const binding = resolveBinding(name, node.start, scopeOf(node, this.env.scopes));
    if (!binding) {
      // `map(lambda x: x.to(device), batch)` (a lambda's parameters are bound nowhere else): each element of what `map` goes over.
      const mapped = this.lambdaMapping(node, name);
      if (mapped) return this.eachOf(mapped);
      // `to_np = lambda t: t.cpu().numpy()`, then `to_np(logits)`: what every call passes.
      const passed = this.passedToNamedLambda(node, name);
      if (passed) return passed;
      if (MODULE_NAME.test(name)) return evidence("module", `\`${name}\` is named like a model`);
      if (DATA_ITERABLE_NAME.test(name)) return evidence("loader", `\`${name}\` is named like a data loader`);
      return UNKNOWN;
    }
    // `if torch.is_tensor(x): ... else: x = float(x)`: not a tensor where the test fails (and `x` is not bound anew
    // after it, other than by the assignment whose value this is).
    // A binding in a branch that ran instead (`if torch.is_tensor(x): x = x.float()`) does not reach `node`.
    const boundBefore = (condition: SyntaxNode, branch: SyntaxNode) =>
      binding.node.start < condition.start || (binding.node.start > condition.end && binding.node.start < branch.start) || (binding.kind === "assign" && !!binding.value && contains(binding.value, node));
    const untensored = this.testFailing(node, (condition, branch) => boundBefore(condition, branch) && this.testsTensorAlone(condition, name));
    if (untensored) return evidence("scalar", `\`${name}\` is no tensor where \`${this.text(untensored).replace(/\s+/g, " ")}\` fails`);
    // `if t is None: t = torch.randint(...)` / `else: torch.full(..., t)`: the `else` sees what `t` was before the `if`.
    if (inOtherBranch(binding.node, node)) {
      const before = this.valueBefore(binding, node);
      if (before) return before;
    }
    const known = this.ofBinding(binding);
    // `avg.item() if isinstance(avg, torch.Tensor) else avg`, `def scalar(data): if isinstance(data, t.Tensor): return
    // data.item()`: a tensor there, whatever the name says (not where the binding already tells which device), if
    // the test follows the binding.
    if (!isTensorKind(known.kind)) {
      const tested = this.testHolding(node, (condition) => condition.start > binding.node.start && this.testsTensor(condition, name));
      if (tested) return evidence("tensor", `\`${name}\` is a tensor where \`${this.text(tested).replace(/\s+/g, " ")}\` holds`);
    }
    // `loss = -si_snr(model(x), y).mean()` and `loss.backward()`: what autograd differentiates is a tensor.
    if (known.kind === "unknown" && binding.kind === "assign" && this.differentiated(binding)) return evidence("tensor", `\`${name}.backward()\` is called`);
    // `answer_list = loader.dataset.answer_list`: what it holds is not known, its name says it is a list.
    if (known.kind === "unknown" && LIST_NAME.test(name)) return evidence("container", `\`${name}\` is named like a list`);
    // `if mode == "cpu": boxes = boxes.cpu()` and a use after the `if`: on the other path, the value is where it
    // was; unless the branch converts a value of another type (`if isinstance(x, np.ndarray): x = torch.from_numpy(x)`).
    if (known.kind === "cpu" && binding.kind === "assign") {
      const branch = branchBefore(binding, node);
      if (branch) {
        const before = this.valueBefore(binding, node);
        const condition = childByField(branch, "condition");
        const consequence = childByField(branch, "consequence");
        const deviceTest = condition && consequence && contains(consequence, binding.node) ? this.env.deviceTest?.(condition) : undefined;
        // `if cfg.NUM_GPUS: preds = preds.cpu()`: without a GPU the value was on the host all along.
        if (deviceTest === "cuda") return known;
        // `if device == "mps": logits = logits.to("cpu")`: beside a CUDA GPU the value is what an earlier binding made.
        if (deviceTest === "other") {
          const made = this.earlierBinding(binding, (kind) => kind === "gpu");
          if (made) return made;
        }
        const converts = /\b(isinstance|type|hasattr)\s*\(|\bis\s+(not\s+)?None\b/.test(this.text(condition ?? branch));
        if (before && (before.kind === "gpu" || (!converts && (before.kind === "tensor" || before.kind === "unknown")))) return before;
      }
    }
    // `if return_final_states: state = torch.empty(...)` `else: state = None`, then `state[...]` after the `if`: what
    // is subscripted or called there is not the `None` (mamba's `Final_K_State`).
    if (binding.kind === "assign" && boundsNone(binding) && node.parent?.type !== "comparison_operator" && branchBefore(binding, node)) {
      const made = this.earlierBinding(binding, isTensorKind);
      if (made) return made;
    }
    // `if cfg.benchmark_no_load: loader = [batch] * n` and a loop after the `if`: on the other path it is the loader.
    if (known.kind === "unknown" && binding.kind === "assign" && branchBefore(binding, node)) {
      const before = this.valueBefore(binding, node);
      if (before && (before.kind === "loader" || before.kind === "device-loader")) return before;
    }
    if (known.kind === "batch" && binding.kind === "for") {
      const mover = this.movedInPlace(binding);
      if (mover && mover.end <= node.start) return { kind: "gpu", reason: `moved in place by \`${this.text(mover)}\``, moved: true };
    }
    return known;
  }

  /** What the name held before `binding`: the last earlier binding on every path to `use` (one in another branch may not have run). */
  private valueBefore(binding: Binding, use: SyntaxNode): Evidence | undefined {
    const scope = scopeOf(binding.node, this.env.scopes);
    let previous = previousBinding(binding, scope);
    while (previous && !reachesAlways(previous.node, use)) previous = previousBinding(previous, scope);
    return previous && this.ofBinding(previous);
  }

  /** What the nearest earlier binding of the name (on any path) makes, of the kinds `accept` takes. */
  private earlierBinding(binding: Binding, accept: (kind: EvidenceKind) => boolean): Evidence | undefined {
    const scope = scopeOf(binding.node, this.env.scopes);
    for (let earlier = previousBinding(binding, scope); earlier; earlier = previousBinding(earlier, scope)) {
      const made = this.ofBinding(earlier);
      if (accept(made.kind)) return made;
    }
    return undefined;
  }

  /** True for `backend == "gloo"`, false for `backend != "gloo"`: a test of a process group's backend. */
  private glooTest(raw: SyntaxNode): boolean | undefined {
    const node = unparenthesized(raw);
    if (node.type !== "comparison_operator" || node.children.length !== 2 || !node.children.some((side) => isStringNode(side) && stringValue(this.text(side)) === "gloo")) return undefined;
    return node.tokens[0] === "==" ? true : node.tokens[0] === "!=" ? false : undefined;
  }

  ofBinding(binding: Binding): Evidence {
    switch (binding.kind) {
      case "assign":
      case "walrus":
      case "with": {
        if (!binding.value) return UNKNOWN;
        const unpacked = this.unpack(binding.value, binding.unpackPath);
        // `x, feat_size = stage(x, feat_size)`: a module returns its output beside the sizes it computed.
        if (binding.unpackPath.length > 0 && isTensorKind(unpacked.kind) && SIZE_PARAMETER_NAME.test(binding.name))
          return evidence("scalar", `\`${binding.name}\` is named like a size, returned beside a tensor`);
        // `extra_losses, names = model.get_extra_losses(net_output)` (fairseq's HuBERT criterion): the losses' names.
        if (binding.unpackPath.length > 0 && isTensorKind(unpacked.kind) && NAMES_NAME.test(binding.name))
          return evidence("container", `\`${binding.name}\` is named like a list of names, returned beside a tensor`);
        return unpacked;
      }
      case "augmented": {
        // `s += f"..."` or `s += "...".format(...)`: `s` is a string (a tensor plus a string raises).
        if (binding.value && isStringValued(binding.value)) return evidence("scalar", `\`${binding.name}\` is a string`);
        const rhs = binding.value ? this.of(binding.value) : UNKNOWN;
        const scope = scopeOf(binding.node, this.env.scopes);
        const previous = previousBinding(binding, scope);
        if (!previous) return rhs;
        const before = this.ofBinding(previous);
        // `total += (labels != -100).sum()` on a tensor is an in-place op: the tensor keeps its device.
        if (before.kind === "cpu" || before.kind === "gpu") return evidence(before.kind, `\`${binding.name}\` keeps its device under \`${binding.operator ?? "+="}\` (${before.reason})`);
        return combine(before, rhs);
      }
      case "for": {
        if (!binding.value) return UNKNOWN;
        if (this.isEnumerateCounter(binding)) return evidence("scalar", `\`${binding.name}\` counts the items, as \`enumerate\` does`);
        const element = this.elementOf(binding.value, binding.unpackPath);
        if (element.kind !== "unknown") return element;
        const moved = this.movedSibling(binding);
        return moved ? evidence("cpu", `\`${binding.name}\` comes in host memory: the loop moves \`${moved}\` of the same batch to the device, not it`) : element;
      }
      case "parameter": {
        let known = this.parameterMemo.get(binding);
        if (!known) this.parameterMemo.set(binding, (known = this.ofParameter(binding)));
        return known;
      }
      case "import":
        return evidence("namespace", `\`${binding.name}\` is an imported module`);
      default:
        return UNKNOWN;
    }
  }

  /**
   * `for images, question_ids in loader:` ... `images = images.to(device)`: a loop that moves one element of
   * each batch to the device gets its batches in host memory, so the elements it does not move stay there.
   * The name of a moved element beside `binding` in the loop's target (not through `zip`, whose parts come
   * from different places).
   */
  private movedSibling(binding: Binding): string | undefined {
    const loop = binding.loop;
    const target = loop?.type === "for_statement" ? childByField(loop, "left") : undefined;
    const iterable = loop && childByField(loop, "right");
    const body = loop && childByField(loop, "body");
    if (!target || !iterable || !body || binding.unpackPath.length === 0 || /^zip\b/.test(this.text(unparenthesized(iterable)))) return undefined;
    const parentPath = binding.unpackPath.slice(0, -1);
    let group: SyntaxNode | undefined = unparenthesized(target);
    for (const index of parentPath) {
      const member: SyntaxNode | undefined = group && isUnpackTarget(group) ? group.children[index] : undefined;
      group = member && unparenthesized(member);
    }
    if (!group || !isUnpackTarget(group)) return undefined;
    for (const sibling of group.children) {
      if (sibling.type !== "identifier" || this.text(sibling) === binding.name) continue;
      const name = this.text(sibling);
      for (const use of identifiersNamed(this.env.text, name, body)) {
        const attribute = use.parent;
        if (attribute?.type !== "attribute" || use.field !== "object" || attribute.parent?.type !== "call" || attribute.field !== "function") continue;
        const method = this.text(childByField(attribute, "attribute")!);
        if (method !== "cuda" && !(method === "to" && !isDtypeOnly(attribute.parent, this.env.text))) continue;
        if (resolveBinding(name, use.start, scopeOf(use, this.env.scopes))?.loop === loop) return name;
      }
    }
    return undefined;
  }

  /**
   * `for i, (image, _) in data_iter:`: a counter beside an unpacked item is `enumerate`'s index, whatever wraps it
   * (`data_iter = logger.iteration_generator_wrapper(enumerate(loader))`).
   */
  private isEnumerateCounter(binding: Binding): boolean {
    const target = binding.loop?.type === "for_statement" ? childByField(binding.loop, "left") : undefined;
    if (!target || binding.unpackPath.length !== 1 || binding.unpackPath[0] !== 0 || !COUNTER_NAME.test(binding.name)) return false;
    const pattern = unparenthesized(target);
    const item = isUnpackTarget(pattern) && pattern.children.length === 2 ? unparenthesized(pattern.children[1]) : undefined;
    return !!item && isUnpackTarget(item);
  }

  /**
   * `for batch in loader:` ... `batch.to(accelerator.device)` as a statement of its own: a move whose result is
   * dropped does something only to an object that moves itself (a tokenizer's `BatchEncoding`, a PyG `Data`), so
   * the batch is on the device after it (and until the loop binds the next one). The call that moves it, if the
   * loop's body has one.
   */
  /** The attributes `self.x += ...` (or `-=`, `*=`, `/=`) adds to somewhere in the class. */
  private accumulatedAttributes(cls: SyntaxNode): Set<string> {
    let found = this.accumulatedMemo.get(cls);
    if (!found) this.accumulatedMemo.set(cls, (found = new Set([...this.text(cls).matchAll(/\bself\.(\w+)\s*[-+*/]=/g)].map((match) => match[1]))));
    return found;
  }
  private readonly accumulatedMemo = new Map<SyntaxNode, Set<string>>();

  private movedInPlace(binding: Binding): SyntaxNode | undefined {
    if (!this.moverMemo.has(binding)) this.moverMemo.set(binding, this.findMover(binding));
    return this.moverMemo.get(binding);
  }

  private findMover(binding: Binding): SyntaxNode | undefined {
    const body = binding.loop && childByField(binding.loop, "body");
    if (!body) return undefined;
    for (const use of identifiersNamed(this.env.text, binding.name, body)) {
      // `dataclass_to_cuda_(sample)`, `move_to_device(batch, device)` as a statement of its own: moved in place.
      const helperCall = use.parent?.type === "argument_list" && use.parent.children[0] === use ? use.parent.parent : undefined;
      const helper = helperCall?.type === "call" ? childByField(helperCall, "function") : undefined;
      if (helper && helperCall!.parent?.type === "expression_statement" && IN_PLACE_MOVER.test(lastName(this.text(helper))) && resolveBinding(binding.name, use.start, scopeOf(use, this.env.scopes)) === binding) return helperCall ?? undefined;
      const attribute = use.parent;
      const call = attribute?.parent;
      if (attribute?.type !== "attribute" || use.field !== "object" || call?.type !== "call" || attribute.field !== "function") continue;
      if (call.parent?.type !== "expression_statement" || call.parent.children.length !== 1) continue;
      const method = this.text(childByField(attribute, "attribute")!);
      const moves = method === "cuda" || (method === "to" && this.deviceOf(this.deviceArgument(call) ?? call) === "gpu");
      if (moves && resolveBinding(binding.name, use.start, scopeOf(use, this.env.scopes)) === binding) return call;
    }
    return undefined;
  }

  /**
   * `X, offsets, indices, T = unpack_batch(batch)` with `def unpack_batch(b): return b[0], b[1], b[2], b[3]`: the
   * tuple a function of this file returns, when it has one `return` and that returns a tuple, to unpack in its place.
   */
  private returnedTuple(raw: SyntaxNode): SyntaxNode | undefined {
    const call = unparenthesized(raw);
    const callee = call.type === "call" ? childByField(call, "function") : undefined;
    let fn: SyntaxNode | undefined;
    if (callee?.type === "identifier") {
      const binding = resolveBinding(this.text(callee), callee.start, scopeOf(callee, this.env.scopes));
      if (binding?.kind === "function") fn = binding.value;
    } else if (callee?.type === "attribute" && this.text(childByField(callee, "object")!) === "self") {
      // `x, s_in, sigmas = self.prepare_sampling_loop(x, cond)`: a method of the same class.
      const cls = enclosingClass(call);
      fn = cls ? this.inheritedMethod(cls, this.text(childByField(callee, "attribute")!)) : undefined;
    } else if (callee?.type === "attribute") {
      // `obs, rewards, dones = task.step(actions)`: a method of a plain class of this file, on its instance.
      fn = this.plainInstanceMethod(childByField(callee, "object")!, this.text(childByField(callee, "attribute")!));
    }
    // `boxes, scores = matcher(x)`, `self.matcher(x)`: an instance's `__call__`.
    if (!fn && callee) fn = this.plainInstanceMethod(callee, "__call__");
    if (!fn) return undefined;
    if (!this.tupleMemo.has(fn)) this.tupleMemo.set(fn, soleTupleReturned(fn));
    return this.tupleMemo.get(fn);
  }

  /** The method `name` of `cls`, or of the classes of this file it inherits from (`EulerEDMSampler(EDMSampler)`). */
  inheritedMethod(cls: SyntaxNode, name: string, depth = 0): SyntaxNode | undefined {
    const own = this.env.classes.get(cls)?.methods.get(name);
    if (own || depth > 4) return own;
    for (const base of childByField(cls, "superclasses")?.children ?? []) {
      if (base.type !== "identifier") continue;
      const binding = resolveBinding(this.text(base), base.start, scopeOf(base, this.env.scopes));
      const found = binding?.kind === "class" && binding.value ? this.inheritedMethod(binding.value, name, depth + 1) : undefined;
      if (found) return found;
    }
    return undefined;
  }

  /** Evidence of `value` unpacked along `path` (`a, (b, c) = value`). */
  private unpack(value: SyntaxNode, path: number[]): Evidence {
    let node = unparenthesized(value);
    let index = 0;
    while (index < path.length) {
      // `preds, refs = accelerator.gather_for_metrics((preds, batch["labels"]))`: each name gets its own, gathered.
      const gathered = gatheredArgument(node, this.env.text);
      if (gathered) {
        node = unparenthesized(gathered);
        continue;
      }
      // `logits, _ = self.forward(x)`: what the function returns in that place, or else what its call is.
      const returned = this.returnedTuple(node);
      if (returned) {
        const element = this.unpack(returned, path.slice(index));
        if (element.kind !== "unknown") return element;
        let whole = this.of(node);
        for (let i = index; i < path.length; i++) whole = elementEvidence(whole);
        return whole;
      }
      // `train_mask, val_mask = (torch.from_numpy(raw[k]).to(device) for k in splits)`: each name gets an item.
      if (node.type === "generator_expression" || node.type === "list_comprehension") {
        const item = childByField(node, "body");
        if (!item) return UNKNOWN;
        node = unparenthesized(item);
        index++;
        continue;
      }
      if (node.type !== "tuple" && node.type !== "list" && node.type !== "expression_list") break;
      const element = node.children[path[index]];
      if (!element) return UNKNOWN;
      node = unparenthesized(element);
      index++;
    }
    // `model, opt, loader = accelerator.prepare(model, opt, loader)`: each name gets its argument, prepared.
    const sources = index < path.length ? preparedSources(node, this.env.text) : undefined;
    if (sources) {
      const source = sources[path[index]];
      let result = source ? this.prepared(source) : UNKNOWN;
      for (let i = index + 1; i < path.length; i++) result = elementEvidence(result);
      return result;
    }
    const whole = this.of(node);
    return index < path.length ? elementEvidence(whole) : whole;
  }

  /** Evidence of the items a `for` loop over `iterable` binds along `path`. */
  elementOf(iterable: SyntaxNode, path: number[]): Evidence {
    const node = unparenthesized(iterable);
    if (node.type === "call") {
      const fn = childByField(node, "function");
      const args = positionalArguments(node);
      const name = fn ? this.qualifiedName(fn) : undefined;
      if (name === "enumerate" && args[0]) {
        if (path.length === 0) return evidence("container", "an (index, item) pair");
        return path[0] === 0 ? evidence("scalar", "an `enumerate` counter") : this.elementOf(args[0], path.slice(1));
      }
      if (name === "zip") {
        if (path.length === 0) return evidence("container", "a tuple from `zip`");
        // `zip(*logprobs.topk(k))`: the parts are the tensors topk returns, so each item holds their elements.
        const splat = childByField(node, "arguments")?.children.find((child) => child.type === "list_splat");
        if (splat && args.length === 0) {
          let part = elementEvidence(this.of(splat.children[splat.children.length - 1]));
          if (!isTensorKind(part.kind)) return UNKNOWN;
          for (let i = 0; i < path.length; i++) part = elementEvidence(part);
          return part;
        }
        const source = args[path[0]];
        return source ? this.elementOf(source, path.slice(1)) : UNKNOWN;
      }
      if (name === "range" || name === "trange") return evidence("scalar", "a `range` counter");
      if (name && ITERATION_WRAPPERS.test(name) && args[0]) return this.elementOf(args[0], path);
      if (fn?.type === "attribute") {
        const method = this.text(childByField(fn, "attribute")!);
        const receiver = childByField(fn, "object")!;
        const receiverEvidence = this.of(receiver);
        if (method === "parameters" || method === "buffers") return evidence("gpu", "a parameter of a model");
        if (method === "named_parameters" || method === "named_buffers") {
          if (path.length === 0) return evidence("container", "a (name, parameter) pair");
          return path[0] === 0 ? evidence("scalar", "a parameter name") : evidence("gpu", "a parameter of a model");
        }
        if (method === "items" || method === "values" || method === "keys") {
          // A batch dict a prepared loader put on the device (`{k: v.to(device) for k, v in batch.items()}`): its values are there too.
          if (receiverEvidence.kind !== "gpu" || method === "keys") return UNKNOWN;
          if (method === "values") return receiverEvidence;
          if (path.length === 0) return evidence("container", "a (key, value) pair");
          return path[0] === 0 ? evidence("scalar", "a key") : receiverEvidence;
        }
        if (receiverEvidence.kind === "loader") return evidence("batch", "a batch from a data loader");
      }
    }
    // `for channel in lprobs_dict`: iterating a dict gives its keys.
    if ((node.type === "identifier" || node.type === "attribute") && DICT_NAME.test(lastName(this.text(node)))) return UNKNOWN;
    const made = this.listElement(node);
    if (made) {
      let element = made;
      for (let i = 0; i < path.length; i++) element = elementEvidence(element);
      return element;
    }
    const whole = this.of(node);
    let element: Evidence;
    if (whole.kind === "loader") element = evidence("batch", `a batch from \`${this.text(node)}\``);
    else if (whole.kind === "device-loader") element = { kind: "gpu", reason: `a batch \`${this.text(node)}\` puts on the device`, moved: true };
    else if (node.type === "identifier" && DATA_ITERABLE_NAME.test(this.text(node)) && (whole.kind === "unknown" || whole.kind === "container"))
      element = evidence("batch", `a batch from \`${this.text(node)}\``);
    else element = elementEvidence(whole);
    for (let i = 0; i < path.length; i++) element = elementEvidence(element);
    return element;
  }

  /**
   * What each element of a list (written, or built by a comprehension) is, when that says where it lives:
   * `size_list = [torch.zeros([1], device=t.device) for _ in range(n)]` holds CPU tensors when `t` is on the CPU.
   */
  private listElement(node: SyntaxNode): Evidence | undefined {
    let list: SyntaxNode | undefined = node;
    if (node.type === "identifier") {
      const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
      list = binding?.kind === "assign" && binding.unpackPath.length === 0 && binding.value ? unparenthesized(binding.value) : undefined;
    }
    const parts = list?.type === "list_comprehension" ? [childByField(list, "body")] : list?.type === "list" ? list.children : [];
    const kinds = parts.map((part) => (part && part.type !== "list_splat" ? this.of(part) : UNKNOWN));
    const element = kinds[0];
    return element && (element.kind === "cpu" || element.kind === "gpu") && kinds.every((each) => each.kind === element.kind) ? element : undefined;
  }

  /** Each element of `iterable`: of a tuple (written, or returned by a function of this file: `trg, gold = ...; return trg, gold`) what all its elements are. */
  private eachOf(iterable: SyntaxNode): Evidence {
    const node = unparenthesized(iterable);
    const tuple = node.type === "tuple" || node.type === "list" ? node : this.returnedTuple(node);
    if (!tuple) return this.elementOf(node, []);
    const kinds = tuple.children.map((element) => this.of(element));
    return kinds.length > 0 && kinds.every((each) => each.kind === kinds[0].kind) ? kinds[0] : UNKNOWN;
  }

  /**
   * The lambda whose body holds `node` (no function between them) when `name` is one of its plain parameters,
   * with the parameter's position and how many it has; a name after a default or a `*` gets nothing.
   */
  private lambdaParameter(node: SyntaxNode, name: string): { lambda: SyntaxNode; index: number; count: number } | undefined {
    let lambda = node.parent;
    while (lambda && lambda.type !== "lambda" && lambda.type !== "function_definition") lambda = lambda.parent;
    const parameters = lambda?.type === "lambda" ? (childByField(lambda, "parameters")?.children ?? []) : [];
    const index = parameters.findIndex((parameter) => this.text(parameter) === name);
    if (index < 0 || !parameters.slice(0, index + 1).every((parameter) => parameter.type === "identifier")) return undefined;
    return { lambda: lambda!, index, count: parameters.length };
  }

  /** What `map(lambda name: ..., iterable)` goes over, when `node` is in that lambda's body and `name` is its one parameter. */
  private lambdaMapping(node: SyntaxNode, name: string): SyntaxNode | undefined {
    const parameter = this.lambdaParameter(node, name);
    const lambda = parameter?.count === 1 ? parameter.lambda : undefined;
    const call = lambda?.parent?.type === "argument_list" ? lambda.parent.parent : undefined;
    if (!lambda || call?.type !== "call") return undefined;
    const [first, iterable, more] = positionalArguments(call);
    return first === lambda && iterable && !more && this.qualifiedName(childByField(call, "function")!) === "map" ? iterable : undefined;
  }

  /** What every call of a lambda bound to a name passes for its parameter `name`, where they agree (`agreedEvidence`). */
  private passedToNamedLambda(node: SyntaxNode, name: string): Evidence | undefined {
    const parameter = this.lambdaParameter(node, name);
    const passed = parameter && this.env.passedToNamedLambda?.(parameter.lambda, parameter.index);
    return passed && this.agreedEvidence(name, passed);
  }

  /** By name, a method only modules have that `fn` calls on it (`retinanet.eval()`): one scan of the function's text. */
  private moduleMethodsCalled(fn: SyntaxNode): Map<string, string> {
    let called = this.moduleMethodCalls.get(fn);
    if (!called) {
      called = new Map();
      for (const match of this.text(fn).matchAll(MODULE_ONLY_METHOD_CALL)) if (!called.has(match[1])) called.set(match[1], match[2]);
      this.moduleMethodCalls.set(fn, called);
    }
    return called;
  }
  private readonly moduleMethodCalls = new Map<SyntaxNode, Map<string, string>>();

  private ofParameter(binding: Binding): Evidence {
    const name = binding.name;
    if (binding.annotation) {
      const annotation = this.text(binding.annotation);
      // `metrics: dict[str, Tensor]`: a dict, whose keys its loops and `in` see, and whose values are tensors.
      if (MAPPING_ANNOTATION.test(annotation)) {
        const reason = `\`${name}\` is annotated \`${annotation}\``;
        return /\bTensor\b/.test(annotation) ? { kind: "container", reason, mapping: true, values: evidence("tensor", `a value of ${reason}`) } : { kind: "container", reason, mapping: true };
      }
      // What every call passes says where the tensor is; the annotation only that it is one.
      if (/\bTensor\b|Tensor\b/.test(annotation)) return this.passedAlike(binding) ?? evidence("tensor", `\`${name}\` is annotated \`${annotation}\``);
      if (/ndarray|NDArray/.test(annotation)) return evidence("numpy", `\`${name}\` is annotated \`${annotation}\``);
      if (/^(int|float|bool|str|complex|bytes)\b/.test(annotation)) return evidence("scalar", `\`${name}\` is annotated \`${annotation}\``);
      if (/DataLoader/.test(annotation)) return this.loaderParameter(binding, `\`${name}\` is annotated \`${annotation}\``);
      if (/Module\b/.test(annotation)) return evidence("module", `\`${name}\` is annotated \`${annotation}\``);
    }
    const parent = binding.node.parent?.parent;
    const fn = parent?.type === "function_definition" ? parent : undefined;
    const method = fn ? this.text(childByField(fn, "name")!) : "";
    const owner = fn ? enclosingClass(fn) : undefined;
    const ownerInfo = owner ? this.env.classes.get(owner) : undefined;
    const documented = fn && documentedKind(fn, name, this.env.text);
    if (documented) return documented;
    // `def feed_data(self, data)` of a model with `optimize_parameters`: the loader's batch, still on the host.
    if (MODEL_INPUT_METHOD.test(method) && binding.node.parent?.children[1] === binding.node && ownerInfo?.methods.has("optimize_parameters"))
      return evidence("batch", `the batch a training loop hands to \`${method}\``);
    // A TorchServe handler's `postprocess(self, data)`: `handle()` passes it what the handler's `inference` returned.
    const inference = method === "postprocess" && binding.node.parent?.children[1] === binding.node ? ownerInfo?.methods.get("inference") : undefined;
    if (inference) {
      const returned = this.returnEvidence(inference);
      if (isTensorKind(returned.kind)) return { ...returned, reason: `what the handler's \`inference\` returns, which \`handle()\` passes to \`postprocess\`: ${returned.reason}` };
    }
    if (MODULE_NAME.test(name)) return evidence("module", `\`${name}\` is named like a model`);
    // `def _get_detections(dataset, retinanet):` ... `retinanet.eval()`: only a module has these methods.
    const moduleMethod = fn && this.moduleMethodsCalled(fn).get(name);
    if (moduleMethod) return evidence("module", `the function calls \`${name}.${moduleMethod}()\``);
    if (DATA_ITERABLE_NAME.test(name)) return this.loaderParameter(binding, `\`${name}\` is named like a data loader`);
    const literal = binding.defaultValue ? unparenthesized(binding.defaultValue) : undefined;
    if (literal && literal.type !== "none" && this.of(literal).kind === "scalar") return evidence("scalar", `\`${name}\` defaults to a Python value`);
    // `return_all` without a default too (`MSSeparateHead.forward(self, outputs, masks, return_all, thw)`); not `skip_`, also a skip connection's tensor.
    if ((literal?.type === "none" || (!literal && !/^skip_/i.test(name))) && FLAG_PARAMETER_NAME.test(name)) return evidence("scalar", `\`${name}\` is named like a flag`);
    if (INTEGER_PARAMETER_NAME.test(name)) return evidence("scalar", `\`${name}\` is named like an integer that frameworks pass (a batch, optimizer or layer index, a step count)`);
    if (SIZE_PARAMETER_NAME.test(name)) return evidence("scalar", `\`${name}\` is named like a size`);
    if (HYPERPARAMETER_NAME.test(name)) return evidence("scalar", `\`${name}\` is named like a hyperparameter (a temperature, an epsilon, a rate)`);
    if (STRING_PARAMETER_NAME.test(name)) return evidence("scalar", `\`${name}\` is named like a string (a split, a stage, a name)`);
    const patchedForward = !!fn && !owner && !!this.env.replacesForward?.(fn);
    if ((ownerInfo?.isModule || patchedForward) && isFirstParameter(binding)) return UNKNOWN;
    if (((ownerInfo?.isModule && method === "forward") || patchedForward) && !binding.annotation) {
      const use = fn && pythonValueUse(binding, fn, this.env);
      if (use) return { ...use, reason: `\`${name}\` is ${use.reason}` };
      // `self.y_embedder(y, self.training)`: every call of the module in this file passes a Python value.
      const passed = this.passedAlike(binding);
      return passed?.kind === "scalar" ? passed : evidence("tensor", `\`${name}\` is an input of \`forward\``);
    }
    // `def compute_loss(self, model, inputs, ...)` of a `Trainer` subclass: `Trainer.training_step` (and
    // `prediction_step`) hand it what `_prepare_inputs` moved to the device.
    if (name === "inputs" && HF_TRAINER_METHOD.test(method) && /Trainer\b/.test(superclassesText(owner, this.env.text)))
      return evidence("gpu", "the inputs a Hugging Face `Trainer` moved to the device (`_prepare_inputs`)");
    if (/^(training|validation|test|predict)_step$/.test(method)) {
      if (name === "batch") return evidence("gpu", "the batch Lightning moved to the device");
      if (/idx$|index$/.test(name)) return evidence("scalar", "a batch index");
    }
    return this.passedAlike(binding) ?? this.passedFromOtherFile(binding) ?? (fn && this.engineBatch(binding, fn)) ?? UNKNOWN;
  }

  /**
   * `def step(engine, batch)` given to ignite's `trainer = Engine(step)`, then `trainer.run(train_loader)`: the
   * batch is an item of the data the engine runs on, as the loader made it (ignite moves nothing itself).
   */
  private engineBatch(binding: Binding, fn: SyntaxNode): Evidence | undefined {
    const parameters = binding.node.parent;
    const name = childByField(fn, "name");
    if (!parameters || !name || parameters.children[1] !== binding.node) return undefined;
    for (const use of identifiersNamed(this.env.text, this.text(name), this.env.scopes.module.node)) {
      const call = use.parent?.type === "argument_list" && use.parent.children[0] === use ? use.parent.parent : undefined;
      if (call?.type !== "call" || !/^ignite\.engine(\.engine)?\.Engine$/.test(this.qualifiedName(childByField(call, "function")!) ?? "")) continue;
      if (resolveBinding(this.text(use), use.start, scopeOf(use, this.env.scopes))?.node !== fn) continue;
      const engine = call.parent?.type === "assignment" && call.field === "right" ? childByField(call.parent, "left") : undefined;
      if (engine?.type !== "identifier") continue;
      for (const reference of identifiersNamed(this.env.text, this.text(engine), scopeOf(engine, this.env.scopes).node)) {
        const run = reference.field === "object" && reference.parent?.type === "attribute" && reference.parent.parent?.type === "call" ? reference.parent.parent : undefined;
        const [data] = run && this.text(childByField(reference.parent!, "attribute")!) === "run" ? positionalArguments(run) : [];
        const source = data && this.of(data);
        if (source?.kind === "loader" || source?.kind === "device-loader") {
          const item = elementEvidence(source);
          return { ...item, reason: `${item.reason}, which \`${this.text(engine)}.run(${this.text(data)})\` hands to \`${this.text(name)}\`` };
        }
      }
    }
    return undefined;
  }

  private passedFromOtherFile(parameter: Binding): Evidence | undefined {
    const kind = this.env.argumentKindFromOtherFile?.(parameter);
    if (!kind) return undefined;
    return evidence(kind, kind === "gpu" ? "on the GPU in hot calls from other files" : "in host memory in every hot call from another file");
  }

  /** A loader parameter: one that puts its batches on the device when every call passes such (`fit(fabric, train_dataloader)` with what Fabric's `setup_dataloaders` returned). */
  private loaderParameter(parameter: Binding, reason: string): Evidence {
    const passed = this.passedAlike(parameter);
    return passed?.kind === "device-loader" ? passed : evidence("loader", reason);
  }

  /** The device every call of the file passes for `parameter` (`random_mat_apply(..., device=device)`), if all agree. */
  private passedDevice(parameter: Binding, depth: number): DeviceKind | undefined {
    const passed = this.env.passedByEveryCall?.(parameter);
    if (!passed) return undefined;
    const kinds = passed.map((argument) => this.deviceOf(argument, depth + 1));
    return kinds.every((kind) => kind === kinds[0]) && (kinds[0] === "cpu" || kinds[0] === "gpu") ? kinds[0] : undefined;
  }

  /**
   * What every call of the file passes for `parameter`, when they all pass the same kind of host value (a CPU
   * tensor, a loader's batch, a NumPy array, a Python number), a tensor known to be on a GPU or a loader that puts
   * its batches there, and none leaves it out: `get_padding(G_try, ...)` with `G_try` made on
   * the CPU. (Calls from other files are not seen.)
   */
  private passedAlike(parameter: Binding): Evidence | undefined {
    const passed = this.env.passedByEveryCall?.(parameter);
    return passed && this.agreedEvidence(parameter.name, passed);
  }

  /**
   * The kind of value that the calls pass for `name` (`passed`, one per call), where they all agree on one that
   * `passedAlike` describes: a kind of host value, a tensor known to be on a GPU, or a loader that puts its batches there.
   */
  private agreedEvidence(name: string, passed: SyntaxNode[]): Evidence | undefined {
    const kinds = passed.map((argument) => this.of(argument));
    const first = kinds[0];
    // A GPU tensor from every call (`iou(outputs, targets)` in a step loop); not a tensor only assumed (a `forward` input), which may be a number.
    if (first.kind === "gpu" && kinds.every((each) => each.kind === "gpu")) return evidence("gpu", `every call in this file passes \`${name}\` ${first.reason}`);
    if ((first.kind !== "cpu" && first.kind !== "batch" && first.kind !== "numpy" && first.kind !== "scalar" && first.kind !== "device-loader") || !kinds.every((each) => each.kind === first.kind)) return undefined;
    return evidence(first.kind, `every call in this file passes \`${name}\` ${first.reason}`);
  }

  private ofCall(node: SyntaxNode): Evidence {
    const fn = childByField(node, "function");
    if (!fn) return UNKNOWN;
    // `Tensor(np.random.normal(...))` with `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`.
    if (this.isCudaTensorType(fn)) return evidence("gpu", `a \`${this.text(fn)}\`, a CUDA tensor type`);
    const cudaType = this.cudaTypeCast(node);
    if (cudaType) return evidence("gpu", `moved to the GPU with \`.type(${this.text(cudaType)})\``);
    const qualified = this.qualifiedName(fn);
    // torchtext's `BucketIterator(data, batch_size, device=device)` builds its batches on that device.
    if (/(^|\.)(Bucket|BPTT)?Iterator$/.test(qualified ?? this.text(fn))) {
      const device = keywordArgument(node, "device", this.env.text);
      if (device && this.deviceOf(device) === "gpu") return evidence("device-loader", `\`${this.text(fn)}(..., device=${this.text(device)})\` builds its batches on the device`);
    }
    if (qualified) {
      const byName = this.ofNamedCall(node, fn, qualified);
      if (byName) return byName;
    }
    // `self.tokenizer(captions, return_tensors="pt")`: token ids made on the host; `Tokenizer(path)` builds the tokenizer.
    if ((fn.type === "identifier" || fn.type === "attribute") && TOKENIZER_NAME.test(lastName(this.text(fn))) && !CLASS_NAME.test(lastName(this.text(fn))))
      return evidence("cpu", `the output of a tokenizer, \`${this.text(fn)}(...)\`, in host memory`);
    if (fn.type === "attribute") {
      const result = this.ofMethodCall(node, fn);
      if (result.kind !== "unknown") return result;
      // `self.online_net = DQN(args).to(device=args.device)`, then `self.online_net(states)` (Rainbow's agent).
      return movedToGpu(this.of(fn)) ? this.movedWholeOutput(fn) : this.madeOnDevice(node, fn);
    }
    const callee = this.of(fn);
    if (callee.kind === "module") return this.modelOutput(fn, `the output of \`${this.text(fn)}(...)\``);
    if (movedToGpu(callee)) return this.movedWholeOutput(fn);
    // `logits, _ = self(idx_cond)` in a model's `generate`: its own forward pass.
    const owner = callee.kind === "self" ? enclosingClass(node) : undefined;
    if (owner && this.isModuleClass(owner)) return evidence("gpu", "the output of `self(...)`, the module's own forward pass");
    // `matcher(iou)` with `matcher = Matcher(...)`, a plain class of this file: what its `__call__` returns.
    const call = callee.kind === "unknown" ? this.plainInstanceMethod(fn, "__call__") : undefined;
    if (call) return this.returnEvidence(call);
    return this.madeOnDevice(node, fn);
  }

  /**
   * `sigmas = self.discretization(n, device=self.device)`: what a callable of unknown kind makes for the device it
   * is given is a tensor there (a schedule, a mask, noise), unless its name says it builds a model or a loader.
   */
  private madeOnDevice(node: SyntaxNode, fn: SyntaxNode): Evidence {
    const device = keywordArgument(node, "device", this.env.text);
    if (!device || this.deviceOf(device) === "cpu") return UNKNOWN;
    const name = lastName(this.text(fn));
    if (CLASS_NAME.test(name) || MODULE_NAME.test(name) || DATA_ITERABLE_NAME.test(name) || MAKES_OBJECT.test(name)) return UNKNOWN;
    return evidence("tensor", `made by \`${this.text(fn)}(..., device=${this.text(device)})\` for that device`);
  }

  private ofNamedCall(node: SyntaxNode, fn: SyntaxNode, qualified: string): Evidence | undefined {
    const short = qualified.slice(qualified.lastIndexOf(".") + 1);
    const namespace = qualified.includes(".") ? qualified.slice(0, qualified.lastIndexOf(".")) : "";
    // `Variable(x)` (PyTorch before 0.4): the same tensor, where it was.
    if ((qualified === "torch.autograd.Variable" || qualified === "torch.autograd.variable.Variable") && positionalArguments(node).length >= 1) return this.of(positionalArguments(node)[0]);
    // `CycleIterator(train_dataloader)`, `InfiniteLoader(loader)`, `cycle(loader)`: a loader again, endlessly.
    if (LOADER_WRAPPER.test(short) && positionalArguments(node).length === 1) {
      const source = this.of(positionalArguments(node)[0]);
      if (source.kind === "loader" || source.kind === "device-loader") return source;
    }
    // `metric_logger.log_every(loader, 10)`, `ProgressBar(loader)`: a progress display yields the loader's batches.
    if (PROGRESS_WRAPPER.test(short)) {
      for (const argument of positionalArguments(node)) {
        const source = this.of(argument);
        if (source.kind === "loader" || source.kind === "device-loader") return source;
      }
    }
    if (namespace === "" && fn.type === "identifier") {
      if (SCALAR_BUILTINS.has(qualified)) return evidence("scalar", `the result of \`${qualified}()\``);
      if (CONTAINER_BUILTINS.has(qualified)) return evidence("container", `the result of \`${qualified}()\``);
      if (qualified === "abs" || qualified === "round" || qualified === "sum" || qualified === "min" || qualified === "max") {
        // `sum(F.mse_loss(q, y) for q in qs)`, `max([l.max() for l in losses])`: what each element is.
        const generator = childByField(node, "arguments");
        const only = generator?.type === "generator_expression" ? generator : positionalArguments(node).length === 1 ? unparenthesized(positionalArguments(node)[0]) : undefined;
        const element = only && (only.type === "generator_expression" || only.type === "list_comprehension") ? childByField(only, "body") : undefined;
        if (element && qualified !== "abs" && qualified !== "round") {
          const each = this.of(element);
          if (isTensorKind(each.kind)) return evidence(each.kind, `the ${qualified} of ${each.reason}`);
          // `sum((y != -100).sum() for _, y in group)`: of items not known to be numbers, nothing is known.
          return each.kind === "scalar" ? evidence("scalar", "a number") : UNKNOWN;
        }
        const args = positionalArguments(node);
        if (args.length === 1 && qualified !== "abs" && qualified !== "round") return elementEvidence(this.of(args[0]));
        return args.map((arg) => this.of(arg)).reduce(combine, evidence("scalar", "a number"));
      }
      if (qualified === "next") {
        const [source] = positionalArguments(node);
        return source ? this.elementOf(source, []) : UNKNOWN;
      }
      if (qualified === "DataLoader") return evidence("loader", "a `DataLoader`");
      const local = this.localCallee(fn);
      if (local) return local;
      if (MODULE_NAME.test(qualified)) {
        // `Encoder(...)` constructs a module; `encoder(x)` runs one.
        return /^[A-Z]/.test(qualified) ? evidence("module", `an instance of \`${qualified}\``) : this.modelOutput(fn, `the output of \`${qualified}(...)\``);
      }
      return undefined;
    }
    if (qualified.startsWith("numpy.") || qualified.startsWith("np.")) return evidence("numpy", `the result of \`${this.text(fn)}()\``);
    if (qualified.startsWith("math.") || qualified.startsWith("random.") || qualified.startsWith("time.")) return evidence("scalar", `the result of \`${this.text(fn)}()\``);
    if (qualified.endsWith("DataLoader")) return evidence("loader", "a `DataLoader`");
    // `TF.to_tensor(image)`, `F.pil_to_tensor(image)`: an image decoded on the host becomes a host tensor.
    if (/^torchvision\.transforms\.(v2\.)?functional\.(to_tensor|pil_to_tensor)$/.test(qualified)) return evidence("cpu", `\`${this.text(fn)}(...)\` makes a tensor of an image in host memory`);
    if (!qualified.startsWith("torch.")) {
      // An imported class named like a model (`from ema_pytorch import EMA`, `from models import Encoder`).
      return /^[A-Z]/.test(short) && MODULE_NAME.test(short) ? evidence("module", `an instance of \`${short}\``) : undefined;
    }
    // A class of `torch.nn` (`nn.Linear`, `nn.modules.conv.Conv2d`, `nn.parallel.DistributedDataParallel`), not a helper (`nn.modules.utils._ntuple`).
    if (/^torch\.nn\.[A-Z]/.test(qualified) || /^torch\.nn\.(modules|parallel)\.(\w+\.)*[A-Z]\w*$/.test(qualified)) {
      return qualified.endsWith(".Parameter") ? evidence("tensor", "an `nn.Parameter`") : evidence("module", `an \`${short}\` module`);
    }
    // The total norm, a tensor on the parameters' device (pytorch-sync-facts.md §2: returned, not read).
    if (/^torch\.nn\.utils(\.clip_grad)?\.(clip_grad_norm_?|get_total_norm)$/.test(qualified))
      return evidence("gpu", `the gradient norm \`${short}\` returns, on the parameters' device`);
    // `torch.distributed.get_rank()`, `torch.cuda.is_available()`: settings and states, not tensors.
    if (NON_TENSOR_TORCH_FUNCTIONS.has(short) || /^(is_|get_|set_)/.test(short)) return evidence("scalar", `the result of \`${this.text(fn)}()\``);
    // `torch.jit.load(path, map_location=device)`: a TorchScript module, whatever the file holds.
    if (qualified === "torch.jit.load") return evidence("module", "a TorchScript module `torch.jit.load` returns");
    if (!TENSOR_NAMESPACES.includes(namespace)) return evidence("unknown", "");
    if (short === "load") {
      const mapLocation = keywordArgument(node, "map_location", this.env.text);
      return mapLocation && this.deviceOf(mapLocation) === "cpu" ? evidence("cpu", LOADED_ON_HOST) : UNKNOWN;
    }
    if (short === "from_numpy") return evidence("cpu", "`torch.from_numpy(...)` shares host memory");
    // `torch.Tensor(obs)`, `torch.FloatTensor(data)`: the legacy constructors of the default (CPU) tensor types.
    if (qualified === `torch.${short}` && LEGACY_CPU_CONSTRUCTOR.test(short))
      return this.env.defaultDeviceChanged ? evidence("tensor", `\`torch.${short}(...)\` on the default device`) : evidence("cpu", `\`torch.${short}(...)\` builds a tensor in host memory`);
    if (short === "from_file" && !keywordArgument(node, "device", this.env.text)) return evidence("cpu", "`torch.from_file(...)` maps a file into host memory");
    const device = keywordArgument(node, "device", this.env.text);
    const call = `\`${this.text(fn)}(...)\``;
    if (FACTORY_FUNCTIONS.has(short) || LIKE_FACTORIES.test(short)) {
      if (device) {
        const kind = this.deviceOf(device);
        return kind === "cpu" ? evidence("cpu", `${call} on the CPU`) : evidence("gpu", `${call} with \`device=${this.text(device)}\``);
      }
      if (LIKE_FACTORIES.test(short)) {
        const [source] = positionalArguments(node);
        return source ? sameDevice(this.of(source), `${call}`) : evidence("tensor", call);
      }
      if (this.env.defaultDeviceChanged) return evidence("tensor", `${call} on the default device`);
      // `torch.tensor(im0.shape)`, `torch.tensor(xyxy)` of a list: never 0-dim, so never mixed with a GPU tensor (`certainlyOnHost`).
      const [data] = positionalArguments(node);
      const sequence = short === "tensor" && !!data && (["list", "tuple", "list_comprehension"].includes(unparenthesized(data).type) || /\.shape$/.test(this.text(data)));
      return evidence("cpu", `${call}${sequence ? " of a sequence" : ""} without \`device=\` is on the CPU`);
    }
    const args = node.children.find((child) => child.field === "arguments")?.children ?? [];
    let result: Evidence | undefined;
    for (const arg of args) {
      const value = arg.type === "keyword_argument" ? childByField(arg, "value") : arg;
      if (!value || value.type === "list_splat" || value.type === "dictionary_splat") continue;
      const argEvidence = this.of(value);
      if (argEvidence.kind === "container") {
        // torch.cat([a, b]) / torch.stack((a, b)): look at the elements.
        for (const element of unparenthesized(value).children) {
          const e = this.of(element);
          if (isTensorKind(e.kind)) result = result ? combineTensors(result, e) : e;
        }
        continue;
      }
      if (isTensorKind(argEvidence.kind)) result = result ? combineTensors(result, argEvidence) : argEvidence;
    }
    if (!result) return evidence("tensor", `the result of ${call}`);
    return sameDevice(result, `the result of ${call}`);
  }

  /** A call of a class or function defined in this file. */
  private localCallee(fn: SyntaxNode): Evidence | undefined {
    const binding = resolveBinding(this.text(fn), fn.start, scopeOf(fn, this.env.scopes));
    if (!binding?.value) return undefined;
    if (binding.kind === "class") {
      const info = this.env.classes.get(binding.value);
      // An instance of a plain class of this file, whatever its name (`Encoder()` of a tokenizer).
      return info?.isModule ? evidence("module", `an instance of \`${info.name}\``) : evidence("unknown", `an instance of \`${this.text(fn)}\``);
    }
    if (binding.kind === "function") {
      const given = fn.parent?.type === "call" ? this.argumentReturned(binding.value, fn.parent) : undefined;
      return given ? this.of(given) : this.returnEvidence(binding.value);
    }
    return undefined;
  }

  /**
   * What `call` passes for the parameter that `fn` returns on every path: `layer_init(nn.Linear(512, n), std=0.01)` of
   * `def layer_init(layer, std, bias_const): ...; return layer` is the `nn.Linear`.
   */
  private argumentReturned(fn: SyntaxNode, call: SyntaxNode): SyntaxNode | undefined {
    const returns = returnStatementsOf(fn);
    const returned = returns[0]?.children[0];
    if (returned?.type !== "identifier" || !returns.every((statement) => statement.children[0] && this.text(statement.children[0]) === this.text(returned))) return undefined;
    const name = this.text(returned);
    const parameters = childByField(fn, "parameters")?.children ?? [];
    const index = parameters.findIndex((parameter) => {
      const named = parameterName(parameter);
      return !!named && this.text(named) === name;
    });
    // Rebound in the body (`layer = nn.Sequential(layer, ...)`): not what the call passed.
    if (index < 0 || resolveBinding(name, returned.start, scopeOf(returned, this.env.scopes))?.kind !== "parameter") return undefined;
    const passed = childByField(call, "arguments")?.children ?? [];
    const keyword = passed.find((argument) => argument.type === "keyword_argument" && this.text(childByField(argument, "name")!) === name);
    if (keyword) return childByField(keyword, "value") ?? undefined;
    const positional = passed[index];
    return positional && positional.type !== "keyword_argument" && positional.type !== "list_splat" && positional.type !== "dictionary_splat" && passed.slice(0, index).every((argument) => argument.type !== "list_splat") ? positional : undefined;
  }

  /**
   * The test that makes `name` a Python number where `node` runs: `node` is in the block of `if isinstance(name,
   * int):` (`(int, float)`, `numbers.Number`), `if type(name) is int:`, or right of `and` after one.
   */
  private testedAsNumber(node: SyntaxNode, name: string): SyntaxNode | undefined {
    return this.testHolding(node, (condition) => this.testsNumber(condition, name));
  }

  /** The test that holds where `node` runs (an `if`'s, an `and`'s left side, a conditional expression's) and that `tests` accepts. */
  private testHolding(node: SyntaxNode, tests: (condition: SyntaxNode) => boolean): SyntaxNode | undefined {
    for (let child = node, ancestor = node.parent; ancestor; child = ancestor, ancestor = ancestor.parent) {
      const type = ancestor.type;
      if (type === "function_definition" || type === "class_definition" || type === "module") return undefined;
      const condition =
        (type === "if_statement" || type === "elif_clause") && child.field === "consequence" ? childByField(ancestor, "condition")
        : type === "boolean_operator" && ancestor.tokens[0] === "and" && child.field === "right" ? childByField(ancestor, "left")
        : type === "conditional_expression" && child === ancestor.children[0] ? ancestor.children[1]
        : undefined;
      if (condition && tests(condition)) return condition;
    }
    return undefined;
  }

  /**
   * The test that fails where `node` runs (an `if`'s and the `elif`s' before the branch it is in, an `or`'s left
   * side, a conditional expression's on its `else` side) and that `tests` accepts, given the branch `node` is in.
   */
  private testFailing(node: SyntaxNode, tests: (condition: SyntaxNode, branch: SyntaxNode) => boolean): SyntaxNode | undefined {
    for (let child = node, ancestor = node.parent; ancestor; child = ancestor, ancestor = ancestor.parent) {
      const type = ancestor.type;
      if (type === "function_definition" || type === "class_definition" || type === "module") return undefined;
      if (type === "if_statement" && (child.type === "elif_clause" || child.type === "else_clause")) {
        const earlier = ancestor.children.filter((clause) => clause.type === "elif_clause" && clause.start < child.start);
        for (const condition of [childByField(ancestor, "condition"), ...earlier.map((clause) => childByField(clause, "condition"))]) {
          if (condition && tests(condition, child)) return condition;
        }
      }
      const condition =
        type === "boolean_operator" && ancestor.tokens[0] === "or" && child.field === "right" ? childByField(ancestor, "left")
        : type === "conditional_expression" && child === ancestor.children[2] ? ancestor.children[1]
        : undefined;
      if (condition && tests(condition, child)) return condition;
    }
    return undefined;
  }

  /** `isinstance(name, torch.Tensor)` (alone or in an `and`). */
  private testsTensor(raw: SyntaxNode, name: string): boolean {
    const node = unparenthesized(raw);
    if (node.type === "boolean_operator" && node.tokens[0] === "and") return node.children.some((part) => this.testsTensor(part, name));
    return this.isTensorInstanceTest(node, name);
  }

  private isTensorInstanceTest(node: SyntaxNode, name: string): boolean {
    const tested = this.isinstanceType(node, name);
    return !!tested && (/^(torch\.)?Tensor$/.test(this.text(unparenthesized(tested))) || this.qualifiedName(unparenthesized(tested)) === "torch.Tensor");
  }

  /** `isinstance(name, torch.Tensor)`, `torch.is_tensor(name)`: false only where `name` is no tensor. */
  private testsTensorAlone(raw: SyntaxNode, name: string): boolean {
    const node = unparenthesized(raw);
    if (node.type === "call" && this.qualifiedName(childByField(node, "function")!) === "torch.is_tensor") {
      const [value] = positionalArguments(node);
      return !!value && unparenthesized(value).type === "identifier" && this.text(value) === name;
    }
    return this.isTensorInstanceTest(node, name);
  }

  /** The type `node` tests `name` against when it is `isinstance(name, type)`. */
  private isinstanceType(node: SyntaxNode, name: string): SyntaxNode | undefined {
    if (node.type !== "call" || this.text(childByField(node, "function")!) !== "isinstance") return undefined;
    const [value, type] = positionalArguments(node);
    return value && type && unparenthesized(value).type === "identifier" && this.text(value) === name ? type : undefined;
  }

  private testsNumber(raw: SyntaxNode, name: string): boolean {
    const node = unparenthesized(raw);
    if (node.type === "boolean_operator" && node.tokens[0] === "and") return node.children.some((part) => this.testsNumber(part, name));
    const numberType = (type: SyntaxNode): boolean => {
      const t = unparenthesized(type);
      if (t.type === "tuple") return t.children.length > 0 && t.children.every(numberType);
      return /^(int|float|bool|complex|numbers\.(Number|Real|Integral))$/.test(this.text(t));
    };
    const tested = this.isinstanceType(node, name);
    if (tested) return numberType(tested);
    // `type(step) is int`, `type(step) == float`
    if (node.type === "comparison_operator" && node.children.length === 2 && (node.tokens[0] === "is" || node.tokens[0] === "==")) {
      const [left, right] = node.children;
      const call = unparenthesized(left);
      if (call.type !== "call" || this.text(childByField(call, "function")!) !== "type") return false;
      const [value] = positionalArguments(call);
      return !!value && this.text(value) === name && numberType(right);
    }
    return false;
  }

  /** `torch.rand(1)`, or a name bound to it: a factory call without `device=` (and no default device set). */
  private madeOnHost(raw: SyntaxNode, depth = 0): boolean {
    const node = unparenthesized(raw);
    if (node.type === "identifier" && depth === 0) {
      const value = assignedValue(node, this.env.text, this.env.scopes);
      return !!value && this.madeOnHost(value, depth + 1);
    }
    if (node.type !== "call" || this.env.defaultDeviceChanged) return false;
    const name = this.qualifiedName(childByField(node, "function")!) ?? "";
    return /^torch\.(rand|randn|randint|zeros|ones|full|empty|arange)$/.test(name) && !keywordArgument(node, "device", this.env.text);
  }

  /** A class of this file that is an `nn.Module` (by its bases or its methods). */
  isModuleClass(cls: SyntaxNode): boolean {
    return this.env.classes.get(cls)?.isModule ?? false;
  }

  /** What a function of this file returns, combined over its `return` statements. */
  returnEvidence(fn: SyntaxNode): Evidence {
    const cached = this.returnMemo.get(fn);
    if (cached) return cached;
    this.returnMemo.set(fn, UNKNOWN);
    let result: Evidence | undefined;
    for (const statement of returnStatementsOf(fn)) {
      const value = statement.children[0];
      if (value && value.type !== "none") {
        const e = this.of(value);
        result = result ? (result.kind === e.kind ? result : UNKNOWN) : e;
      }
    }
    const final = result && isTensorKind(result.kind)
      ? { kind: result.kind, reason: `returned by \`${this.text(childByField(fn, "name")!)}()\` (${result.reason})` }
      : (result ?? UNKNOWN);
    this.returnMemo.set(fn, final);
    return final;
  }

  /**
   * What a prepared object is: a loader (or a name like `train_dataloader` of unknown origin) starts yielding
   * device batches; anything else stays what it was.
   */
  private prepared(source: SyntaxNode): Evidence {
    const before = this.of(source);
    const namedLikeLoader = (source.type === "identifier" || source.type === "attribute") && DATA_ITERABLE_NAME.test(lastName(this.text(source)));
    if (before.kind === "loader" || ((before.kind === "unknown" || before.kind === "container") && namedLikeLoader))
      return evidence("device-loader", `\`${this.text(source)}\` prepared to put its batches on the device`);
    return before;
  }

  private ofMethodCall(node: SyntaxNode, fn: SyntaxNode): Evidence {
    const sources = preparedSources(node, this.env.text);
    if (sources) return sources.length === 1 ? this.prepared(sources[0]) : evidence("container", "the objects `prepare` returns");
    const gathered = gatheredArgument(node, this.env.text);
    if (gathered) return this.of(gathered);
    const receiver = childByField(fn, "object")!;
    const method = this.text(childByField(fn, "attribute")!);
    // `k.endswith("_ids")`, `name.replace("a", "b")`: methods only strings have; their results are Python values.
    if (STRING_METHODS.has(method)) return evidence("scalar", `the result of the string method \`.${method}()\``);
    const receiverEvidence = this.of(receiver);
    const kind = receiverEvidence.kind;
    const call = `\`.${method}()\``;
    if (kind === "self") {
      const owner = enclosingClass(node);
      const info = owner ? this.env.classes.get(owner) : undefined;
      const attribute = info?.attributes.get(method);
      if (attribute && attribute.some((value) => this.of(value).kind === "module")) return evidence("gpu", `the output of \`self.${method}(...)\``);
      // `logits, _ = self.forward(tokens)` in a model's `generate`: its own forward pass, as `self(...)` is.
      if (method === "forward" && owner && this.isModuleClass(owner)) return evidence("gpu", "the output of `self.forward(...)`, the module's own forward pass");
      const local = info?.methods.get(method);
      if (local) return this.returnEvidence(local);
      // `self.matcher(iou)` with `self.matcher = Matcher(...)`, a plain class of this file: what its `__call__` returns.
      const call = this.plainInstanceMethod(fn, "__call__");
      return call ? this.returnEvidence(call) : UNKNOWN;
    }
    // `task.step(actions)` of `task: PointMassTask`, a plain class of this file: what its method returns.
    const local = kind === "unknown" ? this.plainInstanceMethod(receiver, method) : undefined;
    if (local) return this.returnEvidence(local);
    if (kind === "module") {
      // `self.transformer.ln_f(x)`: an entry of an `nn.ModuleDict` runs its forward pass.
      if (method === "forward" || (CONTAINER_MODULE.test(receiverEvidence.reason) && !MODULE_METHOD.test(method))) return this.modelOutput(receiver, `the output of \`${this.text(fn)}(...)\``);
      if (RETURNS_MODULE.test(method)) return receiverEvidence;
      return this.moduleMethodOutput(node, fn);
    }
    if (isTensorKind(kind)) {
      // `instances.has("pred_boxes")`, `outputs.get("logits")`: a model's output that is a structure, not a tensor
      // (no tensor method but `.to("cuda")` and `.type("torch.HalfTensor")` takes a string first).
      const [first] = positionalArguments(node);
      if (first && isStringNode(unparenthesized(first)) && method !== "to" && method !== "type") return UNKNOWN;
      if (method === "numpy") return evidence("numpy", "the result of `.numpy()`");
      if (method === "tolist") return evidence("container", "the result of `.tolist()`");
      if (NON_TENSOR_METHODS.has(method)) return evidence("scalar", `the result of ${call}`);
      // `x.type()` names the tensor's type (`'torch.cuda.FloatTensor'`); `x.type(torch.HalfTensor)` converts it.
      if (method === "type" && !first && !childByField(node, "arguments")?.children.some((argument) => argument.type === "keyword_argument")) return evidence("scalar", "the type's name that `.type()` returns");
      // What has a method tensors lack is a module or another object moved with `.to(device)`: `model.get_step()`
      // says nothing of the GPU, `G.mapping(z=zs)` on GPU tensors is a model's computation, which stays there.
      if (!TENSOR_METHODS.has(method)) return this.moduleMethodOutput(node, fn);
      return this.afterDeviceMethod(node, method, receiverEvidence);
    }
    if (kind === "numpy") return method === "item" ? evidence("scalar", "a NumPy scalar") : evidence("numpy", receiverEvidence.reason);
    // `data = data.to(device)` with `data = dataset[0]` (a graph, named like a loader): a loader has no `.to()`, so
    // this is a data object, moved whole.
    if (kind === "loader" && (method === "to" || method === "cuda")) return this.afterDeviceMethod(node, method, evidence("batch", `\`${this.text(receiver)}\` holds host data`));
    // Whatever has `.item()` (a tensor, a NumPy array), it returns a Python number.
    if (kind === "unknown" && method === "item" && positionalArguments(node).length === 0) return evidence("scalar", "the result of `.item()`");
    if (kind === "unknown" && (TORCH_ONLY_METHODS.has(method) || method === "to" || method === "cpu")) {
      return this.afterDeviceMethod(node, method, evidence("tensor", `\`${this.text(receiver)}\` has tensor methods`));
    }
    // `labels.sum(dim=2)`: NumPy says `axis=`; `dim=` and `keepdim=` are PyTorch's.
    if (kind === "unknown" && (keywordArgument(node, "dim", this.env.text) || keywordArgument(node, "keepdim", this.env.text)))
      return this.afterDeviceMethod(node, method, evidence("tensor", `\`.${method}(dim=...)\` is a tensor method`));
    return UNKNOWN;
  }

  /** The method `method` (`"__call__"` for calling it) of the plain class of this file that `instance` is an instance of. */
  private plainInstanceMethod(instance: SyntaxNode, method: string): SyntaxNode | undefined {
    const cls = this.instanceClass(instance);
    return cls && this.inheritedMethod(cls, method);
  }

  /**
   * The plain class of this file (not a module) that `node` is an instance of: a name assigned `Cls(...)` or
   * annotated `Cls`, or `self.x` where every assignment of `x` in the class is `Cls(...)`. (The hot-path analysis
   * follows instances the other way, from each construction to its uses: `methodCallsOn`.)
   */
  private instanceClass(raw: SyntaxNode): SyntaxNode | undefined {
    const node = unparenthesized(raw);
    const plainClass = (name: SyntaxNode | null | undefined): SyntaxNode | undefined => {
      if (name?.type !== "identifier") return undefined;
      const binding = resolveBinding(this.text(name), name.start, scopeOf(name, this.env.scopes));
      return binding?.kind === "class" && binding.value && !this.env.classes.get(binding.value)?.isModule ? binding.value : undefined;
    };
    const constructed = (value: SyntaxNode) => (value.type === "call" ? plainClass(childByField(value, "function")) : undefined);
    if (node.type === "identifier") {
      const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
      if (binding?.kind === "assign" && binding.unpackPath.length === 0 && binding.value) return constructed(unparenthesized(binding.value));
      const annotation = binding?.kind === "parameter" ? binding.annotation : undefined;
      return annotation ? plainClass(annotation.type === "type" ? annotation.children[0] : annotation) : undefined;
    }
    if (node.type === "attribute" && this.text(childByField(node, "object")!) === "self") {
      const owner = enclosingClass(node);
      const values = owner && this.env.classes.get(owner)?.attributes.get(this.text(childByField(node, "attribute")!));
      const classes = values?.map((value) => constructed(unparenthesized(value)));
      return classes && classes.length > 0 && classes.every((cls) => cls && cls === classes[0]) ? classes[0] : undefined;
    }
    return undefined;
  }

  /** `fft = Audio2Mel(...).cuda()`, then `fft(x)`: a tensor is not callable, so what was moved is a module. */
  private movedWholeOutput(fn: SyntaxNode): Evidence {
    return evidence("gpu", `the output of \`${this.text(fn)}(...)\`, moved to the GPU as a whole`);
  }

  /**
   * What running `model` gives: a GPU tensor, unless the file may put nothing on a GPU (`mayUseGpu`) and
   * built the model itself (`model = Net()`), which then stays on the CPU (a tutorial that trains on the CPU).
   */
  private modelOutput(model: SyntaxNode, reason: string): Evidence {
    if (this.env.mayUseGpu || model.type !== "identifier") return evidence("gpu", reason);
    const assigned = assignedValue(model, this.env.text, this.env.scopes);
    const made = assigned && unparenthesized(assigned);
    const constructor = made?.type === "call" ? childByField(made, "function") : undefined;
    const built = !!constructor && /^[A-Z]/.test(lastName(this.text(constructor)));
    return built ? evidence("tensor", `${reason}, a model this file builds and never moves to a device`) : evidence("gpu", reason);
  }

  /** `model.encode(src, mask)`, `model.decode(ys, memory)`: a model's computation on GPU tensors stays there. */
  private moduleMethodOutput(node: SyntaxNode, fn: SyntaxNode): Evidence {
    const method = this.text(childByField(fn, "attribute")!);
    if (!MODULE_SETUP_METHOD.test(method) && argumentValues(node).some((argument) => this.of(argument).kind === "gpu"))
      return evidence("gpu", `the output of \`${this.text(fn)}(...)\` on GPU tensors`);
    return UNKNOWN;
  }

  /** The evidence after `.to(...)`, `.cuda()`, `.cpu()` or another tensor method. */
  private afterDeviceMethod(node: SyntaxNode, method: string, receiver: Evidence): Evidence {
    if (method === "cpu" || method === "pin_memory") return evidence("cpu", `the result of \`.${method}()\``);
    // A batch moved whole (`batch = batch.to(device)`) has its tensor attributes on the GPU too; a model or an
    // object of unknown kind may have Python settings as attributes (`net.label_dim`).
    const whole = receiver.kind === "batch" ? { moved: true } : {};
    if (method === "cuda") return { kind: "gpu", reason: "moved to the GPU with `.cuda()`", ...whole };
    // `mask.type(torch.FloatTensor)`: the legacy type names the CPU.
    if (method === "type") {
      const [type] = positionalArguments(node);
      if (type && HOST_TENSOR_TYPE.test(this.text(type))) return evidence("cpu", `cast to \`${this.text(type)}\`, a tensor type of the CPU`);
    }
    // `mask.type_as(query)`: cast to the other tensor's type, which names its device.
    if (method === "type_as") {
      const [other] = positionalArguments(node);
      const target = other ? this.of(other) : UNKNOWN;
      if (target.kind === "gpu" || target.kind === "cpu") return evidence(target.kind, `cast with \`.type_as(${this.text(other!)})\` (${target.reason})`);
    }
    if (method === "to") {
      const target = this.deviceArgument(node);
      if (target) {
        const kind = this.deviceOf(target);
        if (kind === "cpu") return evidence("cpu", `moved to the CPU with \`.to(${this.text(target)})\``);
        if (kind === "gpu") return { kind: "gpu", reason: `moved with \`.to(${this.text(target)})\``, ...whole };
        // Moved to a device of unknown kind: wherever it was before says nothing of where it is now.
        if (kind === "unknown") return evidence("tensor", `moved with \`.to(${this.text(target)})\``);
      }
    }
    if (receiver.kind === "batch") return evidence("cpu", receiver.reason);
    return receiver;
  }

  /** The argument of `.to(...)` that names a device, if any. */
  deviceArgument(call: SyntaxNode): SyntaxNode | undefined {
    const keyword = keywordArgument(call, "device", this.env.text);
    if (keyword) return keyword;
    const [first] = positionalArguments(call);
    if (!first) return undefined;
    const kind = this.deviceOf(first);
    return kind === "cpu" || kind === "gpu" ? first : undefined;
  }

  /** Whether an expression names the CPU, an accelerator, or something that is not a device (a dtype). */
  deviceOf(raw: SyntaxNode, depth = 0): DeviceKind {
    const node = unparenthesized(raw);
    if (depth > 8) return "unknown";
    switch (node.type) {
      case "string": {
        const value = stringValue(this.text(node)).trim().toLowerCase();
        if (value === "cpu") return "cpu";
        if (/^(cuda|mps|xpu|hpu|npu|xla|privateuseone)(:\d+)?$/.test(value) || value.startsWith("cuda")) return "gpu";
        return "not-device";
      }
      case "integer":
        return "gpu";
      case "call": {
        const fn = childByField(node, "function");
        const name = fn ? this.qualifiedName(fn) : undefined;
        if (name === "torch.device") {
          const [first] = positionalArguments(node);
          const kind = first ? this.deviceOf(first, depth + 1) : "unknown";
          return kind === "cpu" ? "cpu" : "gpu";
        }
        // `torch.cuda.current_device()`, `dist_util.dev()`, `get_device()`: a helper that names the accelerator.
        if (name && DEVICE_GETTER.test(lastName(name))) return "gpu";
        return "unknown";
      }
      case "conditional_expression": {
        const [a, condition, b] = node.children;
        // `torch.device("cpu" if backend == "gloo" else "cuda")` (detectron2's `comm.py` and its copies): the helpers
        // gather over a gloo group by default, so the host.
        const gloo = condition ? this.glooTest(condition) : undefined;
        if (gloo !== undefined) {
          const branch = gloo ? a : b;
          return branch ? this.deviceOf(branch, depth + 1) : "unknown";
        }
        const ka = a ? this.deviceOf(a, depth + 1) : "unknown";
        const kb = b ? this.deviceOf(b, depth + 1) : "unknown";
        if (ka === "gpu" || kb === "gpu") return "gpu";
        return ka === kb ? ka : "unknown";
      }
      case "attribute": {
        const attribute = this.text(childByField(node, "attribute")!);
        const qualified = this.qualifiedName(node);
        if (qualified && /^torch\.(float|int|bool|long|half|double|bfloat|complex|uint|short|cfloat|cdouble)/.test(qualified)) return "not-device";
        if (attribute === "device") {
          const owner = this.of(childByField(node, "object")!);
          return owner.kind === "cpu" || owner.kind === "batch" ? "cpu" : "gpu";
        }
        if (/dtype/i.test(attribute)) return "not-device";
        if (CPU_DEVICE_NAME.test(attribute)) return "cpu";
        return DEVICE_NAME.test(attribute) ? "gpu" : "unknown";
      }
      case "identifier": {
        const name = this.text(node);
        if (/dtype/i.test(name)) return "not-device";
        const scope = scopeOf(node, this.env.scopes);
        const binding = resolveBinding(name, node.start, scope);
        // `device = accelerator() if ... else torch.device("cpu")` in if/else branches: any GPU branch counts.
        const owner = binding ? bindingScope(name, binding, scope) : undefined;
        const assigned = (owner?.bindings.get(name) ?? []).filter((b) => (b.kind === "assign" || b.kind === "walrus") && b.value && b.unpackPath.length === 0);
        if (assigned.length > 0) {
          const kinds = assigned.map((b) => this.deviceOf(b.value!, depth + 1));
          if (kinds.includes("gpu")) return "gpu";
          if (kinds.every((kind) => kind === "cpu")) return "cpu";
          if (kinds.every((kind) => kind === "not-device")) return "not-device";
        }
        if (binding?.kind === "parameter") {
          const passed = this.passedDevice(binding, depth);
          if (passed) return passed;
        }
        if (binding?.kind === "parameter" && binding.defaultValue) {
          const kind = this.deviceOf(binding.defaultValue, depth + 1);
          // `device="cpu"` is a default callers override, unless every call of the file leaves it.
          if (kind === "cpu") return this.env.leftAtDefault?.(binding) ? "cpu" : "gpu";
          if (kind !== "unknown") return kind;
        }
        if (CPU_DEVICE_NAME.test(name)) return "cpu";
        if (DEVICE_NAME.test(name)) return "gpu";
        // `torch.tensor(v).to(src_tokens)`: a tensor where a device is expected stands for its device.
        const asTensor = this.of(node).kind;
        return asTensor === "gpu" ? "gpu" : asTensor === "cpu" || asTensor === "batch" ? "cpu" : "unknown";
      }
      default:
        return "unknown";
    }
  }

  private ofAttribute(node: SyntaxNode): Evidence {
    const object = childByField(node, "object")!;
    const attribute = this.text(childByField(node, "attribute")!);
    const qualified = this.qualifiedName(node);
    if (qualified?.startsWith("torch.") && !qualified.startsWith("torch.nn.")) return evidence("scalar", `\`${qualified}\``);
    const owner = this.of(object);
    if (owner.kind === "self") {
      if (attribute === "training" || attribute === "device") return evidence("scalar", `\`self.${attribute}\``);
      const cls = enclosingClass(node);
      const info = cls ? this.env.classes.get(cls) : undefined;
      if (info?.tensorAttributes.has(attribute)) return evidence("tensor", `\`self.${attribute}\` is a parameter or buffer`);
      // `self.grid = torch.zeros(...)` a few lines up in the same method, on every path here: that value, whatever
      // later lines or other methods make of the attribute.
      const method = enclosingFunctionOf(node);
      const setHere = (info?.attributes.get(attribute) ?? []).filter((value) => method && value.end <= node.start && enclosingFunctionOf(value) === method && value.parent?.type === "assignment" && reachesAlways(value.parent, node));
      const last = setHere.reduce<SyntaxNode | undefined>((found, value) => (!found || value.start > found.start ? value : found), undefined);
      const latest = last ? this.of(last) : UNKNOWN;
      if (latest.kind !== "unknown") return latest;
      for (const value of info?.attributes.get(attribute) ?? []) {
        // `self.src_len = None` in `__init__`: a place kept for a value set later, which says nothing of it.
        if (isNoneNode(value)) continue;
        const e = this.of(value);
        // `self.sum = 0`, then `self.sum += val * n` (a meter): the number only starts what values are added to.
        if (e.kind === "scalar" && cls && this.accumulatedAttributes(cls).has(attribute)) return UNKNOWN;
        if (e.kind === "cpu" && info!.isModule) {
          const hostOnly = `\`self.${attribute}\`, no parameter or buffer, stays in host memory when the module is moved`;
          if (!this.plainHostAttribute(info!, attribute)) return evidence("tensor", `\`self.${attribute}\`: ${e.reason}`);
          return e.reason.startsWith(hostOnly) ? e : evidence("cpu", `${hostOnly}: ${e.reason}`);
        }
        if (e.kind !== "unknown") return e;
      }
      // Set where nothing tells what it is (a dataclass field, a builder's result): its name may.
      if (DATA_ITERABLE_NAME.test(attribute)) return evidence("loader", `\`self.${attribute}\` is named like a data loader`);
      return UNKNOWN;
    }
    if (SCALAR_ATTRIBUTES.has(attribute) && (isTensorKind(owner.kind) || owner.kind === "numpy" || owner.kind === "unknown" || owner.kind === "module"))
      return evidence("scalar", `\`.${attribute}\` is metadata`);
    if (isTensorKind(owner.kind)) {
      if (TENSOR_ATTRIBUTES.has(attribute)) return owner.kind === "batch" ? evidence("cpu", owner.reason) : owner;
      // `torch.topk(logits, k).indices`: the named tuple's tensors are where the input is.
      // Also through a name: `top = sims.topk(k)`, then `top.indices`.
      if ((attribute === "values" || attribute === "indices") && this.valuesAndIndices(object)) return owner;
      if (owner.kind === "batch") return owner;
      // `tokenizer(text, return_tensors="pt").input_ids`: the encoding's tensors are where it is.
      if (owner.kind === "cpu" && ENCODING_FIELD.test(attribute)) return owner;
      if (owner.kind === "gpu" && OUTPUT_TENSOR_ATTRIBUTES.has(attribute)) return owner;
      // `data = data.to(device)` (a PyG `Data`, a batch class with `.to()`), then `data.train_mask`: a tensor has no
      // such attribute, so `data` is an object whose tensors `.to()` moved; counts and sizes stay Python numbers.
      if (owner.kind === "gpu" && owner.moved && !COUNT_ATTRIBUTE.test(attribute)) return { kind: "gpu", reason: `\`.${attribute}\` of \`${this.text(object)}\`, ${owner.reason}`, moved: true };
      return UNKNOWN;
    }
    if (owner.kind === "module") {
      if (attribute === "weight" || attribute === "bias") return evidence("gpu", `a parameter of \`${this.text(object)}\``);
      if (attribute === "module") return owner;
      // `self.transformer.ln_f` of `self.transformer = nn.ModuleDict(dict(ln_f=nn.LayerNorm(...)))`: an entry is a module.
      if (CONTAINER_MODULE.test(owner.reason) && !MODULE_METHOD.test(attribute)) return evidence("module", `\`.${attribute}\` of \`${this.text(object)}\`, ${CONTAINER_ENTRY}`);
      return UNKNOWN;
    }
    if (owner.kind === "numpy") return owner;
    if (owner.kind === "unknown" && OUTPUT_TENSOR_ATTRIBUTES.has(attribute)) return evidence("tensor", `\`.${attribute}\` holds a tensor`);
    return UNKNOWN;
  }

  /** A call of an op that returns a `(values, indices)` named tuple (`x.topk(k)`), or a name assigned one. */
  private valuesAndIndices(raw: SyntaxNode): boolean {
    const named = unparenthesized(raw);
    const assigned = named.type === "identifier" ? assignedValue(named, this.env.text, this.env.scopes) : named;
    const node = assigned && unparenthesized(assigned);
    return node?.type === "call" && VALUES_INDICES_OP.test(this.text(childByField(node, "function")!));
  }

  /** `["epoch"]`, `["best_score"]`, `["global_step"]`: a key under which a checkpoint keeps a number. */
  private savedCounterKey(node: SyntaxNode): boolean {
    const keys = childrenByField(node, "subscript");
    if (keys.length !== 1 || !isStringNode(unparenthesized(keys[0]))) return false;
    const key = stringValue(this.text(unparenthesized(keys[0])));
    return COUNTER_NAME.test(key) || SAVED_NUMBER_KEY.test(key);
  }

  /**
   * A dict built by a comprehension is a dict; one whose every value is a tensor moved to the GPU (`batch = {k:
   * v.to(device) for k, v in batch.items()}`) holds GPU tensors under every key.
   */
  private ofDictionaryComprehension(node: SyntaxNode): Evidence {
    const dict: Evidence = { kind: "container", reason: "a Python dict", mapping: true };
    const pair = childByField(node, "body");
    const value = pair?.type === "pair" ? childByField(pair, "value") : undefined;
    const values = value ? this.of(value) : UNKNOWN;
    return values.kind === "gpu" ? { ...dict, reason: `a dict of tensors each ${values.reason}`, values } : dict;
  }

  /**
   * A tensor attribute of a module that is no parameter or buffer stays where it was made when the module is
   * moved (`Module.to` moves parameters and buffers only): every value the class gives it is made on the host
   * (or made of the attribute itself without moving it), and the class changes nothing of how it is moved (`to`,
   * `cuda`, `_apply`).
   */
  private plainHostAttribute(info: ClassInfo, attribute: string): boolean {
    if (info.methods.has("to") || info.methods.has("cuda") || info.methods.has("_apply")) return false;
    // `self.grid = Variable(self.grid)`: a value made of the attribute itself keeps it where it is, unless it moves it.
    const keepsItWhereItIs = (value: SyntaxNode) => this.text(value).includes(`self.${attribute}`) && !/\.(cuda|to)\(/.test(this.text(value));
    return (info.attributes.get(attribute) ?? []).every((value) => keepsItWhereItIs(value) || this.of(value).kind === "cpu");
  }

  /** `name.backward(...)` is called on the value that `binding` gives `name`, somewhere in its scope. */
  private differentiated(binding: Binding): boolean {
    const scope = scopeOf(binding.node, this.env.scopes).node;
    const uses = this.backwardReceivers(scope).get(binding.name);
    return !!uses?.some((use) => resolveBinding(binding.name, use.start, scopeOf(use, this.env.scopes)) === binding);
  }

  /** The plain names that `.backward(` is called on in `scope` (`loss.backward()`, not `self.loss.backward()`), by name; one pass over its text. */
  private backwardReceivers(scope: SyntaxNode): Map<string, SyntaxNode[]> {
    let found = this.backwardCalls.get(scope);
    if (found) return found;
    found = new Map();
    const text = this.env.text;
    const call = /\.backward\(/g;
    call.lastIndex = scope.start;
    for (let match = call.exec(text); match && match.index < scope.end; match = call.exec(text)) {
      const receiver = nodeAt(scope, match.index - 1);
      if (receiver.type !== "identifier" || receiver.end !== match.index || receiver.field === "attribute") continue;
      const name = text.slice(receiver.start, receiver.end);
      const uses = found.get(name);
      if (uses) uses.push(receiver);
      else found.set(name, [receiver]);
    }
    this.backwardCalls.set(scope, found);
    return found;
  }
  private readonly backwardCalls = new Map<SyntaxNode, Map<string, SyntaxNode[]>>();

  private ofSubscript(node: SyntaxNode): Evidence {
    const value = childByField(node, "value");
    if (!value) return UNKNOWN;
    // `optimizer.param_groups[0]["lr"]`, `group["lr"]` in `for group in optimizer.param_groups`: a hyperparameter,
    // a Python number by convention.
    const group = unparenthesized(value);
    let groups = group.type === "subscript" ? unparenthesized(childByField(group, "value") ?? group) : undefined;
    if (group.type === "identifier") {
      const binding = resolveBinding(this.text(group), group.start, scopeOf(group, this.env.scopes));
      if (binding?.kind === "for" && binding.unpackPath.length === 0 && binding.value) groups = unparenthesized(binding.value);
    }
    if (groups?.type === "attribute" && this.text(childByField(groups, "attribute")!) === "param_groups") return evidence("scalar", "an optimizer's hyperparameter");
    const owner = this.of(value);
    // `checkpoint["cur_itrs"]`, `ckpt["epoch"]`: the counts saved beside the weights are Python numbers.
    if (owner.reason === LOADED_ON_HOST && this.savedCounterKey(node)) return evidence("scalar", `the count \`${this.text(node)}\` saved in a checkpoint`);
    if (isTensorKind(owner.kind)) return owner;
    if (owner.kind === "numpy" || owner.kind === "scalar") return owner;
    if (owner.values) return owner.values;
    // `dataset[0]`: an item of a dataset, built on the host like a loader's batch.
    if (owner.kind === "loader" && /dataset|^ds$|_ds$/i.test(this.text(value))) return evidence("batch", `an item of \`${this.text(value)}\``);
    // `self.conv_blocks[i][j]` of an `nn.ModuleList`: a layer, as when iterated (`for block in self.blocks`).
    if (owner.kind === "module") return CONTAINER_MODULE.test(owner.reason) ? elementEvidence(owner) : owner;
    // `dataloaders["train"]`, `self.dataloaders[split]` of a `dict()` filled later: one of several loaders, kept by split.
    if ((owner.kind === "unknown" || owner.kind === "container") && (group.type === "identifier" || group.type === "attribute") && LOADERS_NAME.test(lastName(this.text(group)))) return evidence("loader", `a loader of \`${this.text(group)}\``);
    return UNKNOWN;
  }
}

/**
 * `flow.cpu() - flow_gt`, `torch.arange(half) / half`, `xywh / torch.tensor(im0.shape)`, or `torch.sum(...)` of
 * such: a tensor copied to the host, made there as a range or from a sequence, or computed from one meets host
 * values, since with a GPU tensor the operation raises (but for a 0-dim tensor, which a range or a tensor of a
 * sequence never is and a copied-back field rarely is).
 */
/** `model.eval()`, `net.parameters()`, `net.named_parameters()`, `model.load_state_dict(`: a method only a module has, on a plain name. */
const MODULE_ONLY_METHOD_CALL = /(?<![\w.])(\w+)\.(eval(?=\(\s*\))|(?:named_)?parameters(?=\()|load_state_dict(?=\())/g;

/** The reasons `afterDeviceMethod` gives for a value moved to a GPU. */
const MOVED_TO_GPU = /^moved (to the GPU )?with `\.(cuda|to|type)\(/;

/** Evidence of a value moved to the GPU whole (`maml = Meta(args, config).to(device)`): called, it is a module. */
export function movedToGpu(evidence: Evidence): boolean {
  return evidence.kind === "gpu" && MOVED_TO_GPU.test(evidence.reason);
}
const LOADED_ON_HOST = "loaded with `map_location=\"cpu\"`";
/** `dict[str, Tensor]`, `Optional[Dict[str, torch.Tensor]]`, `Mapping[...]`: a dict, whatever its values are. */
const MAPPING_ANNOTATION = /^(Optional\[\s*)?((typing|collections|t)\.)?(dict|Dict|Mapping|MutableMapping|OrderedDict|DefaultDict|defaultdict)\b/;
/**
 * Keys of the counts a checkpoint keeps beside the weights (`cur_itrs`, `epochs`, `global_step`); not scores
 * (`best_acc1` is a tensor in pytorch/examples' ImageNet script) or losses.
 */
const SAVED_NUMBER_KEY = /epoch|step|iter|itrs/i;

function certainlyOnHost(evidence: Evidence): boolean {
  return evidence.kind === "cpu" && (evidence.reason.startsWith("the result of `.cpu()`") || evidence.reason.endsWith(" of a CPU tensor") || HOST_RANGE_REASON.test(evidence.reason));
}
const HOST_RANGE_REASON = /^`[\w.]*\b(arange|linspace|logspace|randperm)\(\.\.\.\)` without `device=`|^`[\w.]*\btensor\(\.\.\.\)` of a sequence without `device=`/;

function combineTensors(a: Evidence, b: Evidence): Evidence {
  if (a.kind === "gpu") return a;
  if (b.kind === "gpu") return b;
  if (certainlyOnHost(a)) return a;
  if (certainlyOnHost(b)) return b;
  if (a.kind === "tensor") return a;
  if (b.kind === "tensor") return b;
  return a.kind === "cpu" ? a : b.kind === "cpu" ? b : evidence("cpu", a.reason);
}

/** The evidence of `a <op> b`. */
export function combine(a: Evidence, b: Evidence): Evidence {
  const aTensor = isTensorKind(a.kind);
  const bTensor = isTensorKind(b.kind);
  if (aTensor && bTensor) return combineTensors(a, b);
  if (aTensor || bTensor) {
    const tensor = aTensor ? a : b;
    const other = aTensor ? b : a;
    if (other.kind === "scalar" || other.kind === "numpy" || tensor.kind === "gpu") return tensor.kind === "batch" ? evidence("cpu", tensor.reason) : tensor;
    if (certainlyOnHost(tensor)) return tensor;
    return evidence("tensor", tensor.reason);
  }
  if (a.kind === "numpy" || b.kind === "numpy") return a.kind === "numpy" ? a : b;
  if (a.kind === "scalar" && b.kind === "scalar") return a;
  return UNKNOWN;
}

function sameDevice(source: Evidence, reason: string): Evidence {
  if (source.kind === "gpu") return evidence("gpu", `${reason} of a GPU tensor`);
  if (source.kind === "cpu" || source.kind === "batch") return evidence("cpu", `${reason} of a CPU tensor`);
  return evidence("tensor", reason);
}

/** A layer of an `nn.ModuleList`/`nn.ModuleDict` (`for block in self.blocks`), not a model of its own. */
export function isContainerEntry(evidence: Evidence): boolean {
  return evidence.kind === "module" && evidence.reason.includes(CONTAINER_ENTRY);
}

/** What indexing or iterating a value of this evidence yields. */
export function elementEvidence(whole: Evidence): Evidence {
  switch (whole.kind) {
    case "gpu":
    case "tensor":
    case "cpu":
    case "batch":
    case "numpy":
      return whole;
    case "loader":
      return evidence("batch", "a batch from a data loader");
    case "device-loader":
      return evidence("gpu", "a batch the loader put on the device");
    case "module":
      // `for block in self.transformer.h:` over an `nn.ModuleList`: each item is a module.
      return CONTAINER_MODULE.test(whole.reason) ? evidence("module", CONTAINER_ENTRY) : UNKNOWN;
    case "scalar":
      // An element of a Python number's kin (a `torch.Size`, a string, a list from `.tolist()`) is one too.
      return evidence("scalar", `an element of a Python value (${whole.reason})`);
    default:
      return UNKNOWN;
  }
}

/**
 * The arguments of a call that hands objects to a launcher which returns them prepared for the device, in
 * order: `accelerator.prepare(model, optimizer, loader)` (accelerate) and `fabric.setup_dataloaders(loader)`
 * (Lightning Fabric, which moves batches unless `move_to_device=False`). Undefined for any other call.
 */
function preparedSources(raw: SyntaxNode, text: string): SyntaxNode[] | undefined {
  const prepared = acceleratePrepared(raw, text);
  if (prepared) return prepared;
  const named = namedMethodCall(raw, text);
  if (named?.method !== "setup_dataloaders" || !/fabric$/i.test(named.receiver)) return undefined;
  const moveToDevice = keywordArgument(named.call, "move_to_device", text);
  if (moveToDevice && text.slice(moveToDevice.start, moveToDevice.end) === "False") return undefined;
  return positionalArguments(named.call);
}

/** The arguments of `accelerator.prepare(...)`, which accelerate returns prepared for the device; undefined for any other call. */
export function acceleratePrepared(raw: SyntaxNode, text: string): SyntaxNode[] | undefined {
  const named = namedMethodCall(raw, text);
  return named?.method === "prepare" && /accelerator$/i.test(named.receiver) ? positionalArguments(named.call) : undefined;
}

/** `receiver.method(...)`: the call, with the texts of its method and its receiver; undefined for any other node. */
function namedMethodCall(raw: SyntaxNode, text: string): { call: SyntaxNode; method: string; receiver: string } | undefined {
  const call = unparenthesized(raw);
  const callee = call.type === "call" ? childByField(call, "function") : undefined;
  if (callee?.type !== "attribute") return undefined;
  const textOf = (node: SyntaxNode) => text.slice(node.start, node.end);
  return { call, method: textOf(childByField(callee, "attribute")!), receiver: textOf(childByField(callee, "object")!) };
}

const ACCELERATE_COLLECTIVE = /^(gather|gather_for_metrics|reduce|pad_across_processes)$/;
const FABRIC_COLLECTIVE = /^(all_gather|all_reduce)$/;

/**
 * The argument of a collective that returns its tensors, gathered or reduced across processes, on the device they
 * were on: `accelerator.gather_for_metrics(x)`, `accelerator.gather(x)`, `accelerator.reduce(x)`,
 * `accelerator.pad_across_processes(x)` (accelerate), `fabric.all_gather(x)`, `fabric.all_reduce(x)` (Lightning
 * Fabric). Undefined for any other call.
 */
function gatheredArgument(raw: SyntaxNode, text: string): SyntaxNode | undefined {
  const named = namedMethodCall(raw, text);
  if (!named) return undefined;
  const { call, method, receiver } = named;
  const collective = (/accelerator$/i.test(receiver) && ACCELERATE_COLLECTIVE.test(method)) || (/fabric$/i.test(receiver) && FABRIC_COLLECTIVE.test(method));
  return collective ? positionalArguments(call)[0] : undefined;
}

export function positionalArguments(call: SyntaxNode): SyntaxNode[] {
  const args = childByField(call, "arguments");
  if (!args || args.type !== "argument_list") return [];
  return args.children.filter((child) => child.type !== "keyword_argument" && child.type !== "list_splat" && child.type !== "dictionary_splat");
}

export function keywordArgument(call: SyntaxNode, name: string, text: string): SyntaxNode | undefined {
  const args = childByField(call, "arguments");
  if (!args) return undefined;
  for (const child of args.children) {
    if (child.type !== "keyword_argument") continue;
    const key = childByField(child, "name");
    if (key && text.slice(key.start, key.end) === name) return childByField(child, "value");
  }
  return undefined;
}

export function stringValue(literal: string): string {
  const match = /^[a-zA-Z]*("""|'''|"|')([\s\S]*)\1$/.exec(literal);
  return match ? match[2] : literal;
}

/** `name["key"]`: the identifier `use` is subscripted with a string key, as a dict is. */
export function indexedWithStringKey(use: SyntaxNode): boolean {
  const parent = use.parent;
  return use.field === "value" && parent?.type === "subscript" && childrenByField(parent, "subscript").some((index) => isStringNode(unparenthesized(index)));
}

/** A string literal (`"a"`, `f"{x}"`, `"a" "b"`), possibly parenthesised. */
export function isStringNode(node: SyntaxNode): boolean {
  const inner = unparenthesized(node);
  return inner.type === "string" || inner.type === "concatenated_string";
}

const STRING_SUM = "a string concatenation";

/** `statement` runs on every path to `use`: no branch, loop or `try` holds it that does not also hold `use`. */
function reachesAlways(statement: SyntaxNode, use: SyntaxNode): boolean {
  for (let node = statement.parent; node && node.type !== "function_definition" && node.type !== "class_definition" && node.type !== "module"; node = node.parent) {
    if (!/^(if_statement|for_statement|while_statement|try_statement|match_statement)$/.test(node.type)) continue;
    if (!(node.start <= use.start && use.end <= node.end)) return false;
  }
  return true;
}

/** The `if` statement whose branch holds `statement`, within its function. */
function branchAround(statement: SyntaxNode): SyntaxNode | undefined {
  for (let node = statement.parent; node && node.type !== "function_definition" && node.type !== "class_definition" && node.type !== "module"; node = node.parent) if (node.type === "if_statement") return node;
  return undefined;
}

/** A string literal, or a string method called on one (`"{}x{}".format(...)`, `", ".join(...)`). */
function isStringValued(node: SyntaxNode): boolean {
  const inner = unparenthesized(node);
  if (isStringNode(inner)) return true;
  if (inner.type !== "call") return false;
  const callee = childByField(inner, "function");
  const receiver = callee?.type === "attribute" ? childByField(callee, "object") : undefined;
  return !!receiver && isStringNode(receiver);
}

/** `bound` and `use` are in two branches of one `if` (its body and its `else`, or two of its `elif`s): one runs, not both. */
function inOtherBranch(bound: SyntaxNode, use: SyntaxNode): boolean {
  for (let ancestor = bound.parent; ancestor; ancestor = ancestor.parent) {
    if (ancestor.type === "function_definition" || ancestor.type === "class_definition" || ancestor.type === "lambda") return false;
    if (ancestor.type !== "if_statement" || !contains(ancestor, use)) continue;
    const clauseOf = (node: SyntaxNode) => ancestor.children.find((clause) => clause.field !== "condition" && contains(clause, node));
    const clause = clauseOf(bound);
    // In a loop, the next pass of the other branch sees what this pass bound (`if prev is None: prev = x else: f(prev)`).
    return !!clause && clause !== clauseOf(use) && !insideLoop(ancestor);
  }
  return false;
}

function insideLoop(node: SyntaxNode): boolean {
  for (let ancestor = node.parent; ancestor; ancestor = ancestor.parent) {
    if (ancestor.type === "for_statement" || ancestor.type === "while_statement") return true;
    if (ancestor.type === "function_definition" || ancestor.type === "class_definition" || ancestor.type === "lambda") return false;
  }
  return false;
}

/** The `if` branch that holds `binding` but not `use`: after it, the name may hold what it held before. */
function branchBefore(binding: Binding, use: SyntaxNode): SyntaxNode | undefined {
  const branch = branchAround(binding.node);
  return branch && !(branch.start <= use.start && use.end <= branch.end) ? branch : undefined;
}

/** `x = None`, `a, x = None, None`: the binding gives the name `None`. */
function boundsNone(binding: Binding): boolean {
  let value = binding.value && unparenthesized(binding.value);
  for (const index of binding.unpackPath) value = value && (value.type === "tuple" || value.type === "expression_list") ? value.children[index] : undefined;
  return !!value && isNoneNode(value);
}

function isNoneNode(node: SyntaxNode): boolean {
  return unparenthesized(node).type === "none";
}

/** The scope (this one or an enclosing one) that holds `binding`. */
function bindingScope(name: string, binding: Binding, scope: Scope): Scope | undefined {
  for (let current: Scope | null = scope; current; current = current.parent) if (current.bindings.get(name)?.includes(binding)) return current;
  return undefined;
}


export function enclosingClass(node: SyntaxNode): SyntaxNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (current.type === "class_definition") return current;
  return undefined;
}

/** Tensor methods whose positional arguments are sizes or dimensions: Python ints. */
const SIZE_METHODS = new Set(["view", "reshape", "expand", "repeat", "new_zeros", "new_ones", "new_empty", "permute", "unflatten"]);

/**
 * The type a function's docstring gives its parameter, when it is a Python value: Google style (`imgh (int):`,
 * `imgh(int)`), NumPy style (`imgh : int`) or Sphinx (`:type imgh: int`, `:param int imgh:`). A type that mentions
 * a tensor or an array gives nothing: a documented tensor is what an undocumented input is taken for anyway.
 */
function documentedKind(fn: SyntaxNode, name: string, text: string): Evidence | undefined {
  let byName = documentedKinds.get(fn);
  if (!byName) documentedKinds.set(fn, (byName = readDocumentedKinds(fn, text)));
  return byName.get(name);
}

const documentedKinds = new WeakMap<SyntaxNode, Map<string, Evidence>>();
const NOTHING_DOCUMENTED = new Map<string, Evidence>();

/** The four styles, each with the name and the type it gives: a parameter takes the type of the first style that names it. */
const DOCUMENTED_TYPE: Array<{ pattern: RegExp; name: number; type: number }> = [
  { pattern: /^\s*\**(\w+)\s*\(([^)\n]+)\)/gm, name: 1, type: 2 },
  { pattern: /^\s*(\w+)\s*:\s*([\w.\[\], |]+?)\s*$/gm, name: 1, type: 2 },
  { pattern: /:type\s+(\w+)\s*:[ \t]*([^\n]+)/g, name: 1, type: 2 },
  { pattern: /:param\s+([\w.\[\], |]+?)\s+(\w+)\s*:/g, name: 2, type: 1 },
];

/** By parameter name, what the function's docstring documents each as, read in one pass per style. */
function readDocumentedKinds(fn: SyntaxNode, text: string): Map<string, Evidence> {
  const first = childByField(fn, "body")?.children[0];
  const docstring = first?.type === "expression_statement" && first.children[0]?.type === "string" ? first.children[0] : undefined;
  if (!docstring) return NOTHING_DOCUMENTED;
  const doc = text.slice(docstring.start, docstring.end);
  const types = new Map<string, string>();
  for (const style of DOCUMENTED_TYPE) for (const match of doc.matchAll(style.pattern)) if (!types.has(match[style.name])) types.set(match[style.name], match[style.type]);
  const kinds = new Map<string, Evidence>();
  for (const [name, documented] of types) {
    const type = documented.trim();
    if (!type || /tensor|array|ndarray|variable/i.test(type)) continue;
    // Kept per function across edits (`documentedKinds`): a string of its own, not a view into this text.
    const reason = ownString(`\`${name}\` is documented as \`${type}\``);
    if (/^(optional\[\s*)?(int|float|bool|str|number|scalar)\b/i.test(type)) kinds.set(name, evidence("scalar", reason));
    else if (/^(optional\[\s*)?dict\b/i.test(type)) kinds.set(name, { kind: "container", reason, mapping: true });
    else if (/^(optional\[\s*)?(tuple|list|sequence)\b/i.test(type)) kinds.set(name, evidence("container", reason));
  }
  return kinds.size === 0 ? NOTHING_DOCUMENTED : kinds;
}

/** Methods of dicts that tensors do not have: a parameter with them is a mapping (a decoding cache), not a tensor. */
const MAPPING_METHODS = new Set(["get", "items", "keys", "setdefault"]);

/**
 * How `fn` uses its parameter as a Python value, if it does: an input of `forward` is a tensor unless the
 * function slices with it (`x[:, :H]`), counts with it (`range(n)`, `math.ceil(H / w)`), compares it with a
 * string (`mode == "image"`, `mode in ("a", "b")`), sets it to a literal (`use_cache = False`) or uses it as a
 * dict (`cache.get("offset")`, `cache["offset"]`). Tensors are seldom used so; sizes, modes, flags and caches are.
 */
function pythonValueUse(parameter: Binding, fn: SyntaxNode, env: EvidenceEnvironment): Evidence | undefined {
  const scalar = (how: string) => evidence("scalar", how);
  const text = env.text;
  const body = childByField(fn, "body");
  if (!body) return undefined;
  for (const use of identifiersNamed(text, parameter.name, body)) {
    const parent = use.parent;
    if (parent?.type === "assignment" && use.field === "left") {
      const right = childByField(parent, "right");
      if (right && isPythonLiteral(right) && scopeOf(use, env.scopes).node === fn) return scalar("set to a Python value in the function");
      continue;
    }
    if (resolveBinding(parameter.name, use.start, scopeOf(use, env.scopes)) !== parameter) continue;
    // `cache.get("offset")`, `cache["offset"]`: a dict.
    const method = use.field === "object" && parent?.type === "attribute" && parent.parent?.type === "call" ? childByField(parent, "attribute") : undefined;
    if (method && MAPPING_METHODS.has(text.slice(method.start, method.end))) return { kind: "container", reason: "used as a dict", mapping: true };
    if (indexedWithStringKey(use)) return { kind: "container", reason: "indexed with a string key", mapping: true };
    let operand = use;
    while (operand.parent && (operand.parent.type === "binary_operator" || operand.parent.type === "unary_operator" || operand.parent.type === "parenthesized_expression")) operand = operand.parent;
    const context = operand.parent;
    if (context?.type === "slice") return scalar("used as a slice bound");
    if (context?.type === "argument_list") {
      const callee = childByField(context.parent!, "function");
      const calleeText = callee ? text.slice(callee.start, callee.end) : "";
      if (calleeText === "range" || calleeText.startsWith("math.")) return scalar(`passed to \`${calleeText}()\``);
      // `x.view(B, H, W, C)`, `torch.zeros(B, H, W)`: a size; a shape is made of Python ints.
      const method = callee?.type === "attribute" ? text.slice(childByField(callee, "attribute")!.start, callee.end) : "";
      if (SIZE_METHODS.has(method) || /^torch\.(zeros|ones|empty|randn|rand|arange)$/.test(calleeText)) return scalar(`used as a size in \`${calleeText}()\``);
    }
    if (context?.type === "comparison_operator" && context.children.some((side) => isStringValued(side) || isStringCollection(side)))
      return scalar("compared with a string");
  }
  return undefined;
}

function isPythonLiteral(node: SyntaxNode): boolean {
  const inner = unparenthesized(node);
  return inner.type === "true" || inner.type === "false" || isStringNode(inner);
}

/** `("a", "b")`, `["a", None]`: a literal collection of strings (and `None`). */
function isStringCollection(node: SyntaxNode): boolean {
  const inner = unparenthesized(node);
  if (inner.type !== "tuple" && inner.type !== "list" && inner.type !== "set") return false;
  const elements = inner.children;
  return elements.some(isStringNode) && elements.every((element) => isStringNode(element) || isNoneNode(element));
}

/** The tuple that `fn` returns, if it has one `return` and that returns a tuple (`return b[0], b[1]`). */
function soleTupleReturned(fn: SyntaxNode): SyntaxNode | undefined {
  const returns = returnStatementsOf(fn);
  const value = returns.length === 1 ? returns[0].children[0] : undefined;
  return value && (value.type === "expression_list" || unparenthesized(value).type === "tuple") ? value : undefined;
}

/** `iteration`, `self.global_step`, `self.steps[phase]`: a name that counts steps, or an entry of a table of them. */
function namesCounter(raw: SyntaxNode, text: string): boolean {
  const node = unparenthesized(raw);
  const named = node.type === "subscript" ? unparenthesized(childByField(node, "value") ?? node) : node;
  if (named.type !== "identifier" && named.type !== "attribute") return false;
  const name = lastName(text.slice(named.start, named.end));
  // Not `t` or `idx`, which name tensors as often as counters (`t % 2 == 0` of a tensor of timesteps).
  return node.type === "subscript" ? /^(steps|iters|iterations|counts|counters|epochs)$/i.test(name) : COUNTER_NAME.test(name) && /step|iter|epoch|count|update/i.test(name);
}

function isUnpackTarget(node: SyntaxNode): boolean {
  return ["pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list"].includes(node.type);
}

/** `x.to(torch.float16)`, `x.to(dtype=...)`: a cast, not a move. */
function isDtypeOnly(call: SyntaxNode, text: string): boolean {
  const [first] = positionalArguments(call);
  if (first) return /^(torch\.)?(float|half|bfloat|double|int|long|short|bool|uint|complex)\w*$/.test(text.slice(first.start, first.end));
  return !keywordArgument(call, "device", text);
}

function isFirstParameter(binding: Binding): boolean {
  const parameters = binding.node.parent;
  return !!parameters && parameters.children[0] === binding.node;
}

/** The dotted name an import binds: `util.misc` for `import util.misc as misc`, `.misc.f` for `from .misc import f`. */
export function importedName(binding: Binding, text: string): string | undefined {
  const imported = binding.value;
  if (!imported) return undefined;
  const statement = binding.node;
  const dotted = imported.type === "aliased_import" ? childByField(imported, "name") : imported;
  if (!dotted) return undefined;
  const path = text.slice(dotted.start, dotted.end);
  if (statement.type === "import_from_statement") {
    const moduleName = childByField(statement, "module_name");
    if (!moduleName) return path;
    const module = text.slice(moduleName.start, moduleName.end);
    // `from . import misc` names `.misc`, `from .. import misc` `..misc`.
    return module.endsWith(".") ? `${module}${path}` : `${module}.${path}`;
  }
  // `import torch.nn` binds `torch`; `import torch.nn.functional as F` binds the whole path.
  return imported.type === "aliased_import" ? path : path.split(".")[0];
}

/** The values a call passes, by position or by keyword (`model.generate(input_ids=ids)`). */
export function argumentValues(call: SyntaxNode): SyntaxNode[] {
  const values: SyntaxNode[] = [];
  for (const argument of childByField(call, "arguments")?.children ?? []) {
    if (argument.type === "keyword_argument") {
      const value = childByField(argument, "value");
      if (value) values.push(value);
    } else if (argument.type !== "list_splat" && argument.type !== "dictionary_splat") values.push(argument);
  }
  return values;
}
