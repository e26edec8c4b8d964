import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { INDEX_NAME, MASK_NAME, lastName } from "../analysis/names";
import { MethodCall, argumentList, calleeName, gpuAssumption, isTensorEvidence, isTrueLiteral, keyword, mayBeGpuTensor, methodCall, positional, shortText, soleDataArgument } from "./support";
import type { RuleContext } from "../rule";
import { Binding, Scope, resolveBinding, scopeOf } from "../analysis/scopes";
import type { Fix, TextEdit } from "../rule";
import type { Evidence } from "../analysis/tensor-evidence";
import { ensureTorchImport } from "../fixes/imports";
import { BOOLEAN_OPERATION, declaredShared, identifierUses, isNumberLiteral } from "../fixes/facts";
import { addKeywordArgument, replaceNode, safeFixes } from "../fixes/edits";

/** Methods whose output size depends on the data, mapped to what makes them sync-free. */
const ALWAYS_SYNCING = new Map<string, string>([
  ["nonzero", "use `nonzero_static(size=..., fill_value=...)` or keep a mask"],
  ["argwhere", "use `nonzero_static(size=..., fill_value=...)` or keep a mask"],
  ["masked_select", "if the selection is only reduced, `torch.where(mask, x, 0)` and the reduction keep the size fixed"],
  ["unique", "scatter into a fixed number of buckets when the value range is known"],
  ["unique_consecutive", "scatter into a fixed number of buckets when the value range is known"],
  ["bincount", "use `torch.zeros(K).scatter_add_(0, x, weights)` with a known `K`"],
  ["equal", "keep `(a == b).all()` as a tensor"],
  ["allclose", "keep `torch.isclose(a, b).all()` as a tensor"],
]);
/** `torchvision.ops.nms`, `torchvision.ops.boxes.batched_nms` (pytorch-sync-facts.md §7). */
const TORCHVISION_NMS = /^torchvision\.ops\.(boxes\.)?(batched_)?nms$/;
/** Methods that exist on NumPy arrays or pandas objects too: report them only on values known to be tensors. */
const SHARED_WITH_NUMPY = new Set(["nonzero", "unique", "equal", "allclose"]);

