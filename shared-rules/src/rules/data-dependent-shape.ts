import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { MASK_NAME } from "../analysis/names";
import { calleeName, gpuAssumption, isTensorEvidence, isTrueLiteral, keyword, mayBeGpuTensor, methodCall, positional, shortText } from "./support";
import type { RuleContext } from "../rule";
import { resolveBinding, scopeOf } from "../analysis/scopes";
import type { Fix } from "../rule";
import { ensureTorchImport } from "../fixes/imports";
import { BOOLEAN_OPERATION, isNumberLiteral } from "../fixes/facts";
import { addKeywordArgument, safeFixes } from "../fixes/edits";

/** Methods whose output size depends on the data, mapped to what makes them sync-free. */
const ALWAYS_SYNCING = new Map<string, string>([
  ["nonzero", "use `nonzero_static(size=..., fill_value=...)` or keep a mask"],
  ["argwhere", "use `nonzero_static(size=..., fill_value=...)` or keep a mask"],
  ["masked_select", "use `torch.where(mask, x, 0)` and reduce"],
  ["unique", "scatter into a fixed number of buckets when the value range is known"],
  ["unique_consecutive", "scatter into a fixed number of buckets when the value range is known"],
  ["bincount", "use `torch.zeros(K).scatter_add_(0, x, weights)` with a known `K`"],
  ["equal", "keep `(a == b).all()` as a tensor"],
]);
/** Methods that exist on NumPy arrays or pandas objects too: report them only on values known to be tensors. */
const SHARED_WITH_NUMPY = new Set(["nonzero", "unique", "equal"]);

/** Operations whose output shape depends on tensor values: the host must read the size before it can go on. */
export const dataDependentShape: Rule = {
  meta: {
    name: "data-dependent-shape",
    code: "SYN105",
    category: "host read",
    defaultSeverity: "warning",
    description: "Operations whose output size depends on GPU data (`nonzero`, `x[mask]`, `unique`, `repeat_interleave` without `output_size`, ...) in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: true,
    fixable: false,
    hasSuggestions: true,
    messages: {
      shape: "`{{expression}}` {{where}} has an output size that depends on GPU data, so the host waits for the GPU {{frequency}}{{assumption}}; {{alternative}}.",
      check: "`{{expression}}` {{where}} reads a result on the host with `.item()`, which waits for the GPU {{frequency}}{{assumption}}; {{alternative}}.",
      maskRead: "`{{expression}}` {{where}} selects with a boolean mask, which calls `nonzero` and waits for the GPU {{frequency}}{{assumption}}; use `torch.where({{mask}}, {{value}}, 0)` and reduce.",
      maskWrite: "`{{expression}}` {{where}} assigns a GPU tensor through a boolean mask, which waits for the GPU {{frequency}}{{assumption}}; use `torch.where({{mask}}, value, {{value}})` or `masked_fill_`.",
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
        "`one_hot(i)` gets `num_classes=NUM_CLASSES` when the file binds such a name once to an integer: a suggestion, because a batch whose largest " +
        "label is below `NUM_CLASSES - 1` then gets `NUM_CLASSES` columns instead of `max + 1` (the same result when every batch holds the largest class). Passing `num_classes`, `output_size` or `min`/`max` is safe when the value is known; " +
        "other rewrites change shapes and are suggestions.",
      facts: [
        "§2 test ground truth (`x[mask]`, `x.nonzero()`, `one_hot(ind)`, `repeat_interleave(x, repeats)`)",
        "§2 op table: `nonzero`, `unique`, `bincount`, `histc`, `multinomial`, `one_hot`, `torch.equal`",
        "§4 `nonzero` / `unique` graph-break",
      ],
    },
  },
  create(context) {
    const evidenceOf = (node: SyntaxNode) => context.analysis.tensorEvidence(node);

    function report(node: SyntaxNode, subject: SyntaxNode | undefined, alternative: string, allowUnknown: boolean, range?: { start: number; end: number }, messageId = "shape"): void {
      const evidence = subject ? evidenceOf(subject) : { kind: "tensor" as const, reason: "a torch operation" };
      if (!mayBeGpuTensor(evidence, context, allowUnknown)) return;
      context.report({
        node,
        range,
        messageId,
        data: { expression: shortText(node, context, 50), alternative, assumption: subject ? gpuAssumption(subject, evidence, context) : "" },
        evidence,
      });
    }

    return {
      call(node) {
        const name = calleeName(node, context);
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
          if (operation === "equal" && isTorchFunction === false && positional(node).length !== 1) return;
          return report(node, subject, ALWAYS_SYNCING.get(operation)!, allowUnknown, range, operation === "equal" ? "check" : "shape");
        }
        if (operation === "where" && isTorchFunction && positional(node).length === 1 && !keyword(node, "input", context))
          return report(node, subject, "use the 3-argument `torch.where(cond, a, b)` or `nonzero_static`", true);
        if (operation === "repeat_interleave" && !keyword(node, "output_size", context)) {
          const args = positional(node);
          const repeats = keyword(node, "repeats", context) ?? (isTorchFunction ? args[1] : args[0]);
          if (!repeats || !isTensorEvidence(evidenceOf(repeats), context)) return;
          return report(node, subject, "pass `output_size=` when the total is known", true, range);
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
        if (!value || indices.length !== 1) return;
        const mask = indices[0];
        if (!isBooleanMask(mask, context)) return;
        const owner = evidenceOf(value);
        if (!(isTensorEvidence(owner, context) || (owner.kind === "unknown" && context.importsTorch))) return;
        const assignment = node.parent?.type === "assignment" && node.field === "left" ? node.parent : undefined;
        const maskText = shortText(mask, context, 20);
        const valueText = shortText(value, context, 20);
        if (assignment) {
          const assigned = childByField(assignment, "right");
          // `x[mask] = 0.0` dispatches to masked_fill_ and does not sync; a tensor value does.
          if (!assigned || !isTensorEvidence(evidenceOf(assigned), context)) return;
          context.report({ node: assignment, messageId: "maskWrite", data: { expression: shortText(assignment, context, 50), mask: maskText, value: valueText, assumption: gpuAssumption(value, owner, context) }, evidence: owner });
          return;
        }
        // `x[mask] *= 2` reads `x[mask]` (a sync) before writing it back.
        context.report({ node, messageId: "maskRead", data: { expression: shortText(node, context, 50), mask: maskText, value: valueText, assumption: gpuAssumption(value, owner, context) }, evidence: owner, fixes: safeFixes(() => maskedSumFix(node, value, mask, context)) });
      },
    };
  },
};

