import type { Fix, Rule, RuleContext } from "../rule";
import { itemSelectFixes } from "../fixes/value-select";
import { SyntaxNode, childByField, contains, unparenthesized } from "../syntax";
import { keyword, positional, gpuAssumption, mayBeGpuTensor, methodCall, shortText, MethodCall } from "./support";
import { declaredShared, enclosingLoop, enclosingScope, identifierUses, inNestedScope, inTry, isNumberLiteral, statementOf, useKind } from "../fixes/facts";
import { insertLinesAfter } from "../fixes/indentation";
import { ensureTorchImport } from "../fixes/imports";
import { safeFixes } from "../fixes/edits";
import { accumulatedKind, deviceAddend } from "../fixes/accumulation";
import { batchedItemLoggingFix } from "../fixes/batched-logging";
import { resolveBinding, scopeOf } from "../analysis/scopes";
import { enclosingClass } from "../analysis/tensor-evidence";

/** `.item()` on a tensor that may live on a GPU, on a path that runs every step. */
export const itemInHotPath: Rule = {
  meta: {
    name: "item-in-hot-path",
    code: "SYN101",
    category: "host read",
    defaultSeverity: "warning",
    description: "`.item()` on a GPU tensor in code that runs every step (and the `.item()` hidden in `GradScaler.step` / `get_scale()` / `state_dict()`).",
    hotPathOnly: true,
    breaksCompiledGraph: true,
    fixable: true,
    hasSuggestions: true,
    messages: {
      item: "`{{expression}}.item()` {{where}} waits for the GPU {{frequency}}{{assumption}}.",
      scalerStep: "`{{expression}}` {{where}} calls `.item()` on the inf/NaN check of each device and waits for the GPU {{frequency}}{{assumption}}; an optimizer created with `fused=True` (Adam/AdamW) lets GradScaler skip it.",
      scalerScale: "`{{expression}}` {{where}} reads the loss scale with a host-device sync {{frequency}}{{assumption}}.",
      scalerCall:
        "`{{expression}}` {{where}} runs `GradScaler.step(optimizer)` inside the scaler's `__call__`, which calls `.item()` on the inf/NaN check of each device and waits for the GPU {{frequency}}{{assumption}}; an optimizer created with `fused=True` (Adam/AdamW) lets GradScaler skip it.",
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
        "and inside a CUDA-graph capture it is an error. " +
        "`GradScaler.step(optimizer)` hides one `.item()` per device unless the optimizer is fused: it is reported when the optimizer is a `torch.optim` " +
        "optimizer made in the same file without `fused=True`, or when it comes from elsewhere and the scaler is surely on (made in the file without " +
        "`enabled=`, or with `enabled=True`, also as `GradScaler(...) if <device is CUDA> else None`); a scaler made with `enabled=<expression>` or under " +
        "another condition (`if dtype == torch.float16 else None`), or passed in and named like one, is reported with that condition " +
        "in the message. A scaler or an optimizer that a parameter receives is what the first call of its function in the same file passes. " +
        "A scaler passed in and named like one that is called with the loss and the optimizer (`loss_scaler(loss, optimizer, clip_grad=...)`) is a wrapper such as timm's `NativeScaler`, " +
        "whose `__call__` runs `backward` and `GradScaler.step`: it is reported at the call unless the optimizer is made in the file with `fused=True` (a wrapper class made in the same file is its own code, reported inside its `__call__`). " +
        "`get_scale()` and `state_dict()` read the scale on every call.",
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
        "`self.log(name, t.item())` in a `LightningModule` becomes `self.log(name, t)`: a safe fix (Lightning detaches the tensor and reads it itself; " +
        "a float64 tensor is then logged at full precision instead of rounded to float32); a progress-bar metric logged on step (`prog_bar=True` in `training_step` and the other training hooks, or with `on_step=True`) is still read by Lightning on every batch, so there the sync stays, and the fix's title says so. " +
        "`a if t.item() > c else b` (or the same `if`/`else` statement) becomes `torch.where(t > c, a, b)` and `if t.item() > c: break` a check every `check_every` steps, under the conditions given for implicit-host-read; " +
        "`t > c` compares in `t`'s dtype where Python compared exact values, so a `t` that rounds to `c` (float32 `t == float32(c)`) can select the other branch. " +
        "`max(t.item(), eps)` / `min(t.item(), c)` (the `.item()` first, a number bound) become `t.detach().clamp(min=eps)` / `clamp(max=c)`: a tensor of `t`'s shape and dtype instead of a Python number, " +
        "so arithmetic with it runs in `t`'s dtype, not float64, and may round differently (all suggestions). " +
        "`total += (pred == y).sum().item()` and `running_loss += loss.item()` become an on-device accumulation (`total += (pred == y).sum()`, " +
        "`running_loss += loss.detach().double()`) turned back into a Python number by one `.item()` right after the loop: " +
        "the same number (int64 counts, float64 sums in the same order), but the variable is a tensor inside the loop, so it is a suggestion " +
        "(`--unsafe-fixes`), offered only when the variable is not used anywhere else in the loop. " +
        "A log call that reads a loss or a count each step (`print(f\"{loss.item():.4f}\")`, `logger.info(...)`, `add_scalar(tag, loss.item(), step)`, " +
        "`set_postfix(loss=...)`, `wandb.log({...})`) gets a suggestion that sums the value on the device (`loss_sum += loss.detach().double()`) and, " +
        "every `log_every` steps (a constant declared before the loop) and once after the loop, logs the sum over the steps since the last report with the same format: " +
        "each report equals the old per-step values of those steps added up, and the other names in the call show their values at the reporting step. " +
        "It changes how often and what is logged (a sum, not one step's value), never what the model computes. It is offered only for a call standing " +
        "directly in the body of a `for` step loop, reading no other tensor and calling nothing but `len` and `str.format`, with no `continue` or `break` before it and no `return` in the loop. " +
        "The float64 accumulators do not run on Apple's MPS backend, which has no float64.",
      facts: [
        "§2 op table: GradScaler `step` (one `.item()` per device unless the optimizer is `fused=True`), `get_scale()` and `state_dict()`",
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
        if (call && (call.method === "step" || call.method === "get_scale" || call.method === "state_dict")) {
          const scaler = gradScaler(call.receiver, context);
          if (!scaler) return;
          if (call.method === "step") {
            if (positional(node).length !== 1) return;
            // An optimizer made elsewhere may be fused (nanoGPT's `configure_optimizers`): reported only beside a scaler that is surely on.
            const fusion = optimizerFusion(positional(node)[0], context);
            if (fusion === "fused" || (fusion === "unknown" && scaler !== "enabled")) return;
          }
          const assumption = scaler === "enabled" ? "" : scaler === "named" ? ` (if \`${shortText(call.receiver, context, 30)}\` is an enabled \`GradScaler\`)` : " (when AMP is enabled)";
          context.report({ node, range: call.range, messageId: call.method === "step" ? "scalerStep" : "scalerScale", data: { expression: shortText(node, context), assumption } });
          return;
        }
        if (!call) {
          reportScalerCall(node, context);
          return;
        }
        if (call.method !== "item" || positional(node).length > 0) return;
        const evidence = context.analysis.tensorEvidence(call.receiver);
        if (!mayBeGpuTensor(evidence, context, true)) return;
        context.report({
          node,
          range: call.range,
          messageId: "item",
          data: { expression: shortText(call.receiver, context), assumption: gpuAssumption(call.receiver, evidence, context) },
          evidence,
          fixes: [...safeFixes(() => itemFixes(call, context)), ...safeFixes(() => itemSelectFixes(call.call, call.receiver, context))],
        });
      },
    };
  },
};

