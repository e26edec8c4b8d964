import type { Fix, Rule, RuleContext } from "../rule";
import { SyntaxNode, childByField, contains, forEachNode, unparenthesized } from "../syntax";
import { MethodCall, calleeName, gpuAssumption, keyword, methodCall, nonBlockingArgument, positional, shortText, soleDataArgument } from "./support";
import { addKeywordArgument, safeFixes } from "../fixes/edits";
import { enclosingLoop, enclosingScope, declaredShared, identifierUses, inNestedScope, isConstantData, useKind, statementOf } from "../fixes/facts";
import { insertLinesBefore, wholeLines } from "../fixes/indentation";
import { assignedValue, resolveBinding, scopeOf } from "../analysis/scopes";
import { ITERATION_WRAPPERS, isTensorKind } from "../analysis/tensor-evidence";
import { loopIterable } from "../analysis/hot-paths";
import { lastName } from "../analysis/names";
import { enclosingClassOf, enclosingFunctionOf } from "../syntax";

/** Evidence of host memory: a CPU tensor, a loader's batch, a NumPy array. */
const HOST_KINDS: ReadonlySet<string> = new Set(["cpu", "batch", "numpy"]);

/** Host-to-device copies that block: `.to(device)`/`.cuda()` without `non_blocking=True`, `torch.tensor(..., device=)`. */
/** Methods that change a tensor's dtype or layout where it is (`torch.tensor([]).long()`). */
const CAST_METHOD = /^(long|int|float|half|double|bool|bfloat16|short|byte|contiguous|view|reshape|flatten|squeeze|unsqueeze)$/;

