import type { Rule } from "../rule";
import { SyntaxNode } from "../syntax";
import { calleeName, keyword, methodCall, positional, shortText } from "./support";

/** Host-to-device copies that block: `.to(device)`/`.cuda()` without `non_blocking=True`, `torch.tensor(..., device=)`. */
export const blockingHostToDevice: Rule = {
  meta: {
    name: "blocking-host-to-device",
    code: "SYN201",
    category: "host-device transfer",
    defaultSeverity: "warning",
    description: "`.to(device)`/`.cuda()` without `non_blocking=True`, `torch.tensor(..., device=...)`, `x.new_tensor(...)` or `torch.as_tensor(host_data, device=...)` in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    messages: {
      copy: "`{{expression}}` {{where}} copies host memory to the GPU and blocks until the copy and all queued work finish, {{frequency}}; pass `non_blocking=True` (with a pinned source).",
      build: "`{{expression}}` {{where}} builds a tensor on the host and copies it to the GPU with a blocking copy, {{frequency}}; {{alternative}}.",
    },
    mechanism: [
      "**Host tensor** — the data is (or is first built as) a tensor in pageable host memory.",
      "**Blocking copy** — with `non_blocking=False` the host-to-device copy goes through `memcpy_and_sync`: `cudaMemcpyAsync` followed by `cudaStreamSynchronize`, so the host waits for every kernel already queued on the stream, plus the copy.",
    ],
    docs: {
      why:
        "A host-to-device copy with the default `non_blocking=False` waits for every kernel already queued on the current stream and then for the copy. " +
        "With a pinned source (`DataLoader(pin_memory=True)`) and `non_blocking=True`, the copy is queued and the host moves on; stream order keeps it safe for later kernels. " +
        "`torch.tensor(data, device=...)` always builds the tensor on the host first and copies it with a blocking copy.",
      example: ["for x, y in loader:", "    x = x.to(device)", "    weight = torch.tensor([0.3, 0.7], device=device)", "    loss = criterion(model(x), y.cuda(), weight=weight)"].join("\n"),
      useInstead: [
        "weight = torch.tensor([0.3, 0.7], device=device)  # once, before the loop",
        "for x, y in loader:  # DataLoader(..., pin_memory=True)",
        "    x = x.to(device, non_blocking=True)",
        "    loss = criterion(model(x), y.cuda(non_blocking=True), weight=weight)",
      ].join("\n"),
      fixSafety:
        "`non_blocking=True` on a copy to the GPU is safe: later kernels on the same stream see the data. " +
        "Hoisting a constant `torch.tensor(...)` out of the loop is safe when its arguments do not change inside it.",
      facts: ["§3 blocking copies wait for the whole stream", "§3 pinned source with `non_blocking=True`", "§2 op table: `torch.tensor(data, device='cuda')`"],
    },
  },
  create(context) {
    const evidence = context.analysis.evidence;

    /**
     * Is the receiver host memory? Batches and CPU tensors are; a value without evidence counts only inside a
     * loop (where it is usually a batch), not in `forward`, where `.to(x.device)` is usually a no-op.
     */
    function isHostData(node: SyntaxNode, receiver: SyntaxNode): boolean {
      const kind = context.analysis.tensorEvidence(receiver).kind;
      if (kind === "cpu" || kind === "batch" || kind === "numpy") return true;
      if (kind === "unknown" || kind === "tensor") return context.importsTorch && !!context.analysis.contextOf(node).loop;
      return false;
    }

    function reportCopy(node: SyntaxNode, range: { start: number; end: number }): void {
      context.report({ node, range, messageId: "copy", data: { expression: shortText(node, context, 50) } });
    }

    return {
      call(node) {
        const call = methodCall(node, context);
        if (call && (call.method === "to" || call.method === "cuda")) {
          if (keyword(node, "non_blocking", context)) return; // True, or a value the user controls
          if (call.method === "to") {
            const target = evidence.deviceArgument(node);
            if (!target || evidence.deviceOf(target) !== "gpu") return;
          } else if (positional(node).length > 1) return;
          if (!isHostData(node, call.receiver)) return;
          return reportCopy(node, call.range);
        }
        if (call && call.method === "new_tensor") {
          const owner = context.analysis.tensorEvidence(call.receiver).kind;
          if (owner === "cpu" || owner === "batch" || owner === "numpy") return;
          context.report({ node, range: call.range, messageId: "build", data: { expression: shortText(node, context, 50), alternative: "create it once in `__init__` (a registered buffer) or multiply by a Python scalar" } });
          return;
        }
        const name = calleeName(node, context);
        if (name !== "torch.tensor" && name !== "torch.as_tensor") return;
        const device = keyword(node, "device", context);
        if (!device || evidence.deviceOf(device) !== "gpu") return;
        if (name === "torch.as_tensor") {
          const [data] = positional(node);
          const kind = data ? context.analysis.tensorEvidence(data).kind : "unknown";
          if (kind === "gpu" || kind === "tensor") return; // already a tensor: no host copy
        }
        context.report({ node, messageId: "build", data: { expression: shortText(node, context, 50), alternative: "build it once before the loop, or use `torch.full`/`torch.zeros(..., device=...)`" } });
      },
    };
  },
};