/**
 * `loss_scaler(loss, optimizer, ...)`: a scaler passed in (timm's `NativeScaler`, MAE's
 * `NativeScalerWithGradNormCount`) whose `__call__` scales the loss, runs `backward` and `GradScaler.step`.
 */
function reportScalerCall(node: SyntaxNode, context: RuleContext): void {
  const callee = unparenthesized(childByField(node, "function")!);
  if (callee.type !== "identifier" && callee.type !== "attribute") return;
  const [loss, optimizer] = positional(node);
  if (!loss || !optimizer || !OPTIMIZER_ARGUMENT.test(context.text(optimizer))) return;
  // A wrapper made in this file is a class whose `__call__` the analysis follows; a `GradScaler` is not callable.
  if (gradScaler(callee, context) !== "named" || optimizerFusion(optimizer, context) === "fused") return;
  const assumption = ` (if \`${shortText(callee, context, 30)}\` wraps an enabled \`GradScaler\`, as timm's \`NativeScaler\` does)`;
  context.report({ node, range: { start: node.start, end: childByField(node, "arguments")!.start }, messageId: "scalerCall", data: { expression: shortText(node, context), assumption } });
}

/**
 * The optimizer passed to a scaler's call (`optimizer`, `self.optimizer`, `opt_d`), by name. Narrower than
 * `OPTIMIZER_NAME` of `names.ts`, which names what `.step()` is called on and so also takes scalers.
 */