/** A boolean tensor: a comparison of tensors, `~m`, `m & n`, `isnan(...)`, or a tensor named like a mask. */
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
      return ["&", "|", "^"].includes(node.tokens[0]) && node.children.every((child) => isBooleanMask(child, context, depth + 1));
    case "call": {
      const call = methodCall(node, context);
      const name = context.analysis.evidence.qualifiedName(childByField(node, "function")!) ?? "";
      const operation = call?.method ?? name.slice(name.lastIndexOf(".") + 1);
      return BOOLEAN_OPERATION.test(operation);
    }
    case "identifier": {
      if (MASK_NAME.test(context.text(node))) return true;
      // `above = out > threshold` ... `out[above]`
      const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
      return binding?.kind === "assign" && !!binding.value && binding.unpackPath.length === 0 && depth < 4 && isBooleanMask(binding.value, context, depth + 1);
    }
    case "attribute": {
      const text = context.text(node);
      return MASK_NAME.test(text.slice(text.lastIndexOf(".") + 1));
    }
    default:
      return false;
  }
}

/**
 * `x[mask].sum()` → `torch.where(mask, x, 0).sum()`, only when `mask` provably has the shape of `x`: it is
 * `x <op> c` (or a name bound once to that, with `x` not rebound in between) for a number `c`. A mask of
 * another shape (rows of a matrix) would broadcast differently, so no fix is offered for it.
 */
function maskedSumFix(subscript: SyntaxNode, value: SyntaxNode, mask: SyntaxNode, context: RuleContext): Fix[] {
  const attribute = subscript.parent;
  if (attribute?.type !== "attribute" || subscript.field !== "object" || context.text(childByField(attribute, "attribute")!) !== "sum") return [];
  const call = attribute.parent;
  if (call?.type !== "call" || attribute.field !== "function" || (childByField(call, "arguments")?.children.length ?? 1) !== 0) return [];
  const x = unparenthesized(value);
  if (x.type !== "identifier") return [];
  if (!maskShapedLike(mask, x, context)) return [];
  const edits = [{ start: call.start, end: call.end, text: `torch.where(${context.text(mask)}, ${context.text(x)}, 0).sum()` }];
  const torchImport = ensureTorchImport(context.analysis.source.text, context.analysis.tree.root);
  if (torchImport) edits.push(torchImport);
  // Not a safe fix: for floating-point `x` the additions happen in another order, so the sum may differ in
  // the last bits (the equivalence suite measured it); integers give the same sum.
  return [{ title: "Sum with `torch.where(mask, x, 0)` instead of selecting", safe: false, edits }];
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
      if (new RegExp(`\\b(global|nonlocal)\\s+([\\w\\s,]*,\\s*)?${name}\\b`).test(text)) continue;
      const edit = classes ? { start: classes.start, end: classes.end, text: name } : addKeywordArgument(call, `num_classes=${name}`);
      if (!edit) return [];
      return [{ title: `Pass \`num_classes=${name}\` to \`one_hot\``, safe: false, edits: [edit] }];
    }
  }
  return [];
}