export const blockingHostToDevice: Rule = {
  meta: {
    name: "blocking-host-to-device",
    code: "SYN201",
    category: "host-device transfer",
    defaultSeverity: "warning",
    description: "`.to(device)`/`.cuda()` (or `.type(torch.cuda.FloatTensor)`) without `non_blocking=True`, `host_tensor.type_as(gpu_tensor)`, `gpu_tensor.copy_(host_tensor)`, `gpu_tensor[i:j] = host_tensor`, `torch.tensor(..., device=...)`, `x.new_tensor(...)`, `torch.as_tensor(host_data, device=...)` or `torch.cuda.FloatTensor(host_data)` in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    fixable: true,
    hasSuggestions: true,
    messages: {
      copy: "`{{expression}}` {{where}} copies host memory to the GPU{{assumption}} and blocks until the copy and all queued work finish, {{frequency}}; pass `non_blocking=True` (with a pinned source).",
      build: "`{{expression}}` {{where}} builds a tensor on the host and copies it to the GPU with a blocking copy, {{frequency}}; {{alternative}}.",
      setitem: "`{{expression}}` {{where}} copies a host tensor into a GPU tensor with a blocking copy, {{frequency}}; build the values on the GPU, or copy them with `.copy_(src, non_blocking=True)` from pinned memory.",
      typeAs: "`{{expression}}` {{where}} casts a host tensor to a GPU tensor's type, a blocking copy to the GPU, {{frequency}}{{assumption}}; keep the tensor on the device, or copy it with `.to({{other}}.device, non_blocking=True)` from pinned memory.",
    },
    mechanism: [
      "**Host tensor** — the data is (or is first built as) a tensor in pageable host memory.",
      "**Blocking copy** — with `non_blocking=False` the host-to-device copy goes through `memcpy_and_sync`: `cudaMemcpyAsync` followed by `cudaStreamSynchronize`, so the host waits for every kernel already queued on the stream, plus the copy.",
    ],
    docs: {
      why:
        "A host-to-device copy with the default `non_blocking=False` waits for every kernel already queued on the current stream and then for the copy. " +
        "With a pinned source (`DataLoader(pin_memory=True)`) and `non_blocking=True`, the copy is queued and the host moves on; stream order keeps it safe for later kernels. " +
        "`torch.tensor(data, device=...)` always builds the tensor on the host first and copies it with a blocking copy. " +
        "`.cuda(async=True)`, the name of `non_blocking` before PyTorch 0.4, counts as `non_blocking=True`.",
      example: ["for x, y in loader:", "    x = x.to(device)", "    weight = torch.tensor([0.3, 0.7], device=device)", "    loss = criterion(model(x), y.cuda(), weight=weight)"].join("\n"),
      useInstead: [
        "weight = torch.tensor([0.3, 0.7], device=device)  # once, before the loop",
        "for x, y in loader:  # DataLoader(..., pin_memory=True)",
        "    x = x.to(device, non_blocking=True)",
        "    loss = criterion(model(x), y.cuda(non_blocking=True), weight=weight)",
      ].join("\n"),
      fixSafety:
        "`non_blocking=True` on a copy to the GPU is safe: later kernels on the same stream see the data. " +
        "Hoisting a constant `w = torch.tensor(<literals>, device=d)` out of the loop is safe when its arguments do not change inside it " +
        "and `w` is only read in the loop after it (never written through, kept or used outside the loop); otherwise no fix is offered. " +
        "`non_blocking=True` is added only to copies of batches a loader yields, and only when nothing in the loop " +
        "changes the host batch in place or keeps another name for it (the copy may still be running when `.to()` returns). " +
        "It is a safe fix for batches of a `DataLoader(...)` built in the same file without `collate_fn` (default collation makes tensors, whose " +
        "`.to()` and `.cuda()` take `non_blocking`); for a loader passed in, or one with a `collate_fn`, it is a suggestion: a batch class's own " +
        "`.to()` may not take the argument (DETR's `NestedTensor.to(device)` does not). " +
        "A scale factor `t * torch.tensor(0.5, device=d)` (an operand of `*`, `/`, `+` or `-` beside a tensor, a number exactly representable in " +
        "float32, no `dtype`) becomes `t * 0.5`: no tensor is built and no copy made. The same values, and the same dtype when `t` has at least one " +
        "dimension; but when `t` is 0-dim (a loss) of a lower-precision dtype than the default, `t * torch.tensor(0.5)` is promoted to the default " +
        "dtype and `t * 0.5` is not, so it is a suggestion (`--unsafe-fixes`). " +
        "`torch.zeros(n).cuda()` becomes `torch.zeros(n, device=\"cuda\")` and `torch.arange(n).to(device)` becomes `torch.arange(n, device=device)` " +
        "when the copy gives nothing but the device: the same values, made on the device. For `rand`, `randn`, `randint` and `randperm` it is a " +
        "suggestion: the GPU's generator draws other numbers than the CPU's for the same seed.",
      facts: ["§3 blocking copies wait for the whole stream", "§3 pinned source with `non_blocking=True`", "§2 op table: `torch.tensor(data, device='cuda')`", "§7 setting part of a CUDA tensor to a host tensor copies it with a blocking copy", "§7 a copy of no elements copies nothing", "§7 `t.type_as(other)` with `other` on a CUDA device copies a host `t` with a blocking copy", "§7 a factory that takes `device=` makes the tensor where it is used"],
    },
  },
  create(context) {
    const evidence = context.analysis.evidence;

    /**
     * Is the receiver host memory? Batches and CPU tensors are; a value without evidence counts only inside a
     * loop (where it is usually a batch), and in `forward` or what it calls, where `.to(x.device)` is usually a
     * no-op, only in a loop over what the function was given (detectron2's `for x in batched_inputs`), not over
     * the model's own values (LLaVA's image features per sample); and not when it is computed from a gradient,
     * which lives where its parameter does.
     */
    function isHostData(node: SyntaxNode, receiver: SyntaxNode): boolean {
      if (isEmptyData(receiver)) return false;
      const kind = context.analysis.tensorEvidence(receiver).kind;
      if (HOST_KINDS.has(kind)) return true;
      if (kind !== "unknown" && kind !== "tensor") return false;
      const { loop, frequency } = context.analysis.contextOf(node);
      if (!context.importsTorch || !loop || fromGradient(receiver) || likeFactory(receiver)) return false;
      return !/forward pass/.test(frequency) || iteratesParameter(loopIterable(loop));
    }

    /** `batched_inputs`, `enumerate(images)`, `zip(images, texts)`: what a parameter of the function holds. */
    function iteratesParameter(iterable: SyntaxNode | undefined): boolean {
      const node = iterable && unparenthesized(iterable);
      if (node?.type === "call" && /^(enumerate|zip)$/.test(calleeName(node, context) ?? "")) return positional(node).some(iteratesParameter);
      if (node?.type !== "identifier") return false;
      return resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes))?.kind === "parameter";
    }

    /**
     * `torch.randn_like(latents)`: made where its source is, not read from a loader; host data only if its source
     * is (its evidence says so). Also through a name assigned one and through arithmetic with a number
     * (`targets = torch.ones_like(classification) * -1`, EfficientDet's focal loss).
     */
    function likeFactory(raw: SyntaxNode, depth = 0): boolean {
      const node = unparenthesized(raw);
      if (depth > 4) return false;
      if (node.type === "call") return /_like$/.test(calleeName(node, context) ?? "");
      if (node.type === "identifier") {
        const value = assignedValue(node, context.analysis.source.text, context.analysis.scopes);
        return !!value && likeFactory(value, depth + 1);
      }
      if (node.type === "binary_operator") {
        const [left, right] = [childByField(node, "left"), childByField(node, "right")];
        const number = (side: SyntaxNode | undefined) => !!side && context.analysis.tensorEvidence(side).kind === "scalar";
        return (!!left && number(right) && likeFactory(left, depth + 1)) || (!!right && number(left) && likeFactory(right, depth + 1));
      }
      return false;
    }

    /**
     * `torch.tensor([]).long().cuda()`: a tensor of no elements, whose copy returns before it copies or waits
     * (`copy_` returns early when `numel() == 0`; DINO's empty denoising targets).
     */
    function isEmptyData(raw: SyntaxNode, depth = 0): boolean {
      let node = unparenthesized(raw);
      for (let call = methodCall(node, context); call && CAST_METHOD.test(call.method); call = methodCall(node, context)) node = unparenthesized(call.receiver);
      // `final_scores = torch.Tensor([])`, then `final_scores = final_scores.cuda()` (pytorch-retinanet's detections).
      if (node.type === "identifier" && depth < 4) {
        const value = assignedValue(node, context.analysis.source.text, context.analysis.scopes);
        return !!value && !contains(value, node) && isEmptyData(value, depth + 1);
      }
      if (node.type !== "call") return false;
      // `torch.empty(0)`, `torch.zeros(0, 4)`: a size of zero elements.
      if (/^torch\.(empty|zeros|ones)$/.test(calleeName(node, context) ?? "")) return positional(node).some((size) => context.text(size) === "0");
      if (!/^torch\.(tensor|as_tensor|Tensor|(Float|Long|Int|Bool)Tensor)$/.test(calleeName(node, context) ?? "")) return false;
      const [data, ...rest] = positional(node);
      // `torch.LongTensor()` (fairseq's `buffered_arange` and beam search): no data, no elements.
      if (!data && /Tensor$/.test(calleeName(node, context) ?? "") && (childByField(node, "arguments")?.children.length ?? 0) === 0) return true;
      const literal = data && unparenthesized(data);
      return !!literal && rest.length === 0 && (literal.type === "list" || literal.type === "tuple") && literal.children.length === 0;
    }

    /** `p.grad`, `p.grad.detach().abs().max()`, `torch.norm(p.grad.detach(), 2)`: a gradient or computed from one. */
    function fromGradient(raw: SyntaxNode): boolean {
      let node = unparenthesized(raw);
      for (let depth = 0; depth < 8; depth++) {
        if (node.type === "attribute") {
          if (context.text(childByField(node, "attribute")!) === "grad") return true;
          node = childByField(node, "object")!;
        } else if (node.type === "call") {
          const callee = childByField(node, "function")!;
          // A method of the value (`.detach()`), or a function of its first argument (`torch.norm(g, 2)`).
          const first = positional(node)[0];
          if (callee.type === "attribute" && !/^(torch|F|np)$/.test(context.text(childByField(callee, "object")!))) node = childByField(callee, "object")!;
          else if (first) node = unparenthesized(first);
          else return false;
        } else if (node.type === "subscript") node = childByField(node, "value")!;
        else return false;
      }
      return false;
    }

    function reportCopy(node: SyntaxNode, { range, receiver, method }: MethodCall): void {
      const kind = context.analysis.tensorEvidence(receiver).kind;
      // `non_blocking=True` is offered only for batches a loader yields (host memory the loop owns).
      const fixes = safeFixes(() => {
        if (kind !== "batch") return undefined;
        // The copy is queued, not done, when `.to()` returns: the host batch must not change afterwards.
        if (mayChangeHostBatch(receiver, node, context)) return undefined;
        const edit = addKeywordArgument(node, "non_blocking=True");
        if (!edit) return undefined;
        // A custom `collate_fn` can make batches of its own class, whose `.to()` need not take `non_blocking`.
        if (collatedByDefault(receiver, context)) return { title: "Add `non_blocking=True` to the copy of the batch", safe: true, edits: [edit] };
        return { title: `Add \`non_blocking=True\` to the copy of the batch (if \`${shortText(receiver, context, 30)}\` is a tensor: a batch class's own \`.${method}()\` may not take it)`, safe: false, edits: [edit] };
      });
      // Known host data (a batch, a CPU or NumPy value) is said plainly; a tensor of unknown device only inside a loop, so hedged.
      const assumption = kind === "unknown" || kind === "tensor" ? ` (if \`${shortText(receiver, context, 30)}\` is in host memory)` : "";
      context.report({ node, range, messageId: "copy", data: { expression: shortText(node, context, 50), assumption }, fixes });
    }

    /**
     * `self.keyword_ids = [k.to(x.device) for k in self.keyword_ids]`, `self.freqs = self.freqs.to(h.device)`: the
     * attribute is moved once and stored; every later call finds it on the device, where `.to()` copies nothing.
     * Not when another method (or another statement of this one) sets it anew, from host data each step perhaps
     * (`self.state = torch.FloatTensor(next_state)`): only `__init__` may.
     */
    function movesOwnAttribute(node: SyntaxNode): boolean {
      let statement: SyntaxNode | null = node.parent;
      while (statement && statement.type !== "assignment" && !/statement$|^block$|definition$/.test(statement.type)) statement = statement.parent;
      const left = statement?.type === "assignment" ? childByField(statement, "left") : undefined;
      const right = statement && childByField(statement, "right");
      if (left?.type !== "attribute" || !right || context.text(childByField(left, "object")!) !== "self") return false;
      const attribute = context.text(left);
      const mentions = (root: SyntaxNode, match: (attributeNode: SyntaxNode) => boolean) => {
        const stack = [root];
        while (stack.length > 0) {
          const current = stack.pop()!;
          if (current.type === "attribute" && context.text(current) === attribute && match(current)) return true;
          for (let i = 0; i < current.children.length; i++) stack.push(current.children[i]);
        }
        return false;
      };
      const cls = enclosingClassOf(statement!);
      if (!cls || !mentions(right, () => true)) return false;
      const setElsewhere = (target: SyntaxNode) => {
        const assignment = target.parent;
        if (target.field !== "left" || assignment === statement || (assignment?.type !== "assignment" && assignment?.type !== "augmented_assignment")) return false;
        const method = enclosingFunctionOf(target);
        return !method || context.text(childByField(method, "name")!) !== "__init__";
      };
      return !mentions(cls, setElsewhere);
    }

    /**
     * A tensor built from Python numbers inside a `torch.compile`d function is a constant of the compiled graph
     * (or a scalar argument of its kernels): no copy runs per call.
     */
    function compiledFromPythonValues(node: SyntaxNode, data: SyntaxNode | undefined): boolean {
      if (!data || context.analysis.contextOf(node).compiled !== "torch.compile") return false;
      const value = unparenthesized(data);
      const elements = value.type === "list" || value.type === "tuple" ? value.children : [value];
      return elements.every((element) => context.analysis.tensorEvidence(element).kind === "scalar");
    }

    return {
      call(node) {
        const call = methodCall(node, context);
        // `imgs.type(Tensor)` with `Tensor = torch.cuda.FloatTensor if cuda else ...`: `.cuda()` by another name.
        const movesByType = !!evidence.cudaTypeCast(node) && positional(node).length === 1;
        if (call && (call.method === "to" || call.method === "cuda" || movesByType)) {
          // True, or a value the user controls; `async=True` is its name before PyTorch 0.4 (a keyword since Python 3.7).
          if (nonBlockingArgument(node, context)) return;
          if (call.method === "to") {
            const target = evidence.deviceArgument(node);
            if (!target || evidence.deviceOf(target) !== "gpu") return;
          } else if (positional(node).length > 1) return;
          if (!isHostData(node, call.receiver) || movesOwnAttribute(node)) return;
          const factory = hostFactory(call.receiver, context);
          if (factory) {
            const alternative = `make it on the device (\`${factory.name}(..., device=...)\`): nothing to copy`;
            const built = { kind: "cpu" as const, reason: `made on the host by \`${factory.name}(...)\`` };
            return context.report({ node, range: call.range, messageId: "build", data: { expression: shortText(node, context, 50), alternative }, evidence: built, fixes: safeFixes(() => factoryOnDevice(node, call, factory, context)) });
          }
          return reportCopy(node, call);
        }
        // `mask.type_as(query)`: `mask.type(query.type())`, a blocking copy of host data to the GPU (§7).
        if (call && call.method === "type_as") {
          const [other] = positional(node);
          const target = other && context.analysis.tensorEvidence(other);
          // A tensor of unknown device counts where the code runs beside the model (a module's `forward` input).
          const onGpu = target?.kind === "gpu" || (target?.kind === "tensor" && context.analysis.assumesGpu(node));
          if (!onGpu || !HOST_KINDS.has(context.analysis.tensorEvidence(call.receiver).kind) || movesOwnAttribute(node)) return;
          context.report({ node, range: call.range, messageId: "typeAs", data: { expression: shortText(node, context, 50), other: shortText(other!, context, 30), assumption: gpuAssumption(other!, target!, context) }, evidence: target });
          return;
        }
        // `gpu_buffer.copy_(host_tensor)`: the same blocking copy as `.to(device)`, into a tensor already on the GPU.
        if (call && call.method === "copy_") {
          const [source, nonBlocking] = positional(node);
          if (!source || nonBlocking || keyword(node, "non_blocking", context)) return;
          const sourceKind = context.analysis.tensorEvidence(source).kind;
          if (!HOST_KINDS.has(sourceKind)) return;
          const target = context.analysis.tensorEvidence(call.receiver);
          if (target.kind !== "gpu") return;
          context.report({ node, range: call.range, messageId: "copy", data: { expression: shortText(node, context, 50), assumption: "" }, evidence: target });
          return;
        }
        if (call && call.method === "new_tensor") {
          const owner = context.analysis.tensorEvidence(call.receiver).kind;
          if (HOST_KINDS.has(owner)) return;
          if (compiledFromPythonValues(node, positional(node)[0])) return;
          context.report({ node, range: call.range, messageId: "build", data: { expression: shortText(node, context, 50), alternative: "create it once in `__init__` (a registered buffer) or multiply by a Python scalar" } });
          return;
        }
        // `Tensor(np.random.normal(...))` (a CUDA tensor type given host data, not sizes).
        const callee = childByField(node, "function");
        if (callee && evidence.isCudaTensorType(callee)) {
          const args = positional(node);
          const dataKind = args.length === 1 ? context.analysis.tensorEvidence(args[0]).kind : "scalar";
          if (dataKind !== "numpy" && dataKind !== "container" && dataKind !== "cpu" && dataKind !== "batch") return;
          const built = { kind: "gpu" as const, reason: `a \`${context.text(callee)}\`, a CUDA tensor type` };
          context.report({ node, messageId: "build", data: { expression: shortText(node, context, 50), alternative: "make it on the device (`torch.randn(..., device=...)`), or build it once before the loop" }, evidence: built });
          return;
        }
        const name = calleeName(node, context);
        if (name !== "torch.tensor" && name !== "torch.as_tensor") return;
        const device = keyword(node, "device", context);
        if (!device || evidence.deviceOf(device) !== "gpu") return;
        // `torch.tensor([], device=...)`: no host data to copy; not reported (whether the empty copy waits is unchecked).
        const [data] = positional(node);
        if (data && (unparenthesized(data).type === "list" || unparenthesized(data).type === "tuple") && unparenthesized(data).children.length === 0) return;
        if (name === "torch.as_tensor") {
          const kind = data ? context.analysis.tensorEvidence(data).kind : "unknown";
          if (kind === "gpu" || kind === "tensor") return; // already a tensor: no host copy
        }
        if (compiledFromPythonValues(node, data)) return;
        const fixes = name === "torch.tensor" ? safeFixes(() => hoistConstantTensor(node, device, context) ?? pythonScalarOperand(node, context)) : [];
        // The tensor is built for a GPU (its `device=`): positive evidence, so it counts in any loop that runs often.
        const built = { kind: "gpu" as const, reason: `built with \`device=${context.text(device)}\`` };
        // `torch.as_tensor(obs, device=device)` of an environment's new observations: nothing to build once.
        const changes = data && newDataEachTime(data, node, context);
        const alternative = changes === "item"
          ? "each item brings its own data: build the items on the host and copy them once after the loop (`torch.stack` or `pad_sequence` there, then one `.to(device, non_blocking=True)`)"
          : changes === "call"
            ? "its data changes from one call to the next: a few Python numbers can be made on the device (`torch.full(..., device=...)`), new data such as an environment's observations copied from pinned memory without blocking (`torch.as_tensor(x).pin_memory().to(device, non_blocking=True)`)"
            : "build it once before the loop, or use `torch.full`/`torch.zeros(..., device=...)`";
        context.report({ node, messageId: "build", data: { expression: shortText(node, context, 50), alternative }, evidence: built, fixes });
      },
      // `gain[2:6] = torch.tensor(sizes)[[3, 2, 3, 2]]`: setting part of a GPU tensor to a host tensor copies it
      // with `dst.copy_(src)`, the blocking copy of `.to(device)` (a 0-dim host value is a `fill_`, no copy).
      assignment(node) {
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        if (left?.type !== "subscript" || !right || isZeroDimensional(right, context)) return;
        // Integers and slices only: a tensor or list index sends the value to `index_put_`, a path not checked.
        const indices = left.children.filter((child) => child.field === "subscript");
        if (indices.some((index) => index.type !== "slice" && index.type !== "integer" && index.type !== "ellipsis" && context.analysis.tensorEvidence(index).kind !== "scalar")) return;
        const target = context.analysis.tensorEvidence(childByField(left, "value")!);
        const value = context.analysis.tensorEvidence(right).kind;
        // Host tensors only: `valueToTensor` takes tensors and Python numbers, not NumPy arrays.
        if (target.kind !== "gpu" || (value !== "cpu" && value !== "batch")) return;
        context.report({ node, messageId: "setitem", data: { expression: shortText(node, context, 50) }, evidence: target });
      },
    };
  },
};