const OPTIMIZER_ARGUMENT = /(^|[._])(optim|optimizer|opt)(_\w+)?$/i;

/**
 * Is `receiver` a `GradScaler`? "enabled": made in this file (or assigned to `self.scaler`) without `enabled=`
 * or with `enabled=True` (also when passed to the function whose parameter it is); "conditional": made with
 * `enabled=<expression>` (off in bf16 runs); "named": made elsewhere (a parameter no call in this file passes,
 * another module's helper) and named like one (`scaler`, `grad_scaler`, `loss_scaler`).
 */
function gradScaler(receiver: SyntaxNode, context: RuleContext, depth = 0): "enabled" | "conditional" | "named" | undefined {
  const made = assignedValue(receiver, context);
  // `scaler = grad_scaler`, `self.scaler = scaler`: the value it names.
  if (made && (made.type === "identifier" || made.type === "attribute") && depth < 4) return gradScaler(made, context, depth + 1);
  if (made) return madeScaler(made, context);
  const target = unparenthesized(receiver);
  const name = target.type === "identifier" ? context.text(target) : target.type === "attribute" ? context.text(childByField(target, "attribute")!) : "";
  return SCALER_NAME.test(name) ? "named" : undefined;
}

/**
 * What a scaler's value makes: `GradScaler(...)`, also in a branch of a conditional whose other branch is `None`
 * or another scaler. A scaler made only on a CUDA device is on where this rule's findings apply (nnU-Net's
 * `GradScaler("cuda") if self.device.type == "cuda" else None`); one made only for float16 (nanochat's `if
 * COMPUTE_DTYPE == torch.float16 else None`) is on only then.
 */
function madeScaler(raw: SyntaxNode, context: RuleContext): "enabled" | "conditional" | undefined {
  const made = unparenthesized(raw);
  if (made.type === "conditional_expression") {
    const [consequence, condition, alternative] = made.children;
    const branches = [consequence, alternative].filter((branch) => branch && unparenthesized(branch).type !== "none");
    const kinds = branches.map((branch) => madeScaler(branch!, context));
    if (kinds.length === 0 || kinds.some((kind) => kind !== kinds[0])) return undefined;
    const onWithCuda = branches.length === 2 || (condition && /\bcuda\b|\bdevice\b/.test(context.text(condition)));
    return onWithCuda ? kinds[0] : kinds[0] && "conditional";
  }
  if (made.type !== "call") return undefined;
  const name = context.analysis.evidence.qualifiedName(childByField(made, "function")!) ?? "";
  if (!/(^|\.)GradScaler$/.test(name)) return undefined;
  const enabled = keyword(made, "enabled", context);
  if (!enabled || context.text(enabled) === "True") return "enabled";
  return context.text(enabled) === "False" ? undefined : "conditional";
}

const SCALER_NAME = /^(_?(grad|loss|amp)_?)?scaler$/i;

