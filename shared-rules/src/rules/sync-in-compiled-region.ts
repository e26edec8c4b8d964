import type { Rule } from "../rule";

/**
 * A sync inside a `torch.compile`d function or a CUDA-graph capture. This rule has no visitor of its own:
 * the engine re-labels other rules' findings that fall in a compiled region (see `lint.ts`), so the
 * detection of each hazard lives in exactly one rule.
 */
export const syncInCompiledRegion: Rule = {
  meta: {
    name: "sync-in-compiled-region",
    code: "SYN301",
    category: "compiled code",
    defaultSeverity: "error",
    description: "A sync inside a `torch.compile`d function (a graph break) or a CUDA-graph capture (an error).",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    fixable: false,
    hasSuggestions: false,
    messages: {
      compiled: "`{{hazard}}` ({{rule}}) {{where}} is a graph break under `torch.compile` with default settings: the function is split and the host waits for the GPU {{frequency}}.",
      graph: "`{{hazard}}` ({{rule}}) {{where}} synchronizes during CUDA-graph capture, which fails with \"operation not permitted when stream is capturing\".",
    },
    mechanism: [
      "**torch.compile** — Dynamo cannot put a host read into the graph (`capture_scalar_outputs` and `capture_dynamic_output_shape_ops` default to False): it breaks the graph, runs the read eagerly and compiles the rest separately.",
      "**CUDA graphs** — ops that synchronize the CPU with the GPU are prohibited while a stream is capturing; the capture fails with `cudaErrorStreamCaptureUnsupported`.",
    ],
    docs: {
      why:
        "Inside `torch.compile`, `.item()`, a data-dependent `if`, `.tolist()` and data-dependent shapes are graph breaks under default settings: " +
        "the compiled function is split, the host waits for the GPU, and the rest runs as separate graphs. " +
        "Inside `torch.cuda.graph(...)` capture any synchronizing operation is prohibited and the capture fails.",
      example: ["@torch.compile", "def clipped_step(x, limit):", "    if x.norm().item() > limit:", "        x = x * (limit / x.norm())", "    return x"].join("\n"),
      useInstead: ["@torch.compile", "def clipped_step(x, limit):", "    norm = x.norm()", "    return torch.where(norm > limit, x * (limit / norm), x)"].join("\n"),
      fixSafety: "The fixes are those of the underlying rule (`item-in-hot-path`, `implicit-host-read`, ...), with the same safety.",
      facts: ["§4 `.item()` breaks the graph by default", "§4 data-dependent `if`", "§4 `nonzero` / `unique`", "§4 CUDA graphs"],
    },
  },
  create() {
    return {};
  },
};