/** `torch.tensor(0.5)`, `torch.tensor(n)`: a host tensor of one number, which setting a GPU slice to fills in without a copy. */
/**
 * Whether the data differs from one run of the call to the next: "item" when it is each item of a plain loop or a
 * comprehension around the call (`ex` of `[torch.tensor(ex["ids"], device=d) for ex in minibatch]`), which could
 * be gathered on the host and copied once; "call" when it is bound in a step loop around the call (`reward` from
 * `envs.step(...)`) or is a parameter of the function that makes it (stable-baselines3's `obs_as_tensor(obs,
 * device)`). Literals and names bound once before the loop are the same every time, and could be built once.
 */
/** Factories that take `device=`: the same values wherever they are made. */
const DETERMINISTIC_FACTORY = /^torch\.(zeros|ones|empty|full|arange|eye|linspace|logspace)$/;
/** Factories that take `device=` and draw random numbers: the GPU's generator draws other values than the CPU's. */
const RANDOM_FACTORY = /^torch\.(rand|randn|randint|randperm)$/;

interface HostFactory {
  call: SyntaxNode;
  name: string;
  random: boolean;
}

/** `torch.zeros(n)`, `torch.randint(0, k, (n,)).long()`: a tensor a factory makes on the host, which could make it on the device. */
function hostFactory(raw: SyntaxNode, context: RuleContext): HostFactory | undefined {
  let node = unparenthesized(raw);
  for (let call = methodCall(node, context); call && CAST_METHOD.test(call.method); call = methodCall(node, context)) node = unparenthesized(call.receiver);
  if (node.type !== "call" || keyword(node, "device", context) || keyword(node, "out", context)) return undefined;
  const name = calleeName(node, context) ?? "";
  if (!DETERMINISTIC_FACTORY.test(name) && !RANDOM_FACTORY.test(name)) return undefined;
  return { call: node, name, random: RANDOM_FACTORY.test(name) };
}