/**
 * The optimizer given to `scaler.step(...)`: "fused" when made in this file with `fused=` (GradScaler then
 * skips its `.item()`), "unfused" when made here as a `torch.optim` optimizer without it, else "unknown".
 */
function optimizerFusion(optimizer: SyntaxNode, context: RuleContext, depth = 0): "fused" | "unfused" | "unknown" {
  const made = assignedValue(optimizer, context);
  if (made && (made.type === "identifier" || made.type === "attribute") && depth < 4) return optimizerFusion(made, context, depth + 1);
  if (made?.type !== "call") return "unknown";
  const fused = keyword(made, "fused", context);
  if (fused && context.text(fused) !== "False") return "fused";
  const name = context.analysis.evidence.qualifiedName(childByField(made, "function")!) ?? "";
  return /^torch\.optim\.[A-Z]\w*$/.test(name) ? "unfused" : "unknown";
}

/**
 * The expression last assigned to a name (`scaler`) or to a `self.` attribute (`self.scaler`) of this file; for
 * a parameter, what the first call of its function in this file passes (`train_one_epoch(..., scaler)`).
 */
function assignedValue(node: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  const target = unparenthesized(node);
  if (target.type === "identifier") {
    const binding = resolveBinding(context.text(target), target.start, scopeOf(target, context.analysis.scopes));
    if (binding?.kind === "parameter") return context.analysis.hotPaths.argumentsFor(binding)[0];
    return binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
  }
  if (target.type === "attribute" && context.text(childByField(target, "object")!) === "self") {
    const cls = enclosingClass(target);
    const values = cls ? context.analysis.classes.get(cls)?.attributes.get(context.text(childByField(target, "attribute")!)) : undefined;
    return values?.[values.length - 1];
  }
  return undefined;
}

function itemFixes(call: MethodCall, context: RuleContext): Fix[] {
  const lightning = lightningLogFix(call, context);
  if (lightning) return [lightning];
  const onDevice = accumulatorFix(call, context) ?? batchedItemLoggingFix(call, context);
  return onDevice ? [onDevice] : [];
}

/**
 * `self.log(name, t.item())` in a `LightningModule` → `self.log(name, t)`: Lightning accepts tensors, detaches
 * them and reads them when it logs, so the value logged is the same.
 */
function lightningLogFix(call: MethodCall, context: RuleContext): Fix | undefined {
  const node = call.call;
  const holder = node.parent?.type === "keyword_argument" ? node.parent : node;
  if (holder !== node && context.text(childByField(holder, "name")!) !== "value") return undefined;
  const args = holder.parent;
  if (args?.type !== "argument_list" || args.parent?.type !== "call") return undefined;
  const logCall = args.parent;
  if (context.text(childByField(logCall, "function")!) !== "self.log") return undefined;
  // Only a value known to be a tensor: Lightning rejects a NumPy array, which also has `.item()`.
  const kind = context.analysis.tensorEvidence(call.receiver).kind;
  if (kind !== "gpu" && kind !== "tensor") return undefined;
  if (holder === node && args.children.filter((a) => a.type !== "keyword_argument").indexOf(node) !== 1) return undefined;
  let cls: SyntaxNode | null = logCall.parent;
  while (cls && cls.type !== "class_definition") cls = cls.parent;
  const bases = cls ? childByField(cls, "superclasses") : undefined;
  if (!bases || !bases.children.some((base) => /(^|\.)LightningModule$/.test(context.text(base)))) return undefined;
  // A progress-bar metric logged per step is read on every batch (pytorch-sync-facts.md, Lightning): the fix is
  // still equivalent, but keeps the sync. `on_step` defaults to True in the training hooks only
  // (pytorch-sync-facts.md §7, from Lightning's `_FxValidator`): validation, test and predict hooks log per epoch.
  const keyword = (name: string) => {
    const argument = args.children.find((a) => a.type === "keyword_argument" && context.text(childByField(a, "name")!) === name);
    return argument ? context.text(childByField(argument, "value")!) : undefined;
  };
  const hook = enclosingFunctionName(logCall, context);
  const onStep = keyword("on_step") ?? (/^(training_step|on_train_batch_(start|end)|on_before_backward|backward|on_after_backward|on_before_optimizer_step|optimizer_step|configure_gradient_clipping|clip_gradients|on_before_zero_grad|optimizer_zero_grad)$/.test(hook ?? "") ? "True" : "False");
  const progressBar = (keyword("prog_bar") ?? "False") !== "False" && onStep !== "False";
  const title = progressBar ? "Log the tensor; with prog_bar=True Lightning still reads it on every batch" : "Log the tensor; Lightning reads it when it logs";
  return { title, safe: true, edits: [{ start: node.start, end: node.end, text: context.text(call.receiver) }] };
}

