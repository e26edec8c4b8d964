import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { LOGGER_NAME, LOGGING_METHOD, lastName } from "../analysis/names";
import { addScalarValue, argumentList, calleeName, gpuAssumption, isTensorEvidence, methodCall, positional, shortText } from "./support";
import { safeFixes } from "../fixes/edits";
import { batchedTensorLoggingFix } from "../fixes/batched-logging";

const FORMATTING_BUILTINS = new Set(["print", "str", "repr", "format"]);

/** A GPU tensor formatted as text on the host: `print(t)`, f-strings, `%`, `.format`, loggers, progress bars. */
export const tensorFormatting: Rule = {
  meta: {
    name: "tensor-formatting",
    code: "SYN104",
    category: "host read",
    defaultSeverity: "warning",
    description: "A GPU tensor formatted on the host (`print(t)`, `f\"{t}\"`, `%`, `.format`, logging, `set_postfix`, `add_scalar`) in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    fixable: false,
    hasSuggestions: true,
    messages: {
      format: "`{{expression}}` {{where}} formats a GPU tensor as text, which waits for the GPU {{frequency}}{{assumption}}.",
      scalar: "`{{expression}}` {{where}} logs a GPU tensor; `add_scalar` converts it with `.cpu().numpy()` and waits for the GPU {{frequency}}{{assumption}}.",
    },
    mechanism: [
      "**Formatting** — `Tensor.__format__` on a 0-dim tensor returns `self.item().__format__(spec)`; other tensors go through `str()`, whose formatter runs `masked_select` and element `.item()`/`.tolist()` calls.",
      "**Copy and wait** — each of those copies to the host and calls `cudaStreamSynchronize`: several syncs per formatted tensor.",
    ],
    docs: {
      why:
        "Turning a tensor into text needs its values on the host. `print(t)` runs `masked_select` (through `nonzero`) and element reads; " +
        "an f-string of a 0-dim tensor calls `.item()`; TensorBoard's `add_scalar` calls `.cpu().numpy()`. Each waits for the GPU.",
      example: ["for step, batch in enumerate(loader):", "    loss = model(batch).mean()", "    loss.backward()", '    print(f"step {step}: {loss:.4f}")'].join("\n"),
      useInstead: [
        "for step, batch in enumerate(loader):",
        "    loss = model(batch).mean()",
        "    loss.backward()",
        "    if step % log_every == 0:",
        '        print(f"step {step}: {loss.item():.4f}")  # one sync per log_every steps',
      ].join("\n"),
      fixSafety:
        "An f-string field with a format spec (`f\"{loss:.4f}\"`, which formats `loss.item()`) or `add_scalar(tag, loss, step)` of a loss or a count in a log call " +
        "of a `for` step loop gets `item-in-hot-path`'s batched-logging suggestion: the value is summed on the device and, every `log_every` steps and once after " +
        "the loop, the sum over the steps since the last report is logged with the same format. `print(t)`, `f\"{t}\"` and `set_postfix(loss=t)` show the tensor's " +
        "own text (`tensor(...)`), which a sum would change: no fix. Logging less often changes what is logged, never what is computed.",
      facts: ["§1 `print(t)` / `str` / `repr` and f-strings", "§2 op table: `print`, `str`, f-string of a tensor", "§5 (j) and (l): printing and `add_scalar` sync"],
    },
  },
  create(context) {
    function reportTensor(node: SyntaxNode, subject: SyntaxNode, messageId = "format"): void {
      const evidence = context.analysis.tensorEvidence(subject);
      if (!isTensorEvidence(evidence, context)) return;
      context.report({
        node,
        messageId,
        data: { expression: shortText(node, context, 50), assumption: gpuAssumption(subject, evidence, context) },
        evidence,
        fixes: safeFixes(() => batchedTensorLoggingFix(subject, context)),
      });
    }

    /** Values of arguments, excluding strings (an f-string argument is reported at its interpolations). */
    function reportArguments(call: SyntaxNode, values: SyntaxNode[]): void {
      for (const value of values) {
        const inner = unparenthesized(value);
        if (inner.type === "dictionary") {
          for (const pair of inner.children) {
            const item = childByField(pair, "value");
            if (item) reportTensor(item, item);
          }
        } else if (inner.type === "list_splat" && inner.children[0]) {
          // `"%g %g %g" % (*losses,)`: each element of the tensor is formatted.
          reportTensor(inner, inner.children[0]);
        } else reportTensor(inner, inner);
      }
      void call;
    }

    const keywordValues = (call: SyntaxNode) =>
      argumentList(call).filter((a) => a.type === "keyword_argument").map((a) => childByField(a, "value")).filter((v): v is SyntaxNode => !!v);

    return {
      interpolation(node) {
        const expression = childByField(node, "expression") ?? node.children[0];
        if (expression) reportTensor(node, expression);
      },
      binary_operator(node) {
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        if (node.tokens[0] !== "%" || !left || !right) return;
        if (!isFormatString(left)) return;
        const values = unparenthesized(right);
        reportArguments(node, values.type === "tuple" ? values.children : [values]);
      },
      call(node) {
        const name = calleeName(node, context);
        if (name && FORMATTING_BUILTINS.has(name)) return reportArguments(node, positional(node));
        const call = methodCall(node, context);
        if (!call) return;
        const receiver = unparenthesized(call.receiver);
        if (call.method === "format" && (receiver.type === "string" || receiver.type === "concatenated_string"))
          return reportArguments(node, [...positional(node), ...keywordValues(node)]);
        if (LOGGING_METHOD.test(call.method) && LOGGER_NAME.test(lastName(context.text(receiver))))
          return reportArguments(node, positional(node));
        if (call.method === "set_postfix" || call.method === "set_postfix_str" || call.method === "set_description")
          return reportArguments(node, [...positional(node), ...keywordValues(node)]);
        if (call.method === "add_scalar") {
          const subject = addScalarValue(node, context);
          if (subject) reportTensor(subject, subject, "scalar");
        }
        // `add_scalars(tag, {"train": loss}, step)`: each value goes through `make_np`, as `add_scalar`'s does.
        if (call.method === "add_scalars") {
          const values = positional(node)[1];
          if (values && unparenthesized(values).type === "dictionary")
            for (const pair of unparenthesized(values).children) {
              const item = childByField(pair, "value");
              if (item) reportTensor(item, item, "scalar");
            }
        }
      },
    };
  },
};

/** A string literal, or one built with `+` and `*` (`"%11s" * 2 + "%11.4g" * 5`): the left side of `%` formatting. */
function isFormatString(raw: SyntaxNode): boolean {
  const node = unparenthesized(raw);
  if (node.type === "string" || node.type === "concatenated_string") return true;
  if (node.type !== "binary_operator") return false;
  const left = childByField(node, "left");
  const right = childByField(node, "right");
  if (!left || !right) return false;
  if (node.tokens[0] === "+") return isFormatString(left) && isFormatString(right);
  if (node.tokens[0] === "*") return isFormatString(left) || isFormatString(right);
  return false;
}