/**
 * `torch.zeros(n).cuda()` → `torch.zeros(n, device="cuda")`, `torch.arange(n).to(device)` → `torch.arange(n,
 * device=device)`: the same tensor, made where it is used. Only for a copy straight off the factory, with nothing
 * but the device given to the copy; random numbers then come from the GPU's generator, so that is a suggestion.
 */
function factoryOnDevice(node: SyntaxNode, call: MethodCall, factory: HostFactory, context: RuleContext): Fix | undefined {
  if (unparenthesized(call.receiver) !== factory.call) return undefined;
  const args = childByField(node, "arguments")?.children ?? [];
  if (args.length > 1) return undefined;
  let device: string;
  if (args.length === 0) device = call.method === "cuda" ? `"cuda"` : "";
  else if (args[0].type === "keyword_argument") device = context.text(childByField(args[0], "name")!) === "device" ? context.text(childByField(args[0], "value")!) : "";
  else device = call.method === "cuda" || context.analysis.evidence.deviceArgument(node) === args[0] ? context.text(args[0]) : "";
  if (!device || args.some((arg) => arg.type === "list_splat" || arg.type === "dictionary_splat")) return undefined;
  const keywordEdit = addKeywordArgument(factory.call, `device=${device}`);
  if (!keywordEdit) return undefined;
  const title = `Make the tensor on the device: \`${factory.name}(..., device=${device})\``;
  const edits = [keywordEdit, { start: factory.call.end, end: node.end, text: "" }];
  return factory.random ? { title: `${title} (the GPU's generator draws other numbers than the CPU's)`, safe: false, edits } : { title, safe: true, edits };
}