/** Operations whose output shape depends on tensor values: the host must read the size before it can go on. */
export const dataDependentShape: Rule = {
  meta: {
    name: "data-dependent-shape",
    code: "SYN105",
    category: "host read",
    defaultSeverity: "warning",
    description: "Operations whose output size depends on GPU data (`nonzero`, `x[mask]`, `unique`, `repeat_interleave` without `output_size`, torchvision's `nms`, ...) in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: true,
    fixable: true,
    hasSuggestions: true,
    messages: {
      shape: "`{{expression}}` {{where}} has an output size that depends on GPU data, so the host waits for the GPU {{frequency}}{{assumption}}; {{alternative}}.",
      check: "`{{expression}}` {{where}} validates its input on the host (an `.item()` inside the call, before any result is read), which waits for the GPU {{frequency}}{{assumption}}; {{alternative}}.",
      maskRead: "`{{expression}}` {{where}} selects with a boolean mask, which calls `nonzero` and waits for the GPU {{frequency}}{{assumption}}; if the selection is only reduced, `torch.where({{mask}}, {{value}}, 0)` and the reduction keep the size fixed.",
      maskInTuple: "`{{expression}}` {{where}} selects with a boolean mask inside the index, which calls `nonzero` and waits for the GPU {{frequency}}{{assumption}}; keep the whole tensor and apply the mask with `torch.where` where what follows allows it.",
      nms: "`{{expression}}` {{where}} copies its suppression mask to the host on a CUDA device and waits for the GPU {{frequency}}{{assumption}}; {{alternative}}.",
      maskWrite: "`{{expression}}` {{where}} assigns a GPU tensor through a boolean mask, which waits for the GPU {{frequency}}{{assumption}}; when the mask has the shape of `{{value}}`, `torch.where({{mask}}, value, {{value}})` writes without it (`masked_fill_` reads a tensor value with `.item()`, a sync too).",
    },
    mechanism: [
      "**Size on the host** — the output's size depends on the data, and PyTorch allocates outputs from the host, so it must learn the size first.",
      "**Copy and wait** — the count (or `max()`, or a validity check) is copied back with `memcpy_and_sync`/`.item()`: `cudaStreamSynchronize` on the current stream.",
    ],
    docs: {
      why:
        "PyTorch allocates every output from the host, so an operation whose output size depends on tensor values (how many elements a mask selects, " +
        "how many unique values there are) must copy that count to the host and wait for the GPU first. " +
        "Under `torch.compile` these are graph breaks unless `capture_dynamic_output_shape_ops` is set.",
      example: ["def forward(self, x, mask):", "    selected = x[mask]", "    idx = torch.nonzero(mask)", "    return selected.sum() + idx.numel()"].join("\n"),
      useInstead: ["def forward(self, x, mask):", "    selected_sum = torch.where(mask, x, 0).sum()", "    count = mask.sum()", "    return selected_sum + count"].join("\n"),
      fixSafety:
        "`torch.where(mask, x, 0).sum()` adds the same elements as `x[mask].sum()` when the mask has the shape of `x`, so the fix is offered only when " +
        "that is provable (`x[x > 0].sum()`, or a mask bound once to `x <op> number`). For floating-point `x` the additions happen in another order " +
        "and the sum can differ in the last bits, so it is a suggestion (`--unsafe-fixes`), not a safe fix. " +
        "`x[mask].mean()` becomes `torch.where(mask, x, 0).sum() / mask.sum()` under the same conditions, also a suggestion: the sum is taken in " +
        "another order, so a float mean can differ in the last bits; an empty selection still gives NaN, but an integer `x`, where `mean` raises, " +
        "now gives a float. " +
        "`x[mask] = v` becomes `x.copy_(torch.where(mask, v, x))` (still in place, so views and other names of `x` see the write) only when the mask " +
        "provably has the shape of `x` (a row mask would broadcast along the wrong axis) and `v` is a full reduction such as `t.mean()` (0-dim) or " +
        "`y[mask]` with the same mask (then `y` has the shape of `x`); values of shape `[mask.sum()]` computed otherwise get no fix. A suggestion: " +
        "`where` allocates a temporary the size of `x`, a `v` that requires grad gets its gradient summed in another order, and a `v` of another " +
        "dtype than `x` (which indexing on the GPU rejects) is promoted by `where`. `masked_fill_(mask, v)` is not offered: on CUDA it reads a " +
        "tensor `v` with `.item()`, a sync of its own. " +
        "`repeat_interleave(r)` gets `output_size=N` when `r` is `torch.tensor([...])` of two or more non-negative integer literals (inline, or a " +
        "name bound once and only ever passed as repeats): with several repeats the call runs only with one repeat per element along `dim`, so " +
        "the output has exactly N (their sum) rows, and the fix is safe. A single repeat is broadcast along `dim`, so its total is unknown and no " +
        "fix is offered. " +
        "`one_hot(i)` gets `num_classes=NUM_CLASSES` when the file binds such a name once to an integer: a suggestion, because a batch whose largest " +
        "label is below `NUM_CLASSES - 1` then gets `NUM_CLASSES` columns instead of `max + 1` (the same result when every batch holds the largest class). Passing `num_classes`, `output_size` or `min`/`max` is safe when the value is known; " +
        "other rewrites change shapes and are suggestions.",
      facts: [
        "§2 test ground truth (`x[mask]`, `x[mask]=y`, `x.nonzero()`, `one_hot(ind)`, `repeat_interleave(x, repeats)`, `repeat_interleave(..., output_size=…)`)",
        "§2 op table: `x[mask] = v` (conditional), `repeat_interleave` without `output_size`",
        "§2 op table: `nonzero`, `unique`, `bincount`, `histc`, `multinomial`, `one_hot`, `torch.equal`, `torch.allclose`",
        "§4 `nonzero` / `unique` graph-break",
        "§7 torchvision's `nms` on CUDA tensors copies its suppression mask to the host and waits; so does `batched_nms`",
      ],
    },
  },
  create(context) {
    const evidenceOf = (node: SyntaxNode) => context.analysis.tensorEvidence(node);
    /** The value being indexed may be a tensor: known to be one, or unknown in a file that imports torch. */
    const mayIndexTensor = (owner: Evidence) => isTensorEvidence(owner, context) || (owner.kind === "unknown" && context.importsTorch);

    function report(node: SyntaxNode, subject: SyntaxNode | undefined, alternative: string, allowUnknown: boolean, range?: { start: number; end: number }, messageId = "shape", fixes: Fix[] = []): void {
      const evidence = subject ? evidenceOf(subject) : { kind: "tensor" as const, reason: "a torch operation" };
      if (!mayBeGpuTensor(evidence, context, allowUnknown)) return;
      context.report({
        node,
        range,
        messageId,
        data: { expression: shortText(node, context, 50), alternative, assumption: subject ? gpuAssumption(subject, evidence, context) : "" },
        evidence,
        fixes,
      });
    }

    /** `x[mask, 1:]`, `x[:, keep]`: a boolean tensor in an index tuple becomes indices through `nonzero` too. */
    function reportMaskInIndexTuple(node: SyntaxNode, value: SyntaxNode, indices: SyntaxNode[]): void {
      if (node.parent?.type === "assignment" && node.field === "left") return;
      const mask = indices.find((index) => isBooleanMask(index, context));
      if (!mask) return;
      const owner = evidenceOf(value);
      if (!mayIndexTensor(owner)) return;
      context.report({ node, messageId: "maskInTuple", data: { expression: shortText(node, context, 50), assumption: gpuAssumption(value, owner, context) }, evidence: owner });
    }

    return {
      call(node) {
        const name = calleeName(node, context);
        // The boxes a detector keeps: how many, only the host's walk over the suppression mask tells.
        if (name && TORCHVISION_NMS.test(name)) {
          const once = name.endsWith("batched_nms") ? "run it once on the whole batch (the image index added to the class)" : "run it once on the whole batch (`batched_nms` with the image index added to the class)";
          return report(node, keyword(node, "boxes", context) ?? positional(node)[0], `${once} rather than once per image`, true, undefined, "nms");
        }
        const call = methodCall(node, context);
        const isTorchFunction = !!name && /^torch\.(nn\.functional\.)?[a-z_]+$/.test(name);
        const operation = isTorchFunction ? name!.slice(name!.lastIndexOf(".") + 1) : call?.method;
        if (!operation) return;
        // torch.nonzero(x) has the tensor as its first argument; x.nonzero() as its receiver.
        const subject = isTorchFunction ? positional(node)[0] : call?.receiver;
        const range = !isTorchFunction && call ? call.range : undefined;
        if (!isTorchFunction && !call) return;
        const allowUnknown = isTorchFunction || !SHARED_WITH_NUMPY.has(operation);
        if (ALWAYS_SYNCING.has(operation)) {
          const checks = operation === "equal" || operation === "allclose";
          if (checks && isTorchFunction === false && positional(node).length !== 1) return;
          return report(node, subject, ALWAYS_SYNCING.get(operation)!, allowUnknown, range, checks ? "check" : "shape");
        }
        if (operation === "where" && isTorchFunction && positional(node).length === 1 && !keyword(node, "input", context))
          return report(node, subject, "use the 3-argument `torch.where(cond, a, b)` or `nonzero_static`", true);
        if (operation === "repeat_interleave" && !keyword(node, "output_size", context)) {
          const args = positional(node);
          const repeats = keyword(node, "repeats", context) ?? (isTorchFunction ? args[1] : args[0]);
          if (!repeats || !isTensorEvidence(evidenceOf(repeats), context)) return;
          return report(node, subject, "pass `output_size=` when the total is known", true, range, "shape", safeFixes(() => repeatOutputSizeFix(node, repeats, context)));
        }
        if (operation === "one_hot" && isTorchFunction) {
          const classes = keyword(node, "num_classes", context) ?? positional(node)[1];
          if (classes && !(unparenthesized(classes).type === "unary_operator" && context.text(classes).replace(/\s/g, "") === "-1")) return;
          const knownClasses = safeFixes(() => oneHotFix(node, classes, context));
          const evidence = subject ? evidenceOf(subject) : { kind: "tensor" as const, reason: "a torch operation" };
          if (!mayBeGpuTensor(evidence, context, true)) return;
          context.report({ node, messageId: "shape", data: { expression: shortText(node, context, 50), alternative: "pass `num_classes=`", assumption: subject ? gpuAssumption(subject, evidence, context) : "" }, evidence, fixes: knownClasses });
          return;
        }
        if (operation === "histc") {
          const args = positional(node);
          const offset = isTorchFunction ? 1 : 0;
          const hasRange = keyword(node, "min", context) || keyword(node, "max", context) || args.length > offset + 1;
          if (hasRange) return;
          return report(node, subject, "pass explicit `min=` and `max=`", true, range);
        }
        if (operation === "multinomial") {
          const args = positional(node);
          const offset = isTorchFunction ? 1 : 0;
          const replacement = keyword(node, "replacement", context) ?? args[offset + 1];
          const samples = keyword(node, "num_samples", context) ?? args[offset];
          const onlyOneSample = !!samples && context.text(samples) === "1";
          if (isTrueLiteral(replacement) && !onlyOneSample) return;
          return report(node, subject, "sample with `(p / torch.empty_like(p).exponential_()).argmax(-1)`", true, range, "check");
        }
      },
      subscript(node) {
        const value = childByField(node, "value");
        const indices = node.children.filter((child) => child.field === "subscript");
        if (!value || indices.length === 0) return;
        if (indices.length > 1) return reportMaskInIndexTuple(node, value, indices);
        const mask = indices[0];
        if (!isBooleanMask(mask, context)) return;
        const owner = evidenceOf(value);
        if (!mayIndexTensor(owner)) return;
        const assignment = node.parent?.type === "assignment" && node.field === "left" ? node.parent : undefined;
        const maskText = shortText(mask, context, 20);
        const valueText = shortText(value, context, 20);
        if (assignment) {
          const assigned = childByField(assignment, "right");
          // `x[mask] = 0.0` dispatches to masked_fill_ and does not sync; a tensor value does.
          if (!assigned || !isTensorEvidence(evidenceOf(assigned), context)) return;
          const fixes = safeFixes(() => maskedWriteFix(assignment, value, mask, assigned, context));
          context.report({ node: assignment, messageId: "maskWrite", data: { expression: shortText(assignment, context, 50), mask: maskText, value: valueText, assumption: gpuAssumption(value, owner, context) }, evidence: owner, fixes });
          return;
        }
        // `x[mask] *= 2` reads `x[mask]` (a sync) before writing it back.
        context.report({ node, messageId: "maskRead", data: { expression: shortText(node, context, 50), mask: maskText, value: valueText, assumption: gpuAssumption(value, owner, context) }, evidence: owner, fixes: safeFixes(() => maskedReductionFix(node, value, mask, context)) });
      },
    };
  },
};

