import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { MASK_NAME } from "../analysis/names";
import { calleeName, gpuAssumption, isTensorEvidence, isTrueLiteral, keyword, mayBeGpuTensor, methodCall, positional, shortText } from "./support";
import type { RuleContext } from "../rule";
import { resolveBinding, scopeOf } from "../analysis/scopes";

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
        "`torch.where(mask, x, 0).sum()` equals `x[mask].sum()`. Passing `num_classes`, `output_size` or `min`/`max` is safe when the value is known; " +
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
          return report(node, subject, "pass `num_classes=`", true);
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
        context.report({ node, messageId: "maskRead", data: { expression: shortText(node, context, 50), mask: maskText, value: valueText, assumption: gpuAssumption(value, owner, context) }, evidence: owner });
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
      return /^(isnan|isinf|isfinite|isneginf|isposinf|logical_(and|or|not|xor)|eq|ne|gt|lt|ge|le|bool|isin|signbit)$/.test(operation);
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