function newDataEachTime(data: SyntaxNode, call: SyntaxNode, context: RuleContext): "item" | "call" | undefined {
  // `[i] * n`, `[w, h, w, h]`: a few Python numbers, which `torch.full` or a tensor built once can stand for.
  const node = unparenthesized(data);
  // `weights / weights.max()` of arrays is no such list (Rainbow's importance weights).
  const ofList = node.type === "binary_operator" && node.children.some((operand) => ["list", "tuple"].includes(unparenthesized(operand).type));
  if (isConstantData(node) || node.type === "list" || node.type === "tuple" || ofList || node.type === "list_comprehension") return undefined;
  const loop = enclosingLoop(call);
  const fn = enclosingFunctionOf(call);
  const names: SyntaxNode[] = [];
  let changes: "item" | "call" | undefined;
  const collect = (node: SyntaxNode) => {
    // `self.weights` is the object's, kept from call to call, unless another method of its class sets it again
    // (`self.is_finished_list = self.topk_ids.eq(self.eos).tolist()` in a beam search's `advance`).
    if (node.type === "identifier") {
      if (context.text(node) !== "self") names.push(node);
    } else if (node.type === "attribute") {
      if (context.text(childByField(node, "object")!) === "self" && setOutsideConstructor(context.text(childByField(node, "attribute")!), call, context)) changes = "call";
      collect(childByField(node, "object")!);
    } else for (const child of node.children) collect(child);
  };
  collect(node);
  for (const name of names) {
    const binding = resolveBinding(context.text(name), name.start, scopeOf(name, context.analysis.scopes));
    if (!binding) continue;
    if (binding.kind === "for" && binding.node.type === "for_in_clause" && binding.node.parent && contains(binding.node.parent, call)) return "item";
    if (binding.kind === "for" && binding.node === loop && context.analysis.hotPaths.loopKind(loop) === "other") return "item";
    if (binding.kind === "parameter" ? !!fn && binding.node.parent?.parent === fn : !!loop && contains(loop, binding.node)) changes = "call";
    // `all_states = transitions["state"]` in the function, from what it was given or computed (Rainbow's replay
    // memory): other data on each call; not a name bound to constants (`weights = [0.3, 0.7]`).
    else if (binding.kind === "assign" && !!fn && enclosingFunctionOf(binding.node) === fn && !!binding.value && !isConstantData(unparenthesized(binding.value))) changes = "call";
  }
  return changes;
}

