import type { Rule } from "../rule";
import { SyntaxNode, childByField, unparenthesized } from "../syntax";
import { argumentList, calleeName, gpuAssumption, isTensorEvidence, positional, shortText } from "./support";

const CONVERSIONS = new Set(["bool", "float", "int", "complex"]);

/** A tensor used where Python needs a plain value: a condition, `bool()`/`float()`/`int()`, an index, `max()`. */
export const implicitHostRead: Rule = {
  meta: {
    name: "implicit-host-read",
    code: "SYN103",
    category: "host read",
    defaultSeverity: "warning",
    description: "A GPU tensor used as a Python value (`if t:`, `and`/`or`/`not`, `assert`, `bool()`/`float()`/`int()`, an index, `max()`) in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: true,
    fixable: false,
    hasSuggestions: false,
    messages: {
      condition: "`{{construct}}` {{where}} reads the GPU tensor `{{expression}}` as a Python bool and waits for the GPU {{frequency}}{{assumption}}.",
      conversion: "`{{expression}}` {{where}} converts a GPU tensor to a Python number and waits for the GPU {{frequency}}{{assumption}}.",
      index: "`{{expression}}` {{where}} uses a GPU tensor as a Python index and waits for the GPU {{frequency}}{{assumption}}.",
      compare: "`{{expression}}` {{where}} compares GPU tensors in Python and waits for the GPU {{frequency}}{{assumption}}.",
      nonfinite: "`{{expression}}` {{where}} checks the total norm with a Python `if` (`error_if_nonfinite=True`), which waits for the GPU {{frequency}}; the default `error_if_nonfinite=False` does not sync.",
    },
    mechanism: [
      "**`__bool__` / `__float__` / `__index__`** — Python asks the tensor for a plain value; `at::is_nonzero` and the scalar conversions call `item()`.",
      "**Copy and wait** — `item()` copies the value to pinned host memory and calls `cudaStreamSynchronize` on the current stream.",
    ],
    docs: {
      why:
        "Python control flow needs a Python value, so `if t:` calls `t.item()` under the hood: a copy to the host and a wait for every queued kernel. " +
        "Under `torch.compile` this data-dependent branch is a graph break.",
      example: ["def forward(self, x: torch.Tensor) -> torch.Tensor:", "    if x.abs().max() > 10:", "        x = x / 10", "    return x"].join("\n"),
      useInstead: ["def forward(self, x: torch.Tensor) -> torch.Tensor:", "    return torch.where(x.abs().max() > 10, x / 10, x)"].join("\n"),
      fixSafety:
        "`torch.where` computes both branches; it is equivalent only when both are tensors (or broadcastable scalars) without side effects. " +
        "Branches that `break`, `return` or `raise` cannot be rewritten this way.",
      facts: [
        "§2 op table: `clip_grad_norm_` syncs with `error_if_nonfinite=True`",
        "§1 `bool(t)` / `if t:` and `float(t)`, `int(t)`, `t.__index__`",
        "§2 op table: `if torch.any(t):`",
        "§4 data-dependent `if` is a graph break",
      ],
    },
  },
  create(context) {
    const evidenceOf = (node: SyntaxNode) => context.analysis.tensorEvidence(node);

    /** The sub-expressions whose truth value Python reads: the operands of `and`/`or`/`not`, or the whole. */
    function truthReads(raw: SyntaxNode): SyntaxNode[] {
      const node = unparenthesized(raw);
      if (node.type === "boolean_operator") return node.children.flatMap(truthReads);
      if (node.type === "not_operator") return node.children.flatMap(truthReads);
      return [node];
    }

    function reportCondition(condition: SyntaxNode, construct: string): void {
      for (const read of truthReads(condition)) {
        const evidence = evidenceOf(read);
        if (!isTensorEvidence(evidence, context)) continue;
        context.report({
          node: read,
          messageId: "condition",
          data: { construct, expression: shortText(read, context), assumption: gpuAssumption(read, evidence, context) },
          evidence,
        });
      }
    }

    /** True when a boolean expression sits in a condition that another visitor handles. */
    function isInsideCondition(node: SyntaxNode): boolean {
      let current = node;
      while (current.parent && ["parenthesized_expression", "boolean_operator", "not_operator"].includes(current.parent.type)) current = current.parent;
      const parent = current.parent;
      if (!parent) return false;
      if (current.field === "condition") return true;
      if (parent.type === "conditional_expression" && parent.children[1] === current) return true;
      if (parent.type === "assert_statement" && parent.children[0] === current) return true;
      return parent.type === "if_clause";
    }

    function reportValue(node: SyntaxNode, subject: SyntaxNode, messageId: string): void {
      const evidence = evidenceOf(subject);
      if (!isTensorEvidence(evidence, context)) return;
      context.report({ node, messageId, data: { expression: shortText(node, context), assumption: gpuAssumption(subject, evidence, context) }, evidence });
    }

    const conditionOf = (keyword: string) => (node: SyntaxNode) => {
      const condition = childByField(node, "condition");
      if (condition) reportCondition(condition, `${keyword} ${shortText(condition, context, 30)}`);
    };

    return {
      if_statement: conditionOf("if"),
      elif_clause: conditionOf("elif"),
      while_statement: conditionOf("while"),
      conditional_expression(node) {
        const condition = node.children[1];
        if (condition) reportCondition(condition, `... if ${shortText(condition, context, 30)} else ...`);
      },
      assert_statement(node) {
        const test = node.children[0];
        if (test) reportCondition(test, `assert ${shortText(test, context, 30)}`);
      },
      if_clause(node) {
        const test = node.children[0];
        if (test) reportCondition(test, `if ${shortText(test, context, 30)}`);
      },
      boolean_operator(node) {
        if (isInsideCondition(node) || node.parent?.type === "boolean_operator") return;
        const left = childByField(node, "left");
        if (left) reportCondition(left, `${shortText(left, context, 20)} ${node.tokens[0]} ...`);
      },
      not_operator(node) {
        if (isInsideCondition(node)) return;
        const argument = node.children[0];
        if (argument) reportCondition(argument, `not ${shortText(argument, context, 30)}`);
      },
      call(node) {
        const name = calleeName(node, context);
        if (!name) return;
        if (/(^|\.)clip_grad_norm_?$/.test(name) || /\.clip_grad_norm_$/.test(context.text(childByField(node, "function")!))) {
          const check = argumentList(node).find((a) => a.type === "keyword_argument" && context.text(childByField(a, "name")!) === "error_if_nonfinite");
          const value = check ? childByField(check, "value") : undefined;
          if (value && context.text(value) === "True") context.report({ node, messageId: "nonfinite", data: { expression: shortText(node, context) } });
          return;
        }
        const args = positional(node);
        if (CONVERSIONS.has(name) && args.length === 1) return reportValue(node, args[0], "conversion");
        if (name === "range") {
          const tensorBound = args.find((arg) => isTensorEvidence(evidenceOf(arg), context));
          if (tensorBound) reportValue(node, tensorBound, "index");
          return;
        }
        if ((name === "max" || name === "min") && args.length >= 1) {
          const tensorArgument = args.find((arg) => isTensorEvidence(evidenceOf(arg), context));
          if (tensorArgument) reportValue(node, tensorArgument, "compare");
        }
      },
      subscript(node) {
        const value = childByField(node, "value");
        if (!value) return;
        const owner = evidenceOf(value);
        for (const index of node.children.filter((child) => child.field === "subscript")) {
          if (index.type === "slice") {
            const bound = index.children.find((part) => isTensorEvidence(evidenceOf(part), context));
            if (bound) reportValue(node, bound, "index");
          } else if (owner.kind === "container" || owner.kind === "scalar") {
            if (isTensorEvidence(evidenceOf(index), context)) reportValue(node, index, "index");
          }
        }
      },
    };
  },
};

