import type { Fix, Rule } from "../rule";
import { SyntaxNode, childByField, childrenByField, unparenthesized } from "../syntax";
import { identifiersNamed, resolveBinding, scopeOf } from "../analysis/scopes";
import { truthReads } from "../fixes/facts";
import { indexedWithStringKey, isStringNode } from "../analysis/tensor-evidence";
import { safeFixes } from "../fixes/edits";
import { clampFix, conditionSelectFixes } from "../fixes/value-select";
import { argumentList, calleeName, gpuAssumption, isTensorEvidence, keyword, positional, shortText } from "./support";

const CONVERSIONS = new Set(["bool", "float", "int", "complex"]);
/** `math` functions that take a C double: they convert a tensor argument with `__float__`. */
/** The distributions of `torch.distributions` (`torch.distributions.Categorical`, `torch.distributions.normal.Normal`). */
const DISTRIBUTION_CLASS = /^torch\.distributions(\.[a-z_]+)?\.[A-Z]\w*$/;
/** Those with no parameters of their own to check (`arg_constraints = {}`): they wrap another distribution. */
const UNCHECKED_DISTRIBUTION = /\.(Distribution|Independent|MixtureSameFamily|TransformedDistribution)$/;
const MATH_FUNCTION = /^math\.(isfinite|isnan|isinf|isclose|sqrt|exp|expm1|log|log2|log10|log1p|pow|fabs|hypot|copysign|fmod|degrees|radians|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|erf|erfc|gamma|lgamma)$/;

/** Tensor methods whose arguments are sizes, counts or lengths (integer lists or integers). */
const SIZE_METHOD = /^(view|reshape|expand|repeat|new_zeros|new_ones|new_empty|new_full|narrow|topk|unflatten|resize_)$/;
/** Functions whose positional arguments (or `size=`) are sizes (`torch.zeros(n, 3)`), or, for `pad`, whose second one (or `pad=`) is. */
const SIZE_FUNCTION = /^torch\.(zeros|ones|empty|rand|randn|randperm|eye)$/;
const PAD_FUNCTION = /^torch\.nn\.functional\.pad$/;