/** `self.<attribute> = ...` in a method of the class around `node` other than `__init__`. */
function setOutsideConstructor(attribute: string, node: SyntaxNode, context: RuleContext): boolean {
  const cls = enclosingClassOf(node);
  let found = false;
  if (cls) forEachNode(cls, (each) => {
    if (found || each.type !== "assignment") return;
    const left = childByField(each, "left");
    if (left?.type !== "attribute" || context.text(left) !== `self.${attribute}`) return;
    const fn = enclosingFunctionOf(each);
    found = !!fn && context.text(childByField(fn, "name")!) !== "__init__";
  });
  return found;
}

function isZeroDimensional(value: SyntaxNode, context: RuleContext): boolean {
  const node = unparenthesized(value);
  if (node.type !== "call" || calleeName(node, context) !== "torch.tensor") return false;
  const [data] = positional(node);
  return !!data && !["list", "tuple", "list_comprehension", "call", "attribute", "subscript"].includes(unparenthesized(data).type);
}

/**
 * Is `receiver` (`x`, `batch[0]`, or a name unpacked from one) part of a batch that a `DataLoader(...)` of this
 * file without `collate_fn` yields? `default_collate` makes tensors (or containers of them, on which `.to()`
 * fails anyway), so its `.to()`/`.cuda()` take `non_blocking`.
 */
