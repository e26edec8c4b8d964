import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { resolveBinding, scopeOf } from "../analysis/scopes";
import { calleeName, isTensorEvidence, keyword, methodCall, positional, shortText } from "./support";
import { isNumberLiteral } from "../fixes/facts";

/** NumPy functions that return an array of indices (or of values usable as indices), never a scalar. */
const NUMPY_ARRAY = /^numpy\.(arange|nonzero|flatnonzero|argsort|concatenate|stack|hstack|vstack|repeat|tile|unique|sort|random\.permutation)$/;
/** NumPy samplers that return an array when given a size (`np.random.choice(n, 64)`), a scalar otherwise. */
const NUMPY_SAMPLE = /^numpy\.random\.(choice|randint)$/;
/** torch functions that build an index tensor on the host unless given `device=`. */
const TORCH_RANGE = /^torch\.(arange|randperm|randint)$/;
/** Conversions to a tensor on the host: an index when what they convert is a sequence (`torch.tensor(3)` is a plain integer index). */
const TORCH_FROM_DATA = /^torch\.(tensor|as_tensor|from_numpy|LongTensor|IntTensor)$|^numpy\.(array|asarray|ascontiguousarray)$/;
/** An index drawn from a data loader: collated batches are CPU tensors (unless the loader is told otherwise). */
const LOADER_BATCH = "a batch from a data loader (a CPU tensor)";
/** Methods that keep a tensor where it is (a dtype change, a view). */
const SAME_DEVICE_METHOD = /^(long|int|view|reshape|flatten|squeeze|unsqueeze|contiguous|clone|detach|ravel|astype|copy)$/;

/**
 * `x[idx]` where `x` is on a GPU and `idx` is built on the host: a NumPy array, a Python list of integers, a
 * `range`, or a CPU tensor (`torch.arange(n)` without `device=`). Indexing copies the index to the GPU first.
 */
