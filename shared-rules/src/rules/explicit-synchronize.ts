import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { STREAM_OR_EVENT_NAME } from "../analysis/names";
import { resolveBinding, scopeOf } from "../analysis/scopes";
import { calleeName, keyword, methodCall, shortText } from "./support";
import type { RuleContext } from "../rule";

const DEVICE_SYNCHRONIZE = /^torch\.(cuda|xpu|mps|accelerator|npu)\.synchronize$/;
const EMPTY_CACHE = /^torch\.cuda(\.memory)?\.empty_cache$/;
const BARRIER = /^torch\.distributed(\.distributed_c10d)?\.barrier$/;
const STREAM_OR_EVENT_FACTORY = /^torch\.(cuda\.)?(Event|Stream|current_stream|default_stream|cuda\.Event|cuda\.Stream)$|^torch\.cuda\.(current_stream|default_stream)$/;

/** `torch.cuda.synchronize()`, `stream.synchronize()`, `event.synchronize()` on a path that runs every step. */
export const explicitSynchronize: Rule = {
  meta: {
    name: "explicit-synchronize",
    code: "SYN106",
    category: "host read",
    defaultSeverity: "warning",
    description: "`torch.cuda.synchronize()`, `stream.synchronize()`, `event.synchronize()`, `torch.cuda.empty_cache()` or `torch.distributed.barrier()` in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    fixable: false,
    hasSuggestions: false,
    messages: {
      device: "`{{expression}}` {{where}} blocks until every stream on the device is idle, {{frequency}}.",
      stream: "`{{expression}}` {{where}} blocks until the {{what}} completes, {{frequency}}.",
      barrier:
        "`{{expression}}` {{where}} waits until every process reaches it and, with the NCCL backend, until the work queued on the current stream completes (`cudaStreamSynchronize`), {{frequency}}; keep barriers for set-up and checkpoints, where the processes must meet on the host.",
      emptyCache:
        "`{{expression}}` {{where}} gives the allocator's cached blocks back to CUDA with `cudaFree`, which may wait for the GPU, and the next step allocates them again with `cudaMalloc`, {{frequency}}; call it once, outside the loop, if at all.",
    },
    mechanism: [
      "**Device** — `torch.cuda.synchronize()` is `cudaDeviceSynchronize`: the host waits for every stream of the device, not just the current one.",
      "**Stream / event** — `Stream.synchronize()` is `cudaStreamSynchronize`, `Event.synchronize()` is `cudaEventSynchronize`: the host waits for that stream or up to that event.",
      "**Not in debug mode** — `torch.cuda.set_sync_debug_mode` does not report `torch.cuda.synchronize()` or `Event.synchronize()`.",
      "**Barrier** — with NCCL, `dist.barrier()` all-reduces a one-element tensor and waits for it with `cudaStreamSynchronize` on the current stream, so the host waits for the GPU and for the slowest process.",
      "**Emptying the cache** — `torch.cuda.empty_cache()` waits on the events still outstanding for blocks used on other streams (`cudaEventSynchronize`), then `cudaFree`s every cached block that is not split, which may synchronize implicitly; with expandable segments it synchronizes the segment's stream before unmapping free pages.",
    ],
    docs: {
      why:
        "An explicit synchronize stops the host until the GPU catches up, so the host cannot queue the next step's work meanwhile. " +
        "Outside of timing code it is rarely needed: ordering between streams can be expressed on the device with `wait_stream`/`wait_event`. " +
        "`torch.cuda.empty_cache()` on every step frees the blocks the last step cached, waiting for the GPU when it does, and makes the next step allocate them again. " +
        "It lets no step fit that would not fit otherwise: when `cudaMalloc` fails, the allocator frees its cached blocks and retries by itself; what `empty_cache` gives back helps only memory allocated outside PyTorch (another process, a library's own allocator).",
      example: ["for batch in loader:", "    loss = step(batch)", "    torch.cuda.synchronize()"].join("\n"),
      useInstead: ["side = torch.cuda.Stream()", "for batch in loader:", "    with torch.cuda.stream(side):", "        loss = step(batch)", "    torch.cuda.current_stream().wait_stream(side)  # ordering on the device, no host wait"].join("\n"),
      fixSafety: "Removing a synchronize can change timing measurements and host-side reads that relied on it; no automatic fix is offered.",
      facts: ["§2 op table: `torch.cuda.synchronize()`, `Stream.synchronize()`, `Event.synchronize()`", "§2 what sync debug mode does not see", "§7 `torch.cuda.empty_cache()` waits for the GPU whenever it has something to give back", "§7 `torch.distributed.barrier()` with NCCL waits for the current stream"],
    },
  },
  create(context) {
    /** A stream or an event: made by `torch.cuda.Event(...)`/`Stream(...)`, or named like one. */
    function isStreamOrEvent(receiver: SyntaxNode, ctx: RuleContext): string | undefined {
      const node = unparenthesized(receiver);
      if (node.type === "call") {
        const name = calleeName(node, ctx) ?? "";
        return STREAM_OR_EVENT_FACTORY.test(name) ? "stream" : undefined;
      }
      if (node.type === "identifier") {
        const binding = resolveBinding(ctx.text(node), node.start, scopeOf(node, ctx.analysis.scopes));
        const value = binding?.kind === "assign" ? binding.value : undefined;
        if (value?.type === "call") {
          const name = calleeName(value, ctx) ?? "";
          if (/Event$/.test(name)) return "event";
          if (STREAM_OR_EVENT_FACTORY.test(name)) return "stream";
        }
      }
      const text = ctx.text(node);
      if (!STREAM_OR_EVENT_NAME.test(text.slice(text.lastIndexOf(".") + 1))) return undefined;
      return /event|evt|^start|^end|^stop/i.test(text) ? "event" : "stream";
    }

    /**
     * `synchronize = torch.cuda.synchronize if device_type == "cuda" else lambda: None`: a name bound to the
     * device synchronize (on either side of a conditional, the other side a no-op for CPU runs).
     */
    function aliasesDeviceSynchronize(callee: SyntaxNode): boolean {
      if (callee.type !== "identifier") return false;
      const binding = resolveBinding(context.text(callee), callee.start, scopeOf(callee, context.analysis.scopes));
      const value = binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value && unparenthesized(binding.value) : undefined;
      if (!value) return false;
      const candidates = value.type === "conditional_expression" ? [value.children[0], value.children[2]] : [value];
      return candidates.some((candidate) => {
        const name = candidate && candidate.type === "attribute" ? context.analysis.evidence.qualifiedName(candidate) : undefined;
        return !!name && DEVICE_SYNCHRONIZE.test(name);
      });
    }

    /** `dist.barrier(async_op=True)` returns a work handle; the wait comes where it is waited on. */
    function asyncOperation(call: SyntaxNode): boolean {
      const value = keyword(call, "async_op", context);
      return !!value && context.text(value) !== "False";
    }

    return {
      call(node) {
        const name = calleeName(node, context);
        if (name && EMPTY_CACHE.test(name)) {
          context.report({ node, messageId: "emptyCache", data: { expression: shortText(node, context) } });
          return;
        }
        if (name && BARRIER.test(name) && !asyncOperation(node)) {
          context.report({ node, messageId: "barrier", data: { expression: shortText(node, context) } });
          return;
        }
        if ((name && DEVICE_SYNCHRONIZE.test(name)) || aliasesDeviceSynchronize(childByField(node, "function")!)) {
          context.report({ node, messageId: "device", data: { expression: shortText(node, context) } });
          return;
        }
        const call = methodCall(node, context);
        if (!call || call.method !== "synchronize" || childByField(node, "arguments")?.children.length) return;
        const what = isStreamOrEvent(call.receiver, context);
        if (!what) return;
        context.report({ node, range: call.range, messageId: "stream", data: { expression: shortText(node, context), what: what === "event" ? "work recorded before the event" : "work queued on the stream" } });
      },
    };
  },
};