function collatedByDefault(receiver: SyntaxNode, context: RuleContext): boolean {
  let node = unparenthesized(receiver);
  for (let hops = 0; hops < 6; hops++) {
    while (node.type === "subscript") {
      const value = childByField(node, "value");
      if (!value) return false;
      node = unparenthesized(value);
    }
    if (node.type !== "identifier") return false;
    const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
    if (!binding?.value) return false;
    if (binding.kind === "for") return isDefaultCollatingLoader(binding.value, context);
    if (binding.kind !== "assign") return false;
    node = unparenthesized(binding.value);
  }
  return false;
}

function isDefaultCollatingLoader(iterable: SyntaxNode, context: RuleContext): boolean {
  let node = unparenthesized(iterable);
  for (let hops = 0; hops < 6; hops++) {
    if (node.type === "call") {
      const name = calleeName(node, context) ?? "";
      const last = lastName(name);
      if (last === "DataLoader") return !keyword(node, "collate_fn", context) && !node.children.some((c) => c.type === "argument_list" && c.children.some((a) => a.type === "dictionary_splat"));
      // `enumerate(loader)`, `tqdm(loader)`, `iter(loader)`: the loader's own batches.
      const [first] = positional(node);
      if (!first || (name !== "enumerate" && !ITERATION_WRAPPERS.test(name))) return false;
      node = unparenthesized(first);
      continue;
    }
    if (node.type !== "identifier") return false;
    const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
    if (binding?.kind !== "assign" || !binding.value || binding.unpackPath.length > 0) return false;
    node = unparenthesized(binding.value);
  }
  return false;
}

/**
 * `w = torch.tensor(<constant>, device=d)` directly in a loop body, moved before the loop. Provably the same
 * program only when: the data is made of literals; the only other keywords are `device` and `dtype`; `d` is
 * a name bound before the loop and never rebound in it (or a string); `w` is bound nowhere else in its scope
 * and never used outside the loop (so a loop that runs zero times leaves nothing different), is not read in
 * the loop before the statement, is not written through (`w += 1`, `w[i] = ...`, `w.add_(...)`, `w.data`),
 * and is not handed to anything that could keep it (`.append(w)`) or mutate it.
 */
function hoistConstantTensor(call: SyntaxNode, device: SyntaxNode, context: RuleContext): Fix | undefined {
  const text = context.analysis.source.text;
  const assignment = call.parent;
  if (assignment?.type !== "assignment" || call.field !== "right") return undefined;
  const target = childByField(assignment, "left");
  if (target?.type !== "identifier") return undefined;
  const statement = statementOf(assignment);
  if (!statement || statement.type !== "expression_statement" || statement.children.length !== 1) return undefined;
  const loop = enclosingLoop(statement);
  if (!loop || statement.parent?.type !== "block" || statement.parent !== childByField(loop, "body")) return undefined;
  if (statement.parent.children.length < 2) return undefined; // the body would be empty
  // Data and keywords.
  const data = soleDataArgument(call, context, (key, value) => key === "device" || (key === "dtype" && /^torch\.\w+$/.test(context.text(value))));
  if (!data || !isConstantData(data)) return undefined;
  // The device: a string literal, or a name bound before the loop and not rebound inside it.
  const deviceNode = unparenthesized(device);
  const scopeNode = enclosingScope(statement);
  if (deviceNode.type === "identifier") {
    const name = context.text(deviceNode);
    if (declaredShared(scopeNode, name, text)) return undefined;
    if (!resolveBinding(name, loop.start, scopeOf(loop, context.analysis.scopes))) return undefined;
    if (identifierUses(loop, name, text).some((use) => useKind(use) !== "read")) return undefined;
  } else if (deviceNode.type !== "string" || deviceNode.children.some((c) => c.type === "interpolation")) return undefined;
  // The tensor's name.
  const name = context.text(target);
  if (declaredShared(scopeNode, name, text)) return undefined;
  for (const use of identifierUses(scopeNode, name, text)) {
    if (use === target) continue;
    if (!contains(loop, use) || inNestedScope(use, scopeNode) || use.start < statement.start) return undefined;
    if (useKind(use) !== "read" || !isPlainRead(use, context)) return undefined;
  }
  const lines = wholeLines(text, statement);
  if (!lines) return undefined;
  const insert = insertLinesBefore(text, loop, lines.body.split(/\r?\n/));
  if (!insert || lines.body.includes("\n")) return undefined;
  return { title: `Create \`${name}\` once, before the loop`, safe: true, edits: [insert, { start: lines.start, end: lines.end, text: "" }] };
}

const SCALAR_OPERATORS = new Set(["*", "/", "+", "-"]);

/**
 * `t * torch.tensor(0.5, device=d)` → `t * 0.5`, when the other operand is a tensor, the data is one number that
 * float32 holds exactly (so the float32 tensor and the Python float are the same value) and no `dtype` or other
 * keyword is given. A suggestion: a 0-dim operand of a lower-precision dtype is promoted by the 0-dim float32
 * tensor but not by the Python number (see the rule's fix safety).
 */