export const hostIndex: Rule = {
  meta: {
    name: "host-index",
    code: "SYN203",
    category: "host-device transfer",
    defaultSeverity: "warning",
    description: "A GPU tensor indexed with a NumPy array, a Python list or `range`, a CPU tensor (`torch.arange(n)` without `device=`), or a batch of a `DataLoader` (`for perm in DataLoader(range(n), 64): edges[perm]`) in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    fixable: false,
    hasSuggestions: false,
    messages: {
      hostIndex: "`{{expression}}` {{where}} indexes a GPU tensor with {{index}}, which is copied to the GPU with a blocking copy first, {{frequency}}{{assumption}}; build the index on the device (`device=`), or move it there once and reuse it.",
    },
    mechanism: [
      "**Host index** — a NumPy array, a list or a `range` in an index is turned into a long tensor on the host (`sequenceToVariable` → `indexing_tensor_from_data` in `python_variable_indexing.cpp`); a CPU tensor is one already.",
      "**Blocking copy** — the index is moved to the indexed tensor's device with `non_blocking=False` (`internal_new_from_data` in `tensor_new.cpp`; for a CPU tensor, the indexing kernel's `index.to(self.device())`): the host waits for the work queued on the stream, then for the copy.",
    ],
    docs: {
      why:
        "Advanced indexing needs its index on the device of the indexed tensor. An index built on the host (a NumPy array of minibatch indices, " +
        "`torch.arange(n)` without `device=`, a list such as `[0, 2]`) is copied there with a blocking host-to-device copy before the gather or scatter runs, " +
        "every time the line runs: the host waits for every kernel already queued. " +
        "Built on the device (`torch.arange(n, device=x.device)`, `torch.randperm(n, device=x.device)`), or moved there once outside the loop, the index costs no wait.",
      example: ["b_inds = np.arange(batch_size)", "for epoch in range(update_epochs):", "    np.random.shuffle(b_inds)", "    for start in range(0, batch_size, minibatch_size):", "        mb_inds = b_inds[start:start + minibatch_size]", "        loss = agent.loss(b_obs[mb_inds], b_actions[mb_inds])"].join("\n"),
      useInstead: ["for epoch in range(update_epochs):", "    b_inds = torch.randperm(batch_size, device=b_obs.device)", "    for start in range(0, batch_size, minibatch_size):", "        mb_inds = b_inds[start:start + minibatch_size]", "        loss = agent.loss(b_obs[mb_inds], b_actions[mb_inds])"].join("\n"),
      fixSafety: "No automatic fix: where the index should be built (and whether the host still needs it, for a replay buffer or an environment) is the program's choice.",
      facts: ["§2 op table: `x[idx_cpu]`", "§2 test ground truth (`x[ind_cpu]`, `x[ind_cpu]=y`)", "§7 a NumPy array, a list or a `range` index is built on the host and copied with a blocking copy"],
    },
  },
  create(context) {
    /** What a host-built index is, for the message (`a NumPy array`), or undefined when it is not one. */
    function hostIndexKind(raw: SyntaxNode, depth = 0): string | undefined {
      const node = unparenthesized(raw);
      if (depth > 8) return undefined;
      switch (node.type) {
        case "list":
          return node.children.length > 0 && node.children.every((element) => isNumberLiteral(element, true)) ? "a Python list" : undefined;
        case "identifier": {
          const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
          // `for perm in DataLoader(range(n), batch_size):` yields CPU tensors of indices.
          if (binding?.kind === "for" && context.analysis.tensorEvidence(node).kind === "batch") return LOADER_BATCH;
          const value = binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
          if (value && unparenthesized(value).type === "list" && unparenthesized(value).children.length === 0)
            return appendsNumbers(context.text(node), binding!.node) ? "a Python list" : undefined;
          return value && hostIndexKind(value, depth + 1);
        }
        case "binary_operator": {
          // `(q_coords - k_coords) + (k_size - 1)` of `torch.arange(q_size)`: arithmetic of a host index with
          // numbers or other host indices is computed on the host.
          const operands = node.children.map((operand) => ({ operand, kind: hostIndexKind(operand, depth + 1) }));
          const host = operands.find((each) => each.kind);
          const onHost = (each: { operand: SyntaxNode; kind?: string }) => !!each.kind || ["scalar", "numpy"].includes(context.analysis.tensorEvidence(each.operand).kind);
          return host && operands.every(onHost) ? host.kind : undefined;
        }
        case "subscript": {
          // A slice of an index array is an index array: `b_inds[start:end]`, `coords[:, None]`; so is what an index
          // array picks of one (`flatinds[:, mbenvinds]`), not one element (`b_inds[0]`, a number).
          const indices = node.children.filter((child) => child.field === "subscript");
          const value = childByField(node, "value");
          const keepsArray = (index: SyntaxNode) => index.type === "slice" || index.type === "none" || index.type === "ellipsis" || !!hostIndexKind(index, depth + 1);
          return value && indices.length > 0 && indices.every(keepsArray) ? hostIndexKind(value, depth + 1) : undefined;
        }
        case "call": {
          const name = calleeName(node, context) ?? "";
          if (name === "range") return "a `range`";
          if (NUMPY_ARRAY.test(name)) return "a NumPy array";
          const args = positional(node);
          if (NUMPY_SAMPLE.test(name)) return args.length >= (name.endsWith("choice") ? 2 : 3) || keyword(node, "size", context) ? "a NumPy array" : undefined;
          const onHost = !keyword(node, "device", context) && !context.analysis.defaultDeviceChanged;
          const cpuTensor = `a CPU tensor (\`${shortText(node, context, 30)}\` has no \`device=\`)`;
          if (TORCH_RANGE.test(name)) return onHost ? cpuTensor : undefined;
          if (TORCH_FROM_DATA.test(name)) {
            const data = args[0] && unparenthesized(args[0]);
            const sequence = !!data && (data.type === "list" || data.type === "list_comprehension" || data.type === "tuple" || !!hostIndexKind(data, depth + 1));
            if (!sequence || !onHost) return undefined;
            return name.startsWith("numpy.") ? "a NumPy array" : cpuTensor;
          }
          const call = methodCall(node, context);
          return call && SAME_DEVICE_METHOD.test(call.method) ? hostIndexKind(call.receiver, depth + 1) : undefined;
        }
        default:
          return undefined;
      }
    }

    /**
     * `letter_ids = []`, then `letter_ids.append(cache[letter])`: a list of Python numbers, when everything appended
     * to it in the scope of the binding is a number (an integer, or what a Python container holds).
     */
    function appendsNumbers(name: string, bound: SyntaxNode): boolean {
      const scope = scopeOf(bound, context.analysis.scopes).node;
      let appended = 0;
      let numbers = true;
      const stack = [scope];
      while (stack.length > 0 && numbers) {
        const current = stack.pop()!;
        if (current !== scope && (current.type === "function_definition" || current.type === "class_definition")) continue;
        for (let i = 0; i < current.children.length; i++) stack.push(current.children[i]);
        const call = current.type === "call" ? methodCall(current, context) : undefined;
        if (!call || context.text(call.receiver) !== name) continue;
        // Another way in (`extend`, `insert`, `+=`) may bring anything.
        if (call.method !== "append") {
          numbers = !/^(extend|insert)$/.test(call.method);
          continue;
        }
        const [item] = positional(current);
        const kind = item ? context.analysis.tensorEvidence(item).kind : "unknown";
        appended++;
        numbers = kind === "scalar" || (kind === "unknown" && unparenthesized(item!).type === "subscript" && !isTensorEvidence(context.analysis.tensorEvidence(childByField(unparenthesized(item!), "value")!), context));
      }
      return numbers && appended > 0;
    }

    return {
      subscript(node) {
        const value = childByField(node, "value");
        if (!value) return;
        for (const index of node.children) {
          if (index.field !== "subscript" || index.type === "slice") continue;
          const kind = hostIndexKind(index);
          if (!kind) continue;
          const evidence = context.analysis.tensorEvidence(value);
          if (!isTensorEvidence(evidence, context)) return;
          // A loader's batch indexes only what is known to be on a GPU: batches are also lists, dicts and strings.
          if (kind === LOADER_BATCH && evidence.kind !== "gpu") return;
          const named = unparenthesized(index).type === "identifier" ? `\`${context.text(index)}\`, ` : "";
          const assumption = evidence.kind === "gpu" ? "" : ` (if \`${shortText(value, context, 30)}\` is on a GPU)`;
          context.report({ node, messageId: "hostIndex", data: { expression: shortText(node, context, 50), index: named + kind, assumption }, evidence });
          return;
        }
      },
    };
  },
};