/** A tensor used where Python needs a plain value: a condition, `bool()`/`float()`/`int()`, an index, `max()`. */
export const implicitHostRead: Rule = {
  meta: {
    name: "implicit-host-read",
    code: "SYN103",
    category: "host read",
    defaultSeverity: "warning",
    description: "A GPU tensor used as a Python value (`if t:`, `and`/`or`/`not`, `assert`, `bool()`/`float()`/`int()`, `torch.is_nonzero()`, `all()`/`any()` (also over a generator of tensors), `x in t`, `math.isfinite()`/`math.log()`, an index, `max()`, a size or a padding: `x.view(n, -1)`, `F.pad(x, [0, n])`; a fill value: `torch.full(shape, t)`; a `torch.distributions` distribution's check of its parameters) in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: true,
    fixable: false,
    hasSuggestions: true,
    messages: {
      condition: "`{{construct}}` {{where}} reads the GPU tensor `{{expression}}` as a Python bool and waits for the GPU {{frequency}}{{assumption}}.",
      conversion: "`{{expression}}` {{where}} converts a GPU tensor to a Python number and waits for the GPU {{frequency}}{{assumption}}.",
      index: "`{{expression}}` {{where}} uses a GPU tensor as a Python index and waits for the GPU {{frequency}}{{assumption}}.",
      compare: "`{{expression}}` {{where}} compares GPU tensors in Python and waits for the GPU {{frequency}}{{assumption}}.",
      size: "`{{expression}}` {{where}} passes a GPU tensor where PyTorch needs a Python number (a size, a count, a padding, a fill value), which reads it and waits for the GPU {{frequency}}{{assumption}}.",
      iterate: "`{{expression}}` {{where}} iterates a GPU tensor in Python and reads each element as a Python bool, waiting for the GPU once per element {{frequency}}{{assumption}}.",
      membership: "`{{expression}}` {{where}} tests membership in a GPU tensor, which `Tensor.__contains__` answers with `(element == t).any().item()`, and waits for the GPU {{frequency}}{{assumption}}; keep the test on the device (`(t == element).any()`) or test a Python collection.",
      eachCondition: "`{{expression}}` {{where}} reads each GPU tensor its generator yields as a Python bool, waiting for the GPU once per item {{frequency}}{{assumption}}.",
      validation: "`{{expression}}` {{where}} checks its parameters (`validate_args` is on unless Python runs with `-O`) with a Python `if` on a GPU tensor, which waits for the GPU {{frequency}}{{assumption}}; pass `validate_args=False`, or call `torch.distributions.Distribution.set_default_validate_args(False)` once.",
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
        "Only suggestions (`--unsafe-fixes`). `a if t > c else b`, and an `if t > c:` / `else:` assigning one name, become `torch.where(t > c, a, b)` " +
        "when the condition is a bool tensor test (a comparison, `isnan`, `any()`, ...) and each branch is a tensor or a number literal (at least one a tensor) " +
        "built only from bound names, attributes, numbers and `+ - * /`, so evaluating the branch not selected cannot fail or have side effects; " +
        "a `float(t)` or `t.item()` branch becomes `t.detach()`, a tensor where Python had a number. " +
        "`torch.where` evaluates both branches and returns a new tensor: condition and branches broadcast to one shape, the branches' dtypes promoted " +
        "(a number branch becomes a tensor; tensor branches must be on the condition's device); the branch not selected gets a zero gradient. " +
        "`max(t, eps)` / `min(t, c)`, tensor first and a number bound, become `t.clamp(min=eps)` / `t.clamp(max=c)`: always a tensor, where Python returned `t` or the number " +
        "(NaN stays NaN, as `max(nan, eps)` does; `max(eps, nan)` returns `eps`, so that order is not rewritten). " +
        "A check that leaves the `for` step loop (`if torch.isnan(loss).any(): break`, `raise`, `return`; no `else`; not in a loop nested in the step loop, whose counter restarts every step; " +
        "a test made only of names and tensor operations such as `isnan`, `any()`, `.item()`, since it then runs only on some steps) " +
        "is guarded as `if (step + 1) % check_every == 0 and ...:` " +
        "with `check_every = 100` declared before the loop, using the loop's `enumerate`/`range(n)` counter or adding `enumerate` with a free name: " +
        "when the check would fire, the loop stops up to `check_every - 1` steps later, and a failure in the steps after the last multiple of `check_every` is not caught. " +
        "`while`, `assert` and other conditions are not rewritten.",
      facts: [
        "§2 op table: `clip_grad_norm_` syncs with `error_if_nonfinite=True`",
        "§7 a `torch.distributions` distribution validates its parameters (and `log_prob`'s value) with a Python `if` by default",
        "§1 `bool(t)` / `if t:` and `float(t)`, `int(t)`, `t.__index__`",
        "§7 a tensor passed where an operator takes an integer list (a size, a padding) is read with `item()`",
        "§7 a tensor passed where an operator takes a Scalar (`torch.full`'s fill value) is read with `item()`",
        "§1 `math.isfinite(t)` and the other `math` functions that take a double",
        "§1 `x in t` (`Tensor.__contains__`)",
        "§2 op table: `if torch.any(t):`",
        "§2 op table: 3-arg `where` does not sync",
        "§4 data-dependent `if` is a graph break",
      ],
    },
  },
  create(context) {
    const evidenceOf = (node: SyntaxNode) => context.analysis.tensorEvidence(node);

    function reportCondition(condition: SyntaxNode, construct: string): void {
      for (const read of truthReads(condition)) {
        const evidence = evidenceOf(read);
        if (!isTensorEvidence(evidence, context)) continue;
        context.report({
          node: read,
          messageId: "condition",
          data: { construct, expression: shortText(read, context), assumption: gpuAssumption(read, evidence, context) },
          evidence,
          fixes: safeFixes(() => conditionSelectFixes(read, context)),
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

    function reportValue(node: SyntaxNode, subject: SyntaxNode, messageId: string, fixes?: () => Fix | undefined): void {
      const evidence = evidenceOf(subject);
      if (!isTensorEvidence(evidence, context)) return;
      context.report({ node, messageId, data: { expression: shortText(node, context), assumption: gpuAssumption(subject, evidence, context) }, evidence, fixes: fixes && safeFixes(fixes) });
    }

    /** A string literal, or a name last bound to one. */
    function isStringValue(node: SyntaxNode): boolean {
      const inner = unparenthesized(node);
      if (isStringNode(inner)) return true;
      if (inner.type !== "identifier") return false;
      const binding = resolveBinding(context.text(inner), inner.start, scopeOf(inner, context.analysis.scopes));
      return binding?.kind === "assign" && binding.unpackPath.length === 0 && !!binding.value && isStringNode(binding.value);
    }

    /** `name["key"]` somewhere in the function (or module) around `container`, a name: it is a mapping there. */
    function readWithStringKey(container: SyntaxNode, element?: SyntaxNode): boolean {
      const inner = unparenthesized(container);
      if (inner.type !== "identifier") return false;
      const scope = scopeOf(inner, context.analysis.scopes).node;
      // `if lk in net_output: float(net_output[lk])` (fairseq's HuBERT criterion): the tested key reads the container too.
      const key = element && unparenthesized(element).type === "identifier" ? context.text(element) : undefined;
      const indexedWithKey = (use: SyntaxNode) =>
        use.field === "value" && use.parent?.type === "subscript" && childrenByField(use.parent, "subscript").some((index) => context.text(unparenthesized(index)) === key);
      for (const use of identifiersNamed(context.analysis.source.text, context.text(inner), scope)) if (indexedWithStringKey(use) || (key && indexedWithKey(use))) return true;
      return false;
    }

    const conditionOf = (keyword: string) => (node: SyntaxNode) => {
      const condition = childByField(node, "condition");
      if (condition) reportCondition(condition, `${keyword} ${shortText(condition, context, 30)}`);
    };

    /** The argument given by keyword (`pad=[mx0, mx1]`, `size=(n, 3)`), as a list of none or one. */
    const keywordArguments = (call: SyntaxNode, name: string): SyntaxNode[] => {
      const value = keyword(call, name, context);
      return value ? [value] : [];
    };

    /** The arguments of `call` that PyTorch reads as integers: a size method's, a size function's, a padding; list and tuple elements too. */
    function sizeArguments(call: SyntaxNode, name: string): SyntaxNode[] {
      const callee = childByField(call, "function");
      const method = callee?.type === "attribute" ? context.text(childByField(callee, "attribute")!) : undefined;
      let given: SyntaxNode[];
      if (method && SIZE_METHOD.test(method)) {
        const receiver = childByField(callee!, "object")!;
        if (!isTensorEvidence(evidenceOf(receiver), context)) return [];
        // `new_full(size, fill_value)`: the fill value is a Scalar, read the same way.
        given = positional(call);
      } else if (SIZE_FUNCTION.test(name)) given = [...positional(call), ...keywordArguments(call, "size")];
      // `torch.full(shape, alphas[index])` (the DDIM and PLMS samplers): the fill value is a Scalar, read with `item()`.
      else if (name === "torch.full") given = [...positional(call).slice(0, 2), ...keywordArguments(call, "size"), ...keywordArguments(call, "fill_value")];
      else if (name === "torch.full_like") given = [...positional(call).slice(1, 2), ...keywordArguments(call, "fill_value")];
      else if (PAD_FUNCTION.test(name)) given = [...positional(call).slice(1, 2), ...keywordArguments(call, "pad")];
      else return [];
      return given.flatMap((argument) => (argument.type === "list" || argument.type === "tuple" ? argument.children : [argument]));
    }

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
        // `torch.arange(n, device=d).view(1, num)`: a size method of an unnamed receiver has no dotted name.
        const name = calleeName(node, context) ?? "";
        if (/(^|\.)clip_grad_norm_?$/.test(name) || /\.clip_grad_norm_$/.test(context.text(childByField(node, "function")!))) {
          const check = argumentList(node).find((a) => a.type === "keyword_argument" && context.text(childByField(a, "name")!) === "error_if_nonfinite");
          const value = check ? childByField(check, "value") : undefined;
          if (value && context.text(value) === "True") context.report({ node, messageId: "nonfinite", data: { expression: shortText(node, context) } });
          return;
        }
        // `Categorical(logits=logits)`, `Normal(mu, std)`: a distribution checks its parameters when it is built.
        if (DISTRIBUTION_CLASS.test(name) && !UNCHECKED_DISTRIBUTION.test(name)) {
          const check = keyword(node, "validate_args", context);
          if ((check && context.text(check) !== "True") || /set_default_validate_args\(\s*False\s*\)/.test(context.analysis.source.text)) return;
          const parameters = argumentList(node).map((argument) => (argument.type === "keyword_argument" ? childByField(argument, "value")! : argument));
          const tensor = parameters.find((parameter) => parameter && isTensorEvidence(evidenceOf(parameter), context));
          if (tensor) reportValue(node, tensor, "validation");
          return;
        }
        const sizes = sizeArguments(node, name);
        if (sizes.length > 0) {
          // Only a tensor known to be on a GPU: sizes are mostly Python integers, or CPU tensors of shapes.
          const onGpu = sizes.find((size) => evidenceOf(size).kind === "gpu");
          if (onGpu) reportValue(node, onGpu, "size");
          return;
        }
        // Calls of anything else are most calls: they cost no argument list.
        if (!CONVERSIONS.has(name) && name !== "torch.is_nonzero" && name !== "range" && name !== "max" && name !== "min" && name !== "all" && name !== "any" && !MATH_FUNCTION.test(name)) return;
        const args = positional(node);
        // `all(eos_reached)`: the builtin iterates the tensor and asks each element for a bool (`t.all()` is one read).
        // `any(torch.isnan(p).any() for p in model.parameters())`: each item the generator yields is read as a bool.
        // (`any(x for x in y)` is parsed with the generator as the argument list itself.)
        const generator = childByField(node, "arguments")?.type === "generator_expression" ? childByField(node, "arguments") : args.length === 1 && args[0].type === "list_comprehension" ? args[0] : undefined;
        if ((name === "all" || name === "any") && generator) {
          const item = childByField(generator, "body");
          return item ? reportValue(node, item, "eachCondition") : undefined;
        }
        if ((name === "all" || name === "any") && args.length === 1) return reportValue(node, args[0], "iterate");
        if (MATH_FUNCTION.test(name)) {
          const tensorArgument = args.find((arg) => isTensorEvidence(evidenceOf(arg), context));
          if (tensorArgument) reportValue(node, tensorArgument, "conversion");
          return;
        }
        // `torch.is_nonzero(t)` is `bool(t)` spelled as a function: `at::is_nonzero` calls `item()`.
        if ((CONVERSIONS.has(name) || name === "torch.is_nonzero") && args.length === 1) return reportValue(node, args[0], "conversion");
        if (name === "range") {
          const tensorBound = args.find((arg) => isTensorEvidence(evidenceOf(arg), context));
          if (tensorBound) reportValue(node, tensorBound, "index");
          return;
        }
        if ((name === "max" || name === "min") && args.length >= 1) {
          // `max(probs, key=probs.get)`: the key is a dict's lookup, so what is compared is the dict's values, and
          // `probs` is a dict (a tensor has no `.get`).
          const key = keyword(node, "key", context);
          if (key && /\.get$/.test(context.text(key))) return;
          const tensorArgument = args.find((arg) => isTensorEvidence(evidenceOf(arg), context));
          if (tensorArgument) reportValue(node, tensorArgument, "compare", () => clampFix(tensorArgument, tensorArgument, false, context));
        }
      },
      comparison_operator(node) {
        // `eos_id in next_tok`: the container is asked, with `Tensor.__contains__`; a tensor rejects a string
        // element, so `"loss" in outputs` (or `key in outputs` with `key = f"{name}_features"`) asks a dict-like
        // output, as does a container that is read with a string key (`outputs["logits"]`).
        node.tokens.forEach((token, i) => {
          const container = (token === "in" || token === "not in") && !isStringValue(node.children[i]) && node.children[i + 1];
          if (container && isTensorEvidence(evidenceOf(container), context) && !readWithStringKey(container, node.children[i])) reportValue(node, container, "membership");
        });
      },
      subscript(node) {
        const value = childByField(node, "value");
        if (!value) return;
        const owner = evidenceOf(value);
        const tensorIndices: SyntaxNode[] = [];
        for (const index of node.children) {
          if (index.field !== "subscript") continue;
          if (index.type === "slice") tensorIndices.push(...index.children.filter((part) => isTensorEvidence(evidenceOf(part), context)));
          else if (((owner.kind === "container" && !owner.mapping) || owner.kind === "scalar") && isTensorEvidence(evidenceOf(index), context)) tensorIndices.push(index);
        }
        // One finding per subscript (`x[a:b, c:d]` is one place to fix), for its index most surely on a GPU.
        const subject = tensorIndices.find((index) => evidenceOf(index).kind === "gpu") ?? tensorIndices[0];
        if (subject) reportValue(node, subject, "index");
      },
    };
  },
};