function pythonScalarOperand(call: SyntaxNode, context: RuleContext): Fix | undefined {
  const operation = call.parent;
  if (operation?.type !== "binary_operator" || !SCALAR_OPERATORS.has(operation.tokens[0])) return undefined;
  const other = operation.children.find((child) => child !== call);
  if (!other || !isTensorKind(context.analysis.tensorEvidence(other).kind)) return undefined;
  const data = soleDataArgument(call, context, (key) => key === "device");
  const value = data && exactFloat32Number(data, context);
  if (value === undefined) return undefined;
  return { title: `Use the Python number \`${value}\` instead of a device tensor`, safe: false, edits: [{ start: call.start, end: call.end, text: value }] };
}

/**
 * The text of a decimal number literal (optionally negative) whose value float32 represents exactly, or
 * undefined. Integers above 2**24 and fractions such as 0.1 are not exact in float32, so `torch.tensor(0.1)`
 * and the Python float 0.1 are different numbers.
 */
function exactFloat32Number(raw: SyntaxNode, context: RuleContext): string | undefined {
  let node = unparenthesized(raw);
  let sign = "";
  if (node.type === "unary_operator" && node.tokens[0] === "-" && node.children.length === 1) {
    sign = "-";
    node = unparenthesized(node.children[0]);
  }
  if (node.type !== "integer" && node.type !== "float") return undefined;
  const literal = context.text(node);
  if (!/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(literal)) return undefined;
  const value = Number(literal);
  if (!Number.isFinite(value) || Math.fround(value) !== value || (node.type === "integer" && value > 2 ** 24)) return undefined;
  // Keep an integer an int and a float a float: `torch.tensor(2)` is int64, `torch.tensor(2.0)` float32.
  const text = `${sign}${literal}`;
  return sign ? `(${text})` : text;
}

/** A read that cannot change or keep the tensor: an operand, an argument of a tensor op, `w.shape`. */
function isPlainRead(use: SyntaxNode, context: RuleContext): boolean {
  const parent = use.parent;
  if (!parent) return false;
  if (parent.type === "binary_operator" || parent.type === "comparison_operator" || parent.type === "unary_operator") return true;
  if (parent.type === "keyword_argument" && context.text(childByField(parent, "name")!) === "out") return false;
  if (parent.type === "keyword_argument" || parent.type === "argument_list") {
    const call = parent.type === "argument_list" ? parent.parent : parent.parent?.parent;
    if (call?.type !== "call") return false;
    const callee = context.text(childByField(call, "function")!);
    // Functional ops and models read their inputs; `.append(w)`/`.add_(w)`/`setattr` could keep or mutate it.
    return !/(^|\.)(append|extend|insert|add|update|setdefault|register_buffer|setattr|copy_|set_)$|_$/.test(callee);
  }
  if (parent.type === "attribute" && use.field === "object") {
    const attribute = context.text(childByField(parent, "attribute")!);
    return ["shape", "dtype", "device", "ndim"].includes(attribute) && parent.parent?.type !== "assignment";
  }
  return false;
}

/**
 * Could the host tensor `receiver` (or a view of it) be changed in place while a non-blocking copy of it is in
 * flight? Anything in the enclosing loop that writes through an expression starting with the receiver's text
 * (`x.add_(...)`, `x[0] = 0`, `x += 1`, `x.data`), or that makes another name for it (`inputs = x`), counts.
 */
function mayChangeHostBatch(receiver: SyntaxNode, call: SyntaxNode, context: RuleContext): boolean {
  const subject = context.text(receiver).replace(/\s+/g, "");
  const loop = enclosingLoop(call);
  if (!loop) return true;
  const extendsSubject = (node: SyntaxNode) => {
    const t = context.text(node).replace(/\s+/g, "");
    return t === subject || (t.startsWith(subject) && /^[.[]/.test(t.slice(subject.length)));
  };
  const stack = [loop];
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...node.children);
    if (node.type === "augmented_assignment") {
      const left = childByField(node, "left");
      if (left && extendsSubject(left)) return true;
    } else if (node.type === "assignment") {
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      if (left?.type === "subscript" || left?.type === "attribute") {
        const object = childByField(left, left.type === "subscript" ? "value" : "object");
        if (object && extendsSubject(object)) return true;
      }
      // `inputs = x` or `a, b = x, y`: another name for the host tensor.
      if (right && (unparenthesized(right).type === "identifier" || unparenthesized(right).type === "subscript" || unparenthesized(right).type === "attribute" || unparenthesized(right).type === "expression_list" || unparenthesized(right).type === "tuple")) {
        const parts = unparenthesized(right).type === "expression_list" || unparenthesized(right).type === "tuple" ? unparenthesized(right).children : [unparenthesized(right)];
        if (parts.some((part) => ["identifier", "subscript", "attribute"].includes(unparenthesized(part).type) && extendsSubject(part))) return true;
      }
    } else if (node.type === "attribute") {
      const object = childByField(node, "object");
      const attribute = context.text(childByField(node, "attribute")!);
      if (object && extendsSubject(object) && (/_$/.test(attribute) || attribute === "data" || attribute === "storage" || attribute === "numpy" || attribute === "untyped_storage")) return true;
    } else if (node.type === "keyword_argument" && context.text(childByField(node, "name")!) === "out") {
      const value = childByField(node, "value");
      if (value && extendsSubject(value)) return true;
    }
  }
  return false;
}
