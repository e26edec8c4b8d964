import type { Rule } from "../rule";
import { positional, gpuAssumption, mayBeGpuTensor, methodCall, shortText } from "./support";

/** `.item()` on a tensor that may live on a GPU, on a path that runs every step. */
export const itemInHotPath: Rule = {
  meta: {
    name: "item-in-hot-path",
    code: "SYN101",
    category: "host read",
    defaultSeverity: "warning",
    description: "`.item()` on a GPU tensor in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: true,
    messages: {
      item: "`{{expression}}.item()` {{where}} waits for the GPU {{frequency}}{{assumption}}.",
    },
    mechanism: [
      "**Python call** — the binding checks the tensor handle (one element, `numel() == 1`) and releases the GIL.",
      "**Device and stream** — it selects the tensor's device and that device's *current* CUDA stream.",
      "**Copy and wait** — `_local_scalar_dense_cuda` copies the element into a pinned host buffer with `cudaMemcpyAsync` and then calls `cudaStreamSynchronize`: this Python thread blocks until every kernel already queued on that stream has finished.",
      "**Boxing** — the bytes become a Python `float`, `int` or `bool`.",
    ],
    docs: {
      why:
        "`.item()` copies one element to the host and then waits on the tensor's current CUDA stream until every kernel queued before it has run. " +
        "The cost is not the copy: it is the time until the stream drains, so an `.item()` right after `loss.backward()` costs the whole backward pass, " +
        "and the CPU cannot queue the next step's kernels meanwhile. Under `torch.compile` with default settings it is a graph break, " +
        "and inside a CUDA-graph capture it is an error.",
      example: [
        "for step, (x, y) in enumerate(loader):",
        "    loss = criterion(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))",
        "    loss.backward()",
        "    optimizer.step()",
        "    running_loss += loss.item()",
      ].join("\n"),
      useInstead: [
        "running_loss = torch.zeros((), device=device)",
        "for step, (x, y) in enumerate(loader):",
        "    loss = criterion(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))",
        "    loss.backward()",
        "    optimizer.step()",
        "    running_loss += loss.detach()",
        "    if (step + 1) % log_every == 0:",
        "        print(running_loss.item() / log_every)  # one sync per log_every steps",
        "        running_loss.zero_()",
      ].join("\n"),
      fixSafety:
        "Moving the read to a logging interval changes how often values are printed, never what the model computes; " +
        "it is offered as a suggestion, not applied by `--fix`.",
      facts: [
        "§1 `t.item()` (`memcpy_and_sync`, `CUDAScalar.cu`)",
        "§4 `.item()` breaks the graph by default",
        "§4 CUDA graphs: syncs are prohibited during capture",
        "§5 (c): the cost is the time until the stream drains",
      ],
    },
  },
  create(context) {
    return {
      call(node) {
        const call = methodCall(node, context);
        if (!call || call.method !== "item" || positional(node).length > 0) return;
        const evidence = context.analysis.tensorEvidence(call.receiver);
        if (!mayBeGpuTensor(evidence, context, true)) return;
        context.report({
          node,
          range: call.range,
          messageId: "item",
          data: { expression: shortText(call.receiver, context), assumption: gpuAssumption(call.receiver, evidence, context) },
          evidence,
        });
      },
    };
  },
};