/** Expressions that make integer indices out of a mask. */
const INDEX_RESULT = /\b(nonzero|argwhere)\s*\(|\.(long|int)\(\)/;

/** Names of a mask of positives or negatives in detection code, and of the samples themselves elsewhere. */
const SAMPLES_OR_MASK_NAME = /^(pos(itive)?s?|neg(ative)?s?)$/i;

/**
 * A name for a mask (`mask`, `keep`, `valid`, `pos`), unless it names indices with a weaker word (`keep_idx_i`,
 * `keep_inds`: faster-rcnn's NMS output); `mask_indices` stays a mask (fairseq's boolean masks are named so).
 */
function namedLikeMask(name: string): boolean {
  return MASK_NAME.test(name) && (/mask/i.test(name) || !INDEX_NAME.test(name));
}

/** A call's operation: the method of `x.op(...)`, or the last name of `torch.op(...)`. */
function operationOf(call: SyntaxNode, context: RuleContext): { call: MethodCall | undefined; operation: string } {
  const method = methodCall(call, context);
  const name = context.analysis.evidence.qualifiedName(childByField(call, "function")!) ?? "";
  return { call: method, operation: method?.method ?? name.slice(name.lastIndexOf(".") + 1) };
}

/** Operations whose result is integer positions. */
const POSITIONS_OPERATION = /^(argsort|argmax|argmin|nonzero|argwhere|randperm|arange|multinomial|searchsorted|bucketize)$/;

/**
 * Integer positions, whatever the name says: what `argsort`, `randperm`, `topk(...).indices` and their kin make,
 * a slice or a view of it, or the part of a written tuple unpacked from one (`masked_indices, unmasked_indices =
 * rand_indices[:, :n], rand_indices[:, n:]` in vit-pytorch's MAE).
 */
function holdsPositions(raw: SyntaxNode, context: RuleContext, depth = 0): boolean {
  const node = unparenthesized(raw);
  if (depth > 4) return false;
  switch (node.type) {
    case "subscript":
      return holdsPositions(childByField(node, "value")!, context, depth + 1);
    case "attribute":
      // `x.topk(k).indices`, `x.sort().indices`
      return context.text(childByField(node, "attribute")!) === "indices";
    case "call": {
      const { call, operation } = operationOf(node, context);
      if (POSITIONS_OPERATION.test(operation)) return true;
      return !!call && call.method !== "to" && SHAPE_METHOD.test(call.method) && holdsPositions(call.receiver, context, depth + 1);
    }
    case "identifier": {
      const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
      if (binding?.kind !== "assign" || !binding.value) return false;
      if (binding.unpackPath.length === 0) return holdsPositions(binding.value, context, depth + 1);
      const whole = unparenthesized(binding.value);
      const part = binding.unpackPath.length === 1 && (whole.type === "expression_list" || whole.type === "tuple") ? whole.children[binding.unpackPath[0]] : undefined;
      return !!part && holdsPositions(part, context, depth + 1);
    }
    default:
      return false;
  }
}

/** Methods that give the same elements in another shape, or a copy of them. */
const SHAPE_METHOD = /^(view|reshape|flatten|squeeze|unsqueeze|permute|transpose|contiguous|expand|expand_as|view_as|reshape_as|clone|detach|to|cuda)$/;

/** A boolean tensor: a comparison of tensors, `~m`, `m & n`, `isnan(...)`, `m.any(dim=1)`, a selection from one, or a tensor named like a mask. */
function isBooleanMask(raw: SyntaxNode, context: RuleContext, depth = 0): boolean {
  const node = unparenthesized(raw);
  const evidence = context.analysis.tensorEvidence(node);
  if (!isTensorEvidence(evidence, context) && evidence.kind !== "cpu") return false;
  switch (node.type) {
    case "comparison_operator":
      return true;
    case "unary_operator":
      return node.tokens[0] === "~";
    case "binary_operator":
      // `(u > 0) * (l == u)` (Rainbow's projection): booleans multiplied stay booleans.
      return ["&", "|", "^", "*"].includes(node.tokens[0]) && node.children.every((child) => isBooleanMask(child, context, depth + 1));
    case "call": {
      const { call, operation } = operationOf(node, context);
      // `is_eos.any(dim=1)`: a reduction to booleans is a mask of what is left.
      if (BOOLEAN_OPERATION.test(operation) || operation === "any" || operation === "all") return true;
      // `valid.view(-1)`: the same booleans in another shape (not `.to(...)`, which may change the dtype).
      if (call && operation !== "to" && SHAPE_METHOD.test(operation) && depth < 4) return isBooleanMask(call.receiver, context, depth + 1);
      // `torch.stack((torch.ones_like(j), j, k))` of masks; `torch.ones_like(j)` of a mask (its dtype).
      const [first] = positional(node);
      if (depth >= 4 || !first) return false;
      if (/^(stack|cat|concat|vstack|hstack)$/.test(operation)) {
        const parts = unparenthesized(first);
        return (parts.type === "tuple" || parts.type === "list") && parts.children.length > 0 && parts.children.every((part) => isBooleanMask(part, context, depth + 1));
      }
      return /^(ones|zeros|empty)_like$/.test(operation) && !keyword(node, "dtype", context) && isBooleanMask(first, context, depth + 1);
    }
    case "identifier": {
      const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
      // `j, k = ((gxy % 1 < g) & (gxy > 1)).T`: the rows of a mask are masks.
      if (binding?.kind === "assign" && binding.unpackPath.length > 0 && binding.value && depth < 4 && isBooleanMask(binding.value, context, depth + 1)) return true;
      const value = binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
      // `valid = torch.nonzero(valid).squeeze(1)`: integer indices now, whatever the name says (the `nonzero` synced).
      if (value && INDEX_RESULT.test(context.text(value))) return false;
      // `masked_target = target - start` (integer indices, whatever the name says), or a view of such a value.
      if (value && depth < 4 && computesNumbers(value, context, depth)) return false;
      if (binding?.kind === "parameter" && passedIndices(binding, context, depth)) return false;
      if (holdsPositions(node, context)) return false;
      // `pos = train_pos[:, perm]`, `neg = sample_negatives(...)`: edges or samples, not the positives' mask; the
      // name says mask only where the value does not say otherwise.
      if (value && SAMPLES_OR_MASK_NAME.test(context.text(node))) return depth < 4 && isBooleanMask(value, context, depth + 1);
      if (namedLikeMask(context.text(node))) return true;
      // `above = out > threshold` ... `out[above]`
      return !!value && depth < 4 && isBooleanMask(value, context, depth + 1);
    }
    case "subscript": {
      // `xc[xi]`, `valid[:, 0]`: whatever selects from a boolean tensor gives booleans.
      const value = childByField(node, "value");
      return !!value && depth < 4 && isBooleanMask(value, context, depth + 1);
    }
    case "attribute": {
      const text = context.text(node);
      const attribute = text.slice(text.lastIndexOf(".") + 1);
      // `mask.T`: the same elements, transposed.
      if (attribute === "T" || attribute === "mT") return isBooleanMask(childByField(node, "object")!, context, depth);
      return namedLikeMask(attribute);
    }
    default:
      return false;
  }
}

/**
 * `def train_iter(..., mask_train)` that every call passes `idx_train` (`torch.randperm(n)[1500:]`), directly or
 * through a parameter passed so in turn: integer indices, whatever the parameter is named.
 */
function passedIndices(parameter: Binding, context: RuleContext, depth: number): boolean {
  const passed = depth < 4 ? context.analysis.hotPaths.argumentsOfEveryCall(parameter) : undefined;
  return !!passed && passed.every((argument) => {
    if (INDEX_NAME.test(lastName(context.text(argument)))) return true;
    const binding = argument.type === "identifier" ? resolveBinding(context.text(argument), argument.start, scopeOf(argument, context.analysis.scopes)) : undefined;
    return binding?.kind === "parameter" && passedIndices(binding, context, depth + 1);
  });
}

/** Arithmetic (`target - start`), or a view or copy of a name bound to arithmetic: numbers, not a mask. */
function computesNumbers(raw: SyntaxNode, context: RuleContext, depth: number): boolean {
  const node = unparenthesized(raw);
  if (node.type === "binary_operator") {
    const operator = node.tokens[0];
    // Two masks multiplied or added are a bool tensor still (`(x > 0) * (y > 0)`).
    if (operator === "*" || operator === "+") return !node.children.every((child) => isBooleanMask(child, context, depth + 1));
    return operator === "-" || operator === "/" || operator === "//" || operator === "%";
  }
  const call = node.type === "call" ? methodCall(node, context) : undefined;
  if (!call || !SHAPE_METHOD.test(call.method)) return false;
  const receiver = unparenthesized(call.receiver);
  if (receiver.type !== "identifier") return computesNumbers(receiver, context, depth + 1);
  const binding = resolveBinding(context.text(receiver), receiver.start, scopeOf(receiver, context.analysis.scopes));
  const value = binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
  return !!value && depth < 4 && computesNumbers(value, context, depth + 1);
}

/**
 * `x[mask].sum()` → `torch.where(mask, x, 0).sum()` and `x[mask].mean()` → `(torch.where(mask, x, 0).sum() /
 * mask.sum())`, only when `mask` provably has the shape of `x`: it is `x <op> c` (or a name bound once to that,
 * with `x` not rebound in between) for a number `c`. A mask of another shape (rows of a matrix) would broadcast
 * differently, so no fix is offered for it.
 */
function maskedReductionFix(subscript: SyntaxNode, value: SyntaxNode, mask: SyntaxNode, context: RuleContext): Fix[] {
  const reduction = argumentlessMethodCall(subscript, context);
  if (reduction?.method !== "sum" && reduction?.method !== "mean") return [];
  const x = unparenthesized(value);
  if (x.type !== "identifier") return [];
  if (!maskShapedLike(mask, x, context)) return [];
  const maskedSum = `torch.where(${context.text(mask)}, ${context.text(x)}, 0).sum()`;
  // Not safe fixes: for floating-point `x` the additions happen in another order, so the sum may differ in the
  // last bits (the equivalence suite measured it); integers give the same sum. The mean divides that sum, so
  // it may differ too, and of an integer `x` it is a float where `mean` raises.
  const fix =
    reduction.method === "sum"
      ? { title: "Sum with `torch.where(mask, x, 0)` instead of selecting", text: maskedSum }
      : { title: "Average with `torch.where(mask, x, 0)` instead of selecting", text: parenthesizedUnlessAlone(reduction.call, `${maskedSum} / ${operandText(mask, context)}.sum()`) };
  return [{ title: fix.title, safe: false, edits: withTorchImport([replaceNode(reduction.call, fix.text)], context) }];
}

/** `node.method()` with no arguments, where `node` is the receiver: the call and the method's name. */
function argumentlessMethodCall(node: SyntaxNode, context: RuleContext): { call: SyntaxNode; method: string } | undefined {
  const attribute = node.parent;
  if (attribute?.type !== "attribute" || node.field !== "object") return undefined;
  const call = attribute.parent;
  if (call?.type !== "call" || attribute.field !== "function" || (childByField(call, "arguments")?.children.length ?? 1) !== 0) return undefined;
  return { call, method: context.text(childByField(attribute, "attribute")!) };
}

/** The text of an expression as the receiver of a method call: a name as is, anything else in parentheses. */
function operandText(raw: SyntaxNode, context: RuleContext): string {
  const node = unparenthesized(raw);
  return node.type === "identifier" ? context.text(node) : `(${context.text(node)})`;
}

/** `text` in parentheses, unless it replaces `node` where nothing can bind tighter: `m = ...`, `f(...)`, `return ...`. */
function parenthesizedUnlessAlone(node: SyntaxNode, text: string): string {
  const parent = node.parent;
  const alone =
    (parent?.type === "assignment" && node.field === "right") ||
    (parent?.type === "keyword_argument" && node.field === "value") ||
    parent?.type === "argument_list" ||
    parent?.type === "return_statement" ||
    parent?.type === "parenthesized_expression";
  return alone ? text : `(${text})`;
}

function withTorchImport(edits: TextEdit[], context: RuleContext): TextEdit[] {
  const torchImport = ensureTorchImport(context.analysis.source.text, context.analysis.tree.root);
  return torchImport ? [...edits, torchImport] : edits;
}

/** Full reductions: called with no arguments, they return a 0-dim tensor. */
const FULL_REDUCTIONS = new Set(["sum", "mean", "nansum", "nanmean", "prod", "amax", "amin", "max", "min", "median", "std", "var", "norm"]);

/**
 * `x[mask] = v` → `x.copy_(torch.where(mask, v, x))`: the same values written into the same tensor (in place, so
 * views and other names of `x` see them), with no `nonzero` and no copy of a count to the host. Offered only when
 *  - `mask` provably has the shape of `x` (as for the masked sum: a row mask would broadcast along the wrong axis);
 *  - `v` is 0-dim (`t.mean()`, `t.max()` with no arguments), or `y[mask]` with the same mask (then, when the
 *    assignment runs, `y` has the shape of `mask`, hence of `x`, and `where` picks the same elements).
 * Not `masked_fill_(mask, v)`: on CUDA it reads a tensor `v` with `.item()`, a sync of its own (`masked_fill__cuda`,
 * aten/src/ATen/native/cuda/Indexing.cu@d4c71812). A suggestion:
 * `where` promotes dtypes where indexing requires `v` to have `x`'s dtype, and it allocates a temporary.
 */
function maskedWriteFix(assignment: SyntaxNode, value: SyntaxNode, mask: SyntaxNode, assigned: SyntaxNode, context: RuleContext): Fix[] {
  // A statement of its own: in `a = x[m] = v` or `x[m]: T = v` the rewrite would change `a` or drop `T`.
  if (assignment.parent?.type !== "expression_statement" || assignment.parent.children.length !== 1 || childByField(assignment, "type")) return [];
  const x = unparenthesized(value);
  if (x.type !== "identifier" || !isTensorEvidence(context.analysis.tensorEvidence(x), context)) return [];
  if (!maskShapedLike(mask, x, context)) return [];
  const source = selectedSource(assigned, mask, context);
  if (!source) return [];
  const xText = context.text(x);
  const text = `${xText}.copy_(torch.where(${context.text(mask)}, ${source}, ${xText}))`;
  return [{ title: "Assign through `torch.where(mask, v, x)` instead of indexing", safe: false, edits: withTorchImport([replaceNode(assignment, text)], context) }];
}

/**
 * What `where` takes in place of the assigned value: a 0-dim tensor (a full reduction of a named tensor) as is, or
 * `y` for `y[mask]` with the mask of the assignment. Undefined for anything else (a value of shape
 * `[mask.sum()]` computed otherwise has no elementwise counterpart).
 */
function selectedSource(raw: SyntaxNode, mask: SyntaxNode, context: RuleContext): string | undefined {
  const node = unparenthesized(raw);
  const isTensorName = (n: SyntaxNode | undefined) => n?.type === "identifier" && isTensorEvidence(context.analysis.tensorEvidence(n), context);
  if (node.type === "call") {
    const call = methodCall(node, context);
    if (!call || !FULL_REDUCTIONS.has(call.method) || (childByField(node, "arguments")?.children.length ?? 1) !== 0) return undefined;
    return isTensorName(unparenthesized(call.receiver)) ? context.text(node) : undefined;
  }
  if (node.type === "subscript") {
    const indices = node.children.filter((child) => child.field === "subscript");
    const y = childByField(node, "value");
    if (indices.length !== 1 || !y || !isTensorName(unparenthesized(y))) return undefined;
    const sameMask = context.text(unparenthesized(indices[0])) === context.text(unparenthesized(mask));
    return sameMask ? context.text(unparenthesized(y)) : undefined;
  }
  return undefined;
}

function maskShapedLike(raw: SyntaxNode, x: SyntaxNode, context: RuleContext): boolean {
  const node = unparenthesized(raw);
  const scope = scopeOf(x, context.analysis.scopes);
  const xName = context.text(x);
  const comparesX = (comparison: SyntaxNode, at: number): boolean => {
    if (comparison.type !== "comparison_operator" || comparison.children.length !== 2 || !["==", "!=", "<", ">", "<=", ">="].includes(comparison.tokens[0])) return false;
    const [a, b] = comparison.children.map(unparenthesized);
    const other = a.type === "identifier" && context.text(a) === xName ? b : b.type === "identifier" && context.text(b) === xName ? a : undefined;
    if (!other || !isNumberLiteral(other)) return false;
    // The `x` compared is the `x` summed: the same binding at both places.
    const xAtMask = resolveBinding(xName, at, scope);
    const xAtUse = resolveBinding(xName, x.start, scope);
    return !!xAtUse && xAtMask === xAtUse;
  };
  if (node.type === "comparison_operator") return comparesX(node, node.start);
  if (node.type !== "identifier") return false;
  const binding = resolveBinding(context.text(node), node.start, scope);
  if (binding?.kind !== "assign" || !binding.value || binding.unpackPath.length > 0) return false;
  const bindings = scope.bindings.get(context.text(node)) ?? [];
  if (bindings.length !== 1) return false;
  return comparesX(unparenthesized(binding.value), binding.value.start);
}

/**
 * `x.repeat_interleave(r)` → `x.repeat_interleave(r, output_size=N)` when `r` is a constant: `torch.tensor([...])`
 * (inline, or a name bound once to it and otherwise only passed as `repeats`) of at least two non-negative
 * integer literals, whose sum is N. With two or more repeats, the call runs only when there is one repeat per
 * element along `dim` (else it raises, with or without `output_size`), so the output has exactly N rows. A
 * single repeat is broadcast over `dim`, and its total is not known, so it gets no fix. Safe.
 */
function repeatOutputSizeFix(call: SyntaxNode, repeats: SyntaxNode, context: RuleContext): Fix[] {
  // `*args`/`**kwargs` may hold `dim` or `output_size` already.
  if (argumentList(call).some((argument) => argument.type === "list_splat" || argument.type === "dictionary_splat")) return [];
  const counts = constantRepeats(repeats, context);
  if (!counts || counts.length < 2) return [];
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (!Number.isSafeInteger(total)) return [];
  const edit = addKeywordArgument(call, `output_size=${total}`);
  return edit ? [{ title: `Pass \`output_size=${total}\` to \`repeat_interleave\``, safe: true, edits: [edit] }] : [];
}

/** The repeat counts of a constant repeats tensor, or undefined when they are not provably constant. */
function constantRepeats(raw: SyntaxNode, context: RuleContext): number[] | undefined {
  const node = unparenthesized(raw);
  if (node.type === "call") return literalIntegerTensor(node, context);
  if (node.type !== "identifier") return undefined;
  const name = context.text(node);
  const text = context.analysis.source.text;
  const binding = resolveBinding(name, node.start, scopeOf(node, context.analysis.scopes));
  if (binding?.kind !== "assign" || !binding.value || binding.unpackPath.length > 0) return undefined;
  const owner = scopeOwning(binding, scopeOf(node, context.analysis.scopes));
  if (!owner || owner.bindings.get(name)!.length !== 1 || declaredShared(owner.node, name, text)) return undefined;
  // `r = torch.tensor(...)` alone on its line: in `s = r = ...` another name would share the tensor.
  const assignment = binding.node;
  const target = childByField(assignment, "left");
  const value = childByField(assignment, "right");
  if (assignment.type !== "assignment" || assignment.parent?.type !== "expression_statement" || target?.type !== "identifier" || !value || unparenthesized(value).type !== "call") return undefined;
  // Every other use passes it as the repeats of a `repeat_interleave`: nothing can change it in place.
  for (const use of identifierUses(owner.node, name, text)) if (use !== target && !isRepeatsArgument(use, context)) return undefined;
  return literalIntegerTensor(unparenthesized(value), context);
}

/** The scope, from `scope` outwards, whose bindings hold `binding`. */
function scopeOwning(binding: Binding, scope: Scope): Scope | undefined {
  for (let current: Scope | null = scope; current; current = current.parent) if (current.bindings.get(binding.name)?.includes(binding)) return current;
  return undefined;
}

/** Is `use` the repeats argument of a `repeat_interleave` call (`x.repeat_interleave(r)`, `torch.repeat_interleave(x, r)`, `repeats=r`)? */
function isRepeatsArgument(use: SyntaxNode, context: RuleContext): boolean {
  const parent = use.parent;
  const isKeyword = parent?.type === "keyword_argument" && use.field === "value" && context.text(childByField(parent, "name")!) === "repeats";
  const list = isKeyword ? parent!.parent : parent;
  const call = list?.type === "argument_list" ? list.parent : undefined;
  if (call?.type !== "call" || !(isKeyword || list!.children.includes(use))) return false;
  const callee = childByField(call, "function");
  return !!callee && /(^|\.)repeat_interleave$/.test(context.text(callee));
}

const INTEGER_DTYPES = /^torch\.(long|int64|int32|int)$/;

/**
 * `torch.tensor([2, 3], device=...)` (or `as_tensor`, possibly moved with `.to(...)`/`.cuda(...)`): its
 * non-negative integer literals; undefined for anything else. A conversion to a non-index dtype makes
 * `repeat_interleave` raise with or without `output_size`; counts below 2**31 survive a conversion to int32.
 */
function literalIntegerTensor(call: SyntaxNode, context: RuleContext): number[] | undefined {
  const moved = methodCall(call, context);
  if (moved && (moved.method === "to" || moved.method === "cuda")) {
    const receiver = unparenthesized(moved.receiver);
    return receiver.type === "call" ? literalIntegerTensor(receiver, context) : undefined;
  }
  const name = calleeName(call, context);
  if (name !== "torch.tensor" && name !== "torch.as_tensor") return undefined;
  const data = soleDataArgument(call, context, (key, value) => key === "device" || (key === "dtype" && INTEGER_DTYPES.test(context.text(value))));
  if (!data) return undefined;
  const list = unparenthesized(data);
  if (list.type !== "list" && list.type !== "tuple") return undefined;
  const counts: number[] = [];
  for (const element of list.children) {
    // Plain decimal literals only: no sign, no `0x`/`_` forms to misread.
    if (element.type !== "integer" || !/^\d+$/.test(context.text(element))) return undefined;
    const count = Number(context.text(element));
    if (count >= 2 ** 31) return undefined;
    counts.push(count);
  }
  return counts;
}

const CLASS_COUNT_NAME = /^(num_classes|n_classes|nclasses|num_labels|n_labels|nb_classes|classes_num)$/i;

/**
 * `one_hot(i)` → `one_hot(i, num_classes=NUM_CLASSES)` when the file binds such a name exactly once, to an
 * integer literal, and the call sees that binding. A suggestion: a batch whose largest label is below
 * `NUM_CLASSES - 1` now gets `NUM_CLASSES` columns instead of `max + 1`.
 */
function oneHotFix(call: SyntaxNode, classes: SyntaxNode | undefined, context: RuleContext): Fix[] {
  const text = context.analysis.source.text;
  const scope = scopeOf(call, context.analysis.scopes);
  for (let current: typeof scope | null = scope; current; current = current.parent) {
    for (const [name, bindings] of current.bindings) {
      if (!CLASS_COUNT_NAME.test(name)) continue;
      if (bindings.length !== 1 || bindings[0].kind !== "assign" || bindings[0].unpackPath.length > 0) continue;
      const value = bindings[0].value;
      if (!value || unparenthesized(value).type !== "integer") continue;
      if (resolveBinding(name, call.start, scope) !== bindings[0]) continue;
      if (declaredShared(context.analysis.tree.root, name, text)) continue;
      const edit = classes ? { start: classes.start, end: classes.end, text: name } : addKeywordArgument(call, `num_classes=${name}`);
      if (!edit) return [];
      return [{ title: `Pass \`num_classes=${name}\` to \`one_hot\``, safe: false, edits: [edit] }];
    }
  }
  return [];
}
