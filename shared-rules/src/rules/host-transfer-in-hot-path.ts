import type { Fix, Rule, RuleContext } from "../rule";
import { SyntaxNode, childByField, contains, someNode, unparenthesized } from "../syntax";
import { argumentList, calleeName, gpuAssumption, isTrueLiteral, keyword, mayBeGpuTensor, methodCall, positional, shortText } from "./support";
import { declaredShared, enclosingLoop, enclosingScope, identifierUses, inNestedScope, inTry, statementOf, useKind } from "../fixes/facts";
import { insertLinesAfter } from "../fixes/indentation";
import { safeFixes } from "../fixes/edits";
import { HOST_TENSOR_TYPE, TOKENIZER_NAME, lastName } from "../analysis/names";
import { isEnvironmentStep } from "../analysis/hot-paths";

/** A metric of Hugging Face `evaluate` (or `datasets`), by its name: `metric`, `accuracy_metric`. */
const METRIC_NAME = /(^|_)metric$/i;

/** Copies of a GPU tensor to host memory (`.cpu()`, `.tolist()`, `np.array(t)`) on a path that runs every step. */
export const hostTransferInHotPath: Rule = {
  meta: {
    name: "host-transfer-in-hot-path",
    code: "SYN102",
    category: "host-device transfer",
    defaultSeverity: "warning",
    description: "`.cpu()`, `.to(\"cpu\")`, `.type(torch.FloatTensor)` (a legacy CPU type), `.tolist()`, `.numpy(force=True)`, `np.array(t)` or a tokenizer's `decode`/`batch_decode` or an `evaluate` metric's `add_batch` on a GPU tensor in code that runs every step.",
    hotPathOnly: true,
    breaksCompiledGraph: false,
    fixable: false,
    hasSuggestions: true,
    messages: {
      transfer: "`{{expression}}` {{where}} copies a GPU tensor to host memory and waits for the GPU {{frequency}}{{assumption}}.",
      tolist: "`{{expression}}` {{where}} copies a GPU tensor to a Python list and waits for the GPU {{frequency}}{{assumption}}.",
      metric: "`{{expression}}` {{where}} hands GPU tensors to a metric that turns them into NumPy arrays (`cast_to_python_objects`, `.detach().cpu().numpy()`), which waits for the GPU {{frequency}}{{assumption}}; keep the predictions on the GPU and add them once, after the loop.",
      decode: "`{{expression}}` {{where}} decodes token ids that are on the GPU: the tokenizer turns them into a Python list first (`to_py_obj`, `.tolist()`), which waits for the GPU {{frequency}}{{assumption}}; decode ids moved to the host once, for the whole batch or after the loop.",
    },
    mechanism: [
      "**Copy** — `_to_copy` allocates a pageable CPU tensor and launches a device-to-host `cudaMemcpyAsync` on the current stream.",
      "**Wait** — with `non_blocking=False` the copy goes through `memcpy_and_sync`: `cudaStreamSynchronize` blocks this thread until all queued work on the stream has finished.",
    ],
    docs: {
      why:
        "A blocking device-to-host copy waits for every kernel queued on the current stream before the bytes arrive, " +
        "so the CPU stops feeding the GPU once per call. Collecting results on the device and copying once after the loop pays that price once. " +
        "An action handed to an environment's `step` (`envs.step(action.cpu().numpy())`, or through a name a few statements later) is not reported: " +
        "a simulator on the host needs it before the step can go on, so that wait cannot be moved.",
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
        "all_preds = [e for t in all_preds for e in t.cpu().numpy()]  # the fix: same list, transferred after the loop",
        "# or, when the next use concatenates anyway: torch.cat(all_preds).cpu().numpy()  # one copy, one sync",
      ].join("\n"),
      fixSafety:
        "Collecting on the device keeps the same values but holds them in GPU memory until the loop ends, so it is a suggestion (`--unsafe-fixes`). " +
        "It is offered only when the list is created empty right before the loop and not used elsewhere in it, and the tensor is new in every " +
        "iteration; after the loop one line moves every element to the host the way the loop did (`all_preds = [t.cpu() for t in all_preds]`, " +
        "or `[e for t in all_preds for e in t.cpu().numpy()]` for `.extend`), so the list holds the same values (a later `torch.cat` gives one array).",
      facts: ["§1 `.cpu()` / `.to('cpu')`", "§1 `.tolist()`", "§1 `.numpy()`", "§2 op table: `.cpu()`, `.tolist()`, `.numpy(force=True)`", "§7 a Hugging Face tokenizer's `decode` turns a tensor into a list with `to_py_obj`", "§7 an `evaluate` metric's `add_batch` casts tensors with `.detach().cpu().numpy()`", "§7 `t.type(torch.FloatTensor)` of a CUDA tensor copies it to host memory"],
    },
  },
  create(context) {
    /** `.to("cpu")` or `.to(device="cpu")` without `non_blocking=True`. */
    function isBlockingMoveToCpu(call: SyntaxNode): boolean {
      if (isTrueLiteral(keyword(call, "non_blocking", context))) return false;
      const target = keyword(call, "device", context) ?? positional(call)[0];
      return !!target && context.analysis.evidence.deviceOf(target) === "cpu";
    }

    function isBlockingCastToHostType(call: SyntaxNode): boolean {
      const [type] = positional(call);
      return !!type && HOST_TENSOR_TYPE.test(context.text(type)) && !isTrueLiteral(keyword(call, "non_blocking", context));
    }

    function report(node: SyntaxNode, subject: SyntaxNode, range: { start: number; end: number }, messageId: string, allowUnknown: boolean): void {
      const evidence = context.analysis.tensorEvidence(subject);
      if (!mayBeGpuTensor(evidence, context, allowUnknown) || feedsEnvironmentStep(node, context)) return;
      context.report({
        node,
        range,
        messageId,
        data: { expression: shortText(node, context, 50), assumption: gpuAssumption(subject, evidence, context) },
        evidence,
        fixes: safeFixes(() => collectOnDeviceFix(node, context)),
      });
    }

    return {
      call(node) {
        const call = methodCall(node, context);
        if (call) {
          if (call.method === "cpu" && positional(node).length === 0) return report(node, call.receiver, call.range, "transfer", true);
          if (call.method === "to" && isBlockingMoveToCpu(node)) return report(node, call.receiver, call.range, "transfer", true);
          // `mask.type(torch.FloatTensor)`: the legacy CPU type moves a CUDA tensor to the host. Code that still uses
          // legacy types mostly casts host tensors with them: only a tensor known to be on the GPU.
          if (call.method === "type" && isBlockingCastToHostType(node) && context.analysis.tensorEvidence(call.receiver).kind === "gpu") return report(node, call.receiver, call.range, "transfer", false);
          if (call.method === "tolist") return report(node, call.receiver, call.range, "tolist", false);
          if (call.method === "numpy" && isTrueLiteral(keyword(node, "force", context))) return report(node, call.receiver, call.range, "transfer", false);
          // `tokenizer.batch_decode(generated_ids)`: Hugging Face tokenizers convert their input with `to_py_obj`.
          if ((call.method === "decode" || call.method === "batch_decode") && TOKENIZER_NAME.test(lastName(context.text(call.receiver)))) {
            const [ids] = positional(node);
            // Only ids known to be on a GPU: tokenizers decode lists and host tensors as often.
            if (ids && context.analysis.tensorEvidence(ids).kind === "gpu") return report(node, ids, call.range, "decode", false);
            return;
          }
          // `metric.add_batch(predictions=preds, references=labels)` (`evaluate`, `datasets`): encoded as Python objects.
          if (call.method === "add_batch" && METRIC_NAME.test(lastName(context.text(call.receiver)))) {
            const given = ["predictions", "references"].map((name) => keyword(node, name, context)).find((value) => value && context.analysis.tensorEvidence(value).kind === "gpu");
            if (given) return report(node, given, call.range, "metric", false);
            return;
          }
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

/** Methods that return a new tensor (not a view of, or the same object as, their receiver). */
/**
 * `envs.step(action.cpu().numpy())`, or `actions = q.argmax(1).cpu().numpy()` and then `envs.step(actions)` a few
 * statements on: an environment simulated on the host needs the action before it can go on, so the wait is the
 * step's own, not one the program could move or batch.
 */
function feedsEnvironmentStep(node: SyntaxNode, context: RuleContext): boolean {
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === "call" && isEnvironmentStep(parent, context.analysis.source.text)) return true;
    if (parent.type === "assignment" && child.field === "right") {
      const target = childByField(parent, "left");
      const statement = parent.parent?.type === "expression_statement" ? parent.parent : undefined;
      if (target?.type !== "identifier" || !statement) return false;
      const name = context.text(target);
      const stepsWith = (call: SyntaxNode) => call.type === "call" && isEnvironmentStep(call, context.analysis.source.text) && argumentList(call).some((argument) => context.text(argument) === name);
      // A function or class defined after it runs when it is called, not there.
      return statementsAfter(statement).some((next) => next.type !== "function_definition" && next.type !== "class_definition" && someNode(next, stepsWith));
    }
    if (!EXPRESSION_PART.has(parent.type)) return false;
  }
  return false;
}

/**
 * The statements that run after `statement` in its block, and after the `if`/`else` or `with` holding it (`if
 * random.random() < epsilon: actions = ... else: actions = q.argmax(1).cpu().numpy()`, then `envs.step(actions)`),
 * up to the loop or function around it; at most STATEMENTS_TO_ENVIRONMENT_STEP of each block.
 */
function statementsAfter(statement: SyntaxNode): SyntaxNode[] {
  const after: SyntaxNode[] = [];
  for (let current: SyntaxNode | null = statement; current?.parent?.type === "block"; ) {
    const siblings = current.parent.children;
    const at = siblings.indexOf(current);
    after.push(...siblings.slice(at + 1, at + 1 + STATEMENTS_TO_ENVIRONMENT_STEP));
    let owner: SyntaxNode | null = current.parent.parent;
    if (owner?.type === "else_clause" || owner?.type === "elif_clause") owner = owner.parent;
    if (owner?.type !== "if_statement" && owner?.type !== "with_statement") break;
    current = owner;
  }
  return after;
}

/** How far after the action is computed the environment step may come (a clip, a log, a buffer write between). */
const STATEMENTS_TO_ENVIRONMENT_STEP = 6;
const EXPRESSION_PART = new Set(["call", "attribute", "argument_list", "keyword_argument", "parenthesized_expression", "subscript"]);


const FRESH_METHOD = /^(argmax|argmin|softmax|log_softmax|sigmoid|tanh|relu|exp|log|abs|neg|sum|mean|prod|cumsum|clone|eq|ne|lt|gt|le|ge|round|floor|ceil|topk|sort|add|sub|mul|div|matmul|pow|clamp)$/;
/** Methods that return a view of (or the same object as) their receiver: fresh when the receiver is. */
const VIEW_METHOD = /^(detach|view|view_as|reshape|squeeze|unsqueeze|flatten|t|transpose|permute|contiguous|float|double|half|long|int|bool|to|type)$/;

/**
 * `LIST.append(x.cpu())`, `.append(x.cpu().numpy())`, `.extend(x.cpu().numpy())`, `.extend(x.tolist())` in a
 * loop → `LIST.append(x)` and, right after the loop, one pass that moves every element to the host the way the
 * loop did: the list holds the same values. Offered only when `x` is a new tensor in each iteration (so no later
 * in-place change can reach it), the list is created empty (`LIST = []`) just before the loop and used nowhere
 * else in it. A suggestion: the tensors stay in GPU memory until the loop ends.
 */
function collectOnDeviceFix(node: SyntaxNode, context: RuleContext): Fix[] {
  const text = context.analysis.source.text;
  // The argument of `.append`/`.extend`: the transfer, possibly followed by `.numpy()`/`.tolist()`.
  let argument = node;
  // `node` may be the inner `.cpu()` of `x.cpu().numpy()`: walk up to the whole argument.
  while (argument.parent?.type === "attribute" && argument.parent.parent?.type === "call" && argument.field === "object") {
    const outer = argument.parent.parent;
    const method = methodCall(outer, context)?.method;
    if (method !== "numpy" && method !== "tolist") break;
    argument = outer;
  }
  // Recompute the chain for the whole argument.
  const whole: string[] = [];
  let receiver: SyntaxNode = argument;
  for (let call = methodCall(receiver, context); call && ["cpu", "numpy", "tolist"].includes(call.method); call = receiver.type === "call" ? methodCall(receiver, context) : undefined) {
    if ((childByField(receiver, "arguments")?.children.length ?? 0) > 0) return [];
    whole.unshift(call.method);
    receiver = call.receiver;
  }
  const suffix = whole.join(".");
  if (!["cpu", "cpu.numpy", "tolist", "cpu.tolist"].includes(suffix)) return [];
  const args = argument.parent;
  if (args?.type !== "argument_list" || args.children.length !== 1) return [];
  const listCall = args.parent!;
  const method = methodCall(listCall, context);
  if (!method || (method.method !== "append" && method.method !== "extend") || method.receiver.type !== "identifier") return [];
  if (method.method === "extend" && suffix === "cpu") return [];
  const statement = statementOf(listCall);
  if (!statement || statement.type !== "expression_statement" || statement.children[0] !== listCall) return [];
  const loop = enclosingLoop(statement);
  if (!loop || loop.type !== "for_statement") return [];
  const list = context.text(method.receiver);
  const scope = enclosingScope(statement);
  if (scope.type === "lambda" || scope.type === "class_definition" || declaredShared(scope, list, text) || inTry(statement, scope)) return [];
  // `LIST = []` is an earlier statement of the loop's block (or of the blocks of `with` statements around the
  // loop, which run their body once), and nothing between them uses the list.
  let initAssignment: SyntaxNode | undefined;
  for (let level: SyntaxNode | undefined = loop; level && !initAssignment; ) {
    const block: SyntaxNode | null = level.parent;
    if (!block || (block.type !== "block" && block.type !== "module")) break;
    const index = block.children.indexOf(level);
    let found = false;
    for (let i = index - 1; i >= 0; i--) {
      const sibling = block.children[i];
      const assignment = sibling.type === "expression_statement" ? sibling.children[0] : undefined;
      if (assignment?.type === "assignment" && context.text(childByField(assignment, "left")!) === list) {
        if (context.text(childByField(assignment, "right")!).replace(/\s/g, "") === "[]") initAssignment = assignment;
        found = true;
        break;
      }
    }
    if (found) break;
    level = block.parent?.type === "with_statement" ? block.parent : undefined;
  }
  if (!initAssignment) return [];
  for (const use of identifierUses(scope, list, text)) {
    if (use === method.receiver || contains(initAssignment, use)) continue;
    if (contains(loop, use) || inNestedScope(use, scope)) return [];
    if (use.start > initAssignment.end && use.start < loop.start) return [];
    if (useKind(use) === "other-write") return [];
  }
  if (!isFresh(receiver, loop, context, 0)) return [];
  const element = list === "t" ? "t_" : "t";
  const convert = suffix === "cpu" ? `[${element}.cpu() for ${element} in ${list}]` : method.method === "append" ? `[${element}.${suffix.replace(/\./g, "().")}() for ${element} in ${list}]` : `[e for ${element} in ${list} for e in ${element}.${suffix.replace(/\./g, "().")}()]`;
  if (list === "e") return [];
  const after = insertLinesAfter(text, loop, [`${list} = ${convert}`]);
  if (!after) return [];
  const replacement: Fix = {
    title: `Collect on the device, move \`${list}\` to the host once after the loop`,
    safe: false,
    edits: [{ start: method.range.start, end: listCall.end, text: `append(${context.text(receiver)})` }, after],
  };
  return [replacement];
}

/** A tensor created anew in each iteration of `loop`: the result of a model, a torch function, an arithmetic op. */
function isFresh(raw: SyntaxNode, loop: SyntaxNode, context: RuleContext, depth: number): boolean {
  const node = unparenthesized(raw);
  if (depth > 4) return false;
  if (node.type === "binary_operator" || node.type === "comparison_operator") return true;
  if (node.type === "subscript") return isFresh(childByField(node, "value")!, loop, context, depth + 1);
  if (node.type === "call") {
    const callee = childByField(node, "function")!;
    if (callee.type === "attribute") {
      const method = context.text(childByField(callee, "attribute")!);
      const object = childByField(callee, "object")!;
      if (FRESH_METHOD.test(method)) return true;
      if (VIEW_METHOD.test(method)) return isFresh(object, loop, context, depth + 1);
      // `torch.sigmoid(x)`, `F.softmax(x)`, `self.model(x)`
      const name = context.analysis.evidence.qualifiedName(callee) ?? "";
      return /^torch\./.test(name) || context.text(object) === "self";
    }
    // `model(x)`, `criterion(a, b)`
    return callee.type === "identifier";
  }
  if (node.type === "identifier") {
    // Bound exactly once in the loop, to a fresh value, and never written through afterwards.
    const name = context.text(node);
    const uses = identifierUses(loop, name, context.analysis.source.text);
    const writes = uses.filter((use) => useKind(use) !== "read");
    if (writes.length !== 1 || useKind(writes[0]) !== "assign" || writes[0].start > node.start) return false;
    const assignment = writes[0].parent!;
    if (statementOf(assignment)?.parent !== statementOf(node)?.parent) return false;
    for (const use of uses) {
      if (use === writes[0]) continue;
      const parent = use.parent;
      if (parent?.type === "attribute" && use.field === "object" && /_$|^data$/.test(context.text(childByField(parent, "attribute")!))) return false;
      if (parent?.type === "subscript" && parent.parent?.type === "assignment" && parent.field === "left") return false;
      if (parent?.type === "subscript" && parent.parent?.type === "augmented_assignment") return false;
    }
    return isFresh(childByField(assignment, "right")!, loop, context, depth + 1);
  }
  return false;
}