function enclosingFunctionName(node: SyntaxNode, context: RuleContext): string | undefined {
  let fn: SyntaxNode | null = node.parent;
  while (fn && fn.type !== "function_definition") fn = fn.parent;
  const name = fn ? childByField(fn, "name") : undefined;
  return name ? context.text(name) : undefined;
}

/**
 * `total += x.item()` in a loop, where `total` is a Python number only added to in the loop: accumulate on the
 * device and turn the sum back into a Python number once, right after the loop. The result is the same number:
 * counters (`(pred == y).sum()`) add int64 tensors exactly, and losses are added in float64, exactly as Python
 * adds floats, in the same order. A suggestion: the variable is a tensor while the loop runs.
 */
function accumulatorFix(call: MethodCall, context: RuleContext): Fix | undefined {
  const text = context.analysis.source.text;
  const node = call.call;
  const augmented = node.parent;
  if (augmented?.type !== "augmented_assignment" || node.field !== "right" || augmented.tokens[0] !== "+=") return undefined;
  const target = childByField(augmented, "left");
  if (target?.type !== "identifier") return undefined;
  const statement = statementOf(augmented);
  if (!statement || statement.type !== "expression_statement" || statement.children[0] !== augmented) return undefined;
  const loop = enclosingLoop(statement);
  if (!loop) return undefined;
  // An error the `.item()` raises inside a `try` would be raised after the loop instead.
  if (inTry(statement, enclosingScope(statement))) return undefined;
  const kind = accumulatedKind(call.receiver, context);
  if (!kind) return undefined;
  const name = context.text(target);
  const scope = enclosingScope(statement);
  if (scope.type === "lambda" || scope.type === "class_definition" || declaredShared(scope, name, text) || inTry(loop, scope)) return undefined;
  const uses = identifierUses(scope, name, text);
  // A number assigned before the loop (so the line after the loop never reads an unbound name).
  if (!uses.some((use) => use.end <= loop.start && useKind(use) === "assign" && !inNestedScope(use, scope))) return undefined;
  for (const use of uses) {
    if (use === target) continue;
    // Read or written anywhere else in the loop (or by a nested function that the loop could call): no.
    if (contains(loop, use) || inNestedScope(use, scope)) return undefined;
    const how = useKind(use);
    if (how === "read") continue;
    // Every other write keeps it a Python number: `total = 0`, `total += 1`.
    const statementNode = use.parent!;
    const value = childByField(statementNode, "right");
    if ((how === "assign" || how === "augmented") && isNumberLiteral(value, kind === "count")) continue;
    // After the loop (which no other loop repeats) the variable is a Python number again: any update is fine.
    if ((how === "assign" || how === "augmented") && use.start > loop.end && !enclosingLoop(loop)) continue;
    return undefined;
  }
  const replacement = deviceAddend(kind, context.text(call.receiver));
  const after = insertLinesAfter(text, loop, [`${name} = ${name}.item() if torch.is_tensor(${name}) else ${name}`]);
  if (!after) return undefined;
  const edits = [{ start: node.start, end: node.end, text: replacement }, after];
  const torchImport = ensureTorchImport(text, context.analysis.tree.root);
  if (torchImport) edits.push(torchImport);
  return { title: `Accumulate \`${name}\` on the device and read it once after the loop`, safe: false, edits };
}
