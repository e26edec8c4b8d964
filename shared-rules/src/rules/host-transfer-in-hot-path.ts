import type { Rule } from "../rule";
import { SyntaxNode } from "../syntax";
import { calleeName, gpuAssumption, isTrueLiteral, keyword, mayBeGpuTensor, methodCall, positional, shortText } from "./support";

/** Copies of a GPU tensor to host memory (`.cpu()`, `.tolist()`, `np.array(t)`) on a path that runs every step. */
export const hostTransferInHotPath: Rule = {
  meta: {
    name: "host-transfer-in-hot-path",
    code: "SYN102",
    category: "host-device transfer",
    defaultSeverity: "warning",
    description: "`.cpu()`, `.to(\"cpu\")`, `.tolist()`, `.numpy(force=True)` or `np.array(t)` on a GPU tensor in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    messages: {
      transfer: "`{{expression}}` {{where}} copies a GPU tensor to host memory and waits for the GPU {{frequency}}{{assumption}}.",
      tolist: "`{{expression}}` {{where}} copies a GPU tensor to a Python list and waits for the GPU {{frequency}}{{assumption}}.",
    },
    mechanism: [
      "**Copy** — `_to_copy` allocates a pageable CPU tensor and launches a device-to-host `cudaMemcpyAsync` on the current stream.",
      "**Wait** — with `non_blocking=False` the copy goes through `memcpy_and_sync`: `cudaStreamSynchronize` blocks this thread until all queued work on the stream has finished.",
    ],
    docs: {
      why:
        "A blocking device-to-host copy waits for every kernel queued on the current stream before the bytes arrive, " +
        "so the CPU stops feeding the GPU once per call. Collecting results on the device and copying once after the loop pays that price once.",
      example: [
        "all_preds = []",
        "for images, _ in loader:",
        "    preds = model(images.cuda(non_blocking=True)).argmax(1)",
        "    all_preds.extend(preds.cpu().numpy())",
      ].join("\n"),
      useInstead: [
        "all_preds = []",
        "for images, _ in loader:",
        "    preds = model(images.cuda(non_blocking=True)).argmax(1)",
        "    all_preds.append(preds)",
        "all_preds = torch.cat(all_preds).cpu().numpy()  # one copy, one sync",
      ].join("\n"),
      fixSafety:
        "Collecting on the device keeps the same values but holds them in GPU memory until the loop ends; " +
        "it is a suggestion unless the list is provably used only after the loop.",
      facts: ["§1 `.cpu()` / `.to('cpu')`", "§1 `.tolist()`", "§1 `.numpy()`", "§2 op table: `.cpu()`, `.tolist()`, `.numpy(force=True)`"],
    },
  },
  create(context) {
    /** `.to("cpu")` or `.to(device="cpu")` without `non_blocking=True`. */
    function isBlockingMoveToCpu(call: SyntaxNode): boolean {
      if (isTrueLiteral(keyword(call, "non_blocking", context))) return false;
      const target = keyword(call, "device", context) ?? positional(call)[0];
      return !!target && context.analysis.evidence.deviceOf(target) === "cpu";
    }

    function report(node: SyntaxNode, subject: SyntaxNode, range: { start: number; end: number }, messageId: string, allowUnknown: boolean): void {
      const evidence = context.analysis.tensorEvidence(subject);
      if (!mayBeGpuTensor(evidence, context, allowUnknown)) return;
      context.report({
        node,
        range,
        messageId,
        data: { expression: shortText(node, context, 50), assumption: gpuAssumption(subject, evidence, context) },
        evidence,
      });
    }

    return {
      call(node) {
        const call = methodCall(node, context);
        if (call) {
          if (call.method === "cpu" && positional(node).length === 0) return report(node, call.receiver, call.range, "transfer", true);
          if (call.method === "to" && isBlockingMoveToCpu(node)) return report(node, call.receiver, call.range, "transfer", true);
          if (call.method === "tolist") return report(node, call.receiver, call.range, "tolist", false);
          if (call.method === "numpy" && isTrueLiteral(keyword(node, "force", context))) return report(node, call.receiver, call.range, "transfer", false);
        }
        const name = calleeName(node, context);
        if (name === "numpy.array" || name === "numpy.asarray" || name === "numpy.asanyarray") {
          const [source] = positional(node);
          if (source) report(node, source, { start: node.start, end: node.end }, "transfer", false);
        }
      },
    };
  },
};
