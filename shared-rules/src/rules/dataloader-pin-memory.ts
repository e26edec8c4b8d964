import type { Rule, RuleContext } from "../rule";
import { SyntaxNode, childByField, forEachNode, returnStatementsOf, unparenthesized } from "../syntax";
import { identifiersNamed, resolveBinding, scopeOf } from "../analysis/scopes";
import { loopStatementAround } from "../analysis/hot-paths";
import { acceleratePrepared } from "../analysis/tensor-evidence";
import { enclosingClassOf, enclosingFunctionOf } from "../syntax";
import { DEVICE_NAME, lastName } from "../analysis/names";
import { MethodCall, calleeName, keyword, methodCall, nonBlockingArgument, positional } from "./support";
import type { Fix } from "../rule";
import { addKeywordArgument, replaceNode, safeFixes } from "../fixes/edits";

/** A `DataLoader` whose batches this file moves to a GPU, built without `pin_memory=True`. */
export const dataloaderPinMemory: Rule = {
  meta: {
    name: "dataloader-pin-memory",
    code: "SYN202",
    category: "host-device transfer",
    defaultSeverity: "warning",
    description: "A `DataLoader` created without `pin_memory=True` (where the default options build it) whose batches are moved to a GPU in this file (the batch itself, or what is read from it: `batch[\"img\"]`, `x, y = batch`, not a tensor computed beside it), or that is handed to another file's function together with a GPU device, or to `accelerator.prepare(...)`, which moves its batches, or that a Lightning `train_dataloader`-style hook builds for the Trainer to move, or that a function returns to another function of the file, or to another file of the project, which moves its batches (`data_loader = get_loader(...)`).",
    hotPathOnly: false,
    breaksCompiledGraph: false,
    fixable: true,
    hasSuggestions: false,
    messages: {
      pin: "`DataLoader` without `pin_memory=True`: its batches are moved to the GPU at line {{line}}, and copies from pageable memory cannot overlap with compute.",
      pinBlocking: "`DataLoader` without `pin_memory=True`: its batches are moved to the GPU at line {{line}} with a blocking copy; pin them and pass `non_blocking=True` there, so that the copy can overlap with compute.",
      pinPassed: "`DataLoader` without `pin_memory=True`: `{{callee}}()` is given it with the GPU device `{{device}}` at line {{line}}, to move its batches there, and copies from pageable memory cannot overlap with compute.",
      pinElsewhere: "`DataLoader` without `pin_memory=True`: `{{factory}}()` returns it, and {{where}}; copies from pageable memory cannot overlap with compute.",
      pinLightning: "`DataLoader` without `pin_memory=True`: Lightning's Trainer takes it from `{{hook}}()` and moves each batch to the GPU with `.to(device, non_blocking=True)`, which from pageable memory cannot overlap with compute.",
      pinPrepared: "`DataLoader` without `pin_memory=True`: `{{callee}}()` at line {{line}} makes it move each batch to the GPU (accelerate's `send_to_device`), a blocking copy from pageable memory; pin it, and pass `dataloader_config=DataLoaderConfiguration(non_blocking=True)` to the `Accelerator`, so the copy can overlap with compute.",
    },
    mechanism: [
      "**Pageable batches** — without `pin_memory=True` each batch lives in pageable host memory.",
      "**Copies from pageable memory** — the CUDA driver may stage them through pinned memory and synchronize, even with `non_blocking=True`.",
      "**With pinning** — a separate pin-memory thread pins each batch, so the main thread can queue `.to(device, non_blocking=True)` and move on.",
    ],
    docs: {
      why:
        "Copies from pageable host memory cannot run asynchronously: the driver may stage them through a pinned buffer and synchronize. " +
        "`DataLoader(pin_memory=True)` pins each batch in a background thread, so the training loop can copy with `non_blocking=True` and keep the GPU busy.",
      example: ["loader = DataLoader(dataset, batch_size=64, num_workers=4)", "for x, y in loader:", "    x = x.to(device, non_blocking=True)"].join("\n"),
      useInstead: ["loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)  # the fix adds `pin_memory=True`", "for x, y in loader:", "    x = x.to(device, non_blocking=True)"].join("\n"),
      fixSafety: "Adding `pin_memory=True` (or turning `pin_memory=False` into `True`) changes where batches are allocated, not their values: a safe fix, applied by `--fix`. " +
        "It is not offered when the dataset may already hold GPU tensors (its expression mentions a device), since pinning those raises.",
      facts: ["§3 pageable source with `non_blocking=True`", "§3 DataLoader `pin_memory=True`", "§7 accelerate's prepared DataLoader moves each batch with a blocking copy by default", "§7 Lightning's Trainer moves each batch with `non_blocking=True`, whatever the loader's memory"],
    },
  },
  create(context) {
    return {
      call(node) {
        const name = calleeName(node, context);
        if (!name || !/(^|\.)(Stateful)?DataLoader$/.test(name)) return;
        const pin = keyword(node, "pin_memory", context);
        if (pin && unparenthesized(pin).type !== "false") return; // True, or a value the user controls
        if (positional(node).length >= 9) return; // passed positionally
        if (childByField(node, "arguments")?.children.some((a) => a.type === "dictionary_splat")) return; // may come from **kwargs
        // `if args.train_subset: train_loader = DataLoader(...)` with the option off by default.
        if (context.analysis.hotPaths.neverRunsByDefault(node)) return;
        const move = deviceMoveOfBatches(node, context) ?? movedThroughFactory(node, context);
        const prepare = move ? undefined : preparedByAccelerate(node, context);
        const where = move?.node ?? prepare;
        const callee = childByField(node, "function")!;
        const fixes = () => safeFixes(() => (datasetMayBeOnDevice(node, context) ? [] : pinMemoryFix(node, pin)));
        // A test's Trainer runs a few batches, often on the CPU.
        const hook = where || context.runsOncePerUse ? undefined : lightningDataHook(node, context);
        if (hook) {
          context.report({ node, range: { start: callee.start, end: node.end }, messageId: "pinLightning", data: { hook }, fixes: fixes() });
          return;
        }
        const elsewhere = where ? undefined : movedByAnotherFile(node, context);
        if (elsewhere) {
          context.report({ node, range: { start: callee.start, end: node.end }, messageId: "pinElsewhere", data: elsewhere, fixes: fixes() });
          return;
        }
        if (!where) return;
        const line = String(context.analysis.source.position(where.start).line + 1);
        const called = () => context.text(childByField(where, "function")!);
        const [messageId, data] = prepare
          ? ["pinPrepared", { line, callee: called() }]
          : move?.device ? ["pinPassed", { line, callee: called(), device: context.text(move.device) }] : [blockingMove(where, context) ? "pinBlocking" : "pin", { line }];
        context.report({ node, range: { start: callee.start, end: node.end }, messageId, data, fixes: fixes() });
      },
    };
  },
};

/** `x.to(device)`, `x.cuda()` without `non_blocking=True`: pinning alone lets that copy overlap with nothing. */
function blockingMove(move: SyntaxNode, context: RuleContext): boolean {
  const call = methodCall(move, context);
  if (call?.method !== "to" && call?.method !== "cuda") return false;
  // `x.cuda(device, True)`, `x.to(device, dtype, True)`, `x.to(**options)`: what is passed is not known here.
  if (positional(move).length >= (call.method === "cuda" ? 2 : 3) || childByField(move, "arguments")?.children.some((a) => a.type === "dictionary_splat")) return false;
  const nonBlocking = nonBlockingArgument(move, context);
  return !nonBlocking || unparenthesized(nonBlocking).type === "false";
}

/**
 * Pinning a batch that is already on a GPU raises, so no fix is offered when the dataset may hold device
 * tensors: its expression (or the assignment of its name) mentions a device, `.cuda(` or `.to(`.
 */
function datasetMayBeOnDevice(call: SyntaxNode, context: RuleContext): boolean {
  const dataset = keyword(call, "dataset", context) ?? positional(call)[0];
  if (!dataset) return true;
  const mentionsDevice = (text: string) => /cuda|device|\.to\(|\bgpu\b|\bmps\b/i.test(text);
  if (mentionsDevice(context.text(dataset))) return true;
  const node = unparenthesized(dataset);
  if (node.type === "identifier") {
    const binding = resolveBinding(context.text(node), node.start, scopeOf(node, context.analysis.scopes));
    if (binding?.value && mentionsDevice(context.text(binding.value))) return true;
  }
  return false;
}

/**
 * The `accelerator.prepare(...)` of the loader's scope that is given the loader by name: accelerate's
 * `DataLoaderShard` then moves each batch with `send_to_device(batch, device, non_blocking=False)` unless the
 * `Accelerator` is configured with `DataLoaderConfiguration(non_blocking=True)` (pytorch-sync-facts.md §7).
 */
function preparedByAccelerate(call: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  const target = loaderTarget(call);
  if (!target) return undefined;
  const name = context.text(target);
  let prepare: SyntaxNode | undefined;
  forEachNode(scopeOf(call, context.analysis.scopes).node, (node) => {
    if (prepare || node.type !== "call" || node.start < call.end) return;
    if (acceleratePrepared(node, context.analysis.source.text)?.some((argument) => context.text(unparenthesized(argument)) === name)) prepare = node;
  });
  return prepare;
}

/** The loader's factory (`loaderFactoryOf`), when another file of the project moves its batches to a GPU (`LoaderFactory`): what to say of where. */
function movedByAnotherFile(call: SyntaxNode, context: RuleContext): { factory: string; where: string } | undefined {
  const fn = loaderFactoryOf(call, context);
  const where = fn && context.analysis.hotPaths.loaderMovedBy(fn);
  return fn && where ? { factory: context.text(childByField(fn, "name")!), where } : undefined;
}

/** The function that builds the loader and returns it (`return DataLoader(...)`, or the name it is assigned to). */
function loaderFactoryOf(call: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  const fn = enclosingFunctionOf(call);
  if (!fn) return undefined;
  const target = loaderTarget(call);
  const returned = returnStatementsOf(fn).some((statement) => {
    const value = statement.children[0] && unparenthesized(statement.children[0]);
    return value === call || (!!target && !!value && context.text(value) === context.text(target));
  });
  return returned ? fn : undefined;
}

/**
 * `def create_data_loader(...): ...; return data_loader`, then `data_loader = create_data_loader(...)` in a
 * function of the same file whose loop moves its batches to a GPU (LLaVA's `model_vqa_loader.py`).
 */
function movedThroughFactory(call: SyntaxNode, context: RuleContext): BatchMove | undefined {
  const fn = loaderFactoryOf(call, context);
  const name = fn && enclosingFunctionOf(fn) === undefined && !enclosingClassOf(fn) ? context.text(childByField(fn, "name")!) : undefined;
  if (!name) return undefined;
  for (const identifier of identifiersNamed(context.analysis.source.text, name, context.analysis.tree.root)) {
    const made = identifier.field === "function" ? identifier.parent : undefined;
    const assigned = made?.type === "call" && made.field === "right" && made.parent?.type === "assignment" ? childByField(made.parent, "left") : undefined;
    if (!assigned || (assigned.type !== "identifier" && assigned.type !== "attribute")) continue;
    const move = loopMovingBatches(scopeOf(made!, context.analysis.scopes).node, context.text(assigned), context, 1);
    if (move) return move;
  }
  return undefined;
}

/** The DataLoader hooks of a `LightningModule` or a `LightningDataModule`: the Trainer moves the batches of the loaders they return. */
const LIGHTNING_DATA_HOOK = /^(train|val|test|predict)_dataloader$/;

/**
 * The hook (`train_dataloader`) of a class that subclasses Lightning's `LightningModule` or `LightningDataModule`
 * in which `call` builds a loader: the Trainer moves each batch of it to the module's device with
 * `non_blocking=True` (`move_data_to_device`).
 */
function lightningDataHook(call: SyntaxNode, context: RuleContext): string | undefined {
  const fn = enclosingFunctionOf(call);
  if (!fn) return undefined;
  // A method of the class itself, decorated or not.
  const member = fn.parent?.type === "decorated_definition" ? fn.parent : fn;
  const owner = member.parent?.type === "block" && member.parent.parent?.type === "class_definition" ? member.parent.parent : undefined;
  const bases = owner && childByField(owner, "superclasses");
  if (!owner || !bases || !/\bLightning(Data)?Module\b/.test(context.text(bases))) return undefined;
  const name = context.text(childByField(fn, "name")!);
  if (LIGHTNING_DATA_HOOK.test(name)) return name;
  // `self.train_dataloader = self._train_dataloader` in `__init__` (taming-transformers' `DataModuleFromConfig`).
  let hook: string | undefined;
  forEachNode(owner, (node) => {
    if (hook || node.type !== "assignment") return;
    const left = childByField(node, "left");
    const right = childByField(node, "right");
    const target = left && /^self\.(\w+)$/.exec(context.text(left))?.[1];
    if (target && LIGHTNING_DATA_HOOK.test(target) && right && context.text(right) === `self.${name}`) hook = target;
  });
  return hook;
}

/** The name or attribute the loader built by `call` is assigned to (`train_loader = DataLoader(...)`), if it is. */
function loaderTarget(call: SyntaxNode): SyntaxNode | undefined {
  const assignment = call.parent?.type === "assignment" && call.field === "right" ? call.parent : undefined;
  const target = assignment ? childByField(assignment, "left") : undefined;
  return target && (target.type === "identifier" || target.type === "attribute") ? target : undefined;
}

/** `pin_memory=True` in place of `pin_memory=False`, or added as the last argument. */
function pinMemoryFix(call: SyntaxNode, pin: SyntaxNode | undefined): Fix[] {
  const edit = pin ? replaceNode(pin, "True") : addKeywordArgument(call, "pin_memory=True");
  return edit ? [{ title: "Add `pin_memory=True` to the `DataLoader`", safe: true, edits: [edit] }] : [];
}

const COMPREHENSIONS = new Set(["list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"]);

/** Helpers that move a batch to a device by their name. */
const DEVICE_MOVE_HELPER = /^(batch_)?to_(device|cuda|gpu)$|^move_(batch_)?to_(device|cuda|gpu)$/;

/** Where the batches go to a GPU: a move, or a call of another file's function that is given the loader and a GPU `device`. */
export interface BatchMove {
  node: SyntaxNode;
  device?: SyntaxNode;
}

/**
 * Where batches of the loader built by `call` are moved to a device: the loader is assigned to a name that a
 * loop of this file iterates, directly or after being passed to a function of this file, or draws from with
 * `next()` (also through `iter(loader)` or a generator over it); moved with `.to(device)`, `.cuda()`,
 * `.type(torch.cuda.FloatTensor)` or a helper named so (`batch_to_device`, `move_to_device`). Or the loader is
 * passed to a function this file does not define together with a GPU device (`train_one_epoch(model,
 * criterion, data_loader_train, optimizer, device, epoch)`): the function is given the device to move the
 * batches there.
 */
export function deviceMoveOfBatches(call: SyntaxNode, context: RuleContext): BatchMove | undefined {
  const target = loaderTarget(call);
  if (!target) return undefined;
  const name = context.text(target);
  // `self.loader = DataLoader(...)` in `__init__` is iterated by other methods of the class.
  const owner = target.type === "attribute" && name.startsWith("self.") ? enclosingClassOf(call) : undefined;
  return loopMovingBatches(owner ?? scopeOf(call, context.analysis.scopes).node, name, context, 0);
}

function loopMovingBatches(scopeNode: SyntaxNode, loaderName: string, context: RuleContext, depth: number): BatchMove | undefined {
  const stack = [...scopeNode.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ((node.type === "function_definition" || node.type === "class_definition") && scopeNode.type !== "module" && scopeNode.type !== "class_definition") continue;
    stack.push(...node.children);
    if (node.type === "for_statement") {
      const iterable = childByField(node, "right");
      const target = childByField(node, "left");
      // `for i, x in enumerate(test_loader): ... if i == 7: break`: a few batches drawn once; pinning saves nothing.
      if (iterable && target && iterates(iterable, loaderName, context) && !context.analysis.hotPaths.makesFewPasses(node)) {
        const move = firstDeviceMove(node, identifiersOf(target, context), context);
        if (move) return { node: move };
      }
    }
    if (node.type === "call") {
      // `batch = next(data_iter)` in a loop that moves it: `for step in range(n): x = next(it).to(device)`.
      const [source] = positional(node);
      const loop = source && context.text(childByField(node, "function")!) === "next" && iterates(source, loaderName, context) ? loopStatementAround(node) : undefined;
      const move = loop && firstDeviceMove(loop, batchNamesOfNext(node, context), context, node);
      if (move) return { node: move };
    }
    // `data_iter = iter(loader)`, `loader = sample_data(loader)` (a generator over it): its batches under another name.
    if (node.type === "assignment" && depth < 2) {
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      const renamed = left && right && (left.type === "identifier" || left.type === "attribute") && unparenthesized(right).type === "call" && iterates(right, loaderName, context) ? context.text(left) : undefined;
      const moved = renamed && renamed !== loaderName ? loopMovingBatches(scopeNode, renamed, context, depth + 1) : undefined;
      if (moved) return moved;
    }
    if (node.type === "call" && depth < 2) {
      const moved = passedToFunction(node, loaderName, context, depth);
      if (moved) return moved;
    }
  }
  return undefined;
}


/** `for ... in loader`, `enumerate(loader)`, `tqdm(loader)`, `zip(loader, ...)`. */
function iterates(iterable: SyntaxNode, loaderName: string, context: RuleContext): boolean {
  const node = unparenthesized(iterable);
  if (context.text(node) === loaderName) return true;
  // `len(loader)` counts batches; it yields none.
  if (node.type !== "call" || context.text(childByField(node, "function")!) === "len") return false;
  return positional(node).some((argument) => iterates(argument, loaderName, context));
}

/**
 * The first move of the loop's batches to a GPU: of a value read from the loop's batch names (`batch`, `x, y`,
 * or what `next(loader)` gave), directly or through assignments in the loop (`images = data[0]`, `x, y =
 * batch`, `img = get_input(batch, "image")`), or of the `next(...)` call itself. What a model computes from the
 * batch (`model.encode(batch)`) or what a batch of indices selects (`data.x[idx]`) is no batch, and other moves
 * in the loop (a `randn_like(...)`, a scheduler's table) say nothing of the batches; nor does a move under a
 * branch that never runs with the default options.
 */
function firstDeviceMove(loop: SyntaxNode, batchNames: Set<string>, context: RuleContext, nextCall?: SyntaxNode): SyntaxNode | undefined {
  const body = childByField(loop, "body");
  if (!body) return undefined;
  const reachesBatch = (value: SyntaxNode) => {
    if (value === nextCall) return true;
    const root = rootOf(value);
    if (root.type === "identifier") return batchNames.has(context.text(root));
    if (root.type === "tuple" || root.type === "list") return root.children.some(reachesBatch);
    // `img = get_input(batch, "image")`: a helper that picks from the batch, unless what it gives is a model's output.
    if (root.type === "call" && childByField(root, "function")?.type === "identifier") return positional(root).some(reachesBatch) && context.analysis.tensorEvidence(root).kind !== "gpu";
    return false;
  };
  const stack = [body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!node) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    // `inputs, labels = data`, `x = batch["img"].float()`: names of the batch too (in source order, as the walk
    // goes); and `{k: v.to(device) for k, v in batch.items()}`, whose clauses come after the element they bind.
    const bindings = node.type === "assignment" ? [node] : COMPREHENSIONS.has(node.type) ? node.children.filter((child) => child.type === "for_in_clause") : [];
    for (const binding of bindings) {
      const [left, right] = [childByField(binding, "left"), childByField(binding, "right")];
      if (left && right && reachesBatch(right)) for (const name of identifiersOf(left, context)) batchNames.add(name);
    }
    if (node.type !== "call") continue;
    const move = deviceMoveOf(node, context);
    if (move && reachesBatch(move) && !context.analysis.hotPaths.neverRunsByDefault(node)) return node;
  }
  return undefined;
}

/** What `call` moves to a GPU, if it moves something there: the receiver of `.to(device)`, `.cuda()`, `.type(cuda type)`, or a helper's first argument. */
function deviceMoveOf(node: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  const call = methodCall(node, context);
  const moved = movedBy(node, call, context);
  // Batches a prepared loader (accelerate, Fabric) already put on the device: `.to(device)` moves nothing. Asked
  // only of moves: the walk meets every call of the loop.
  return moved && !(call && context.analysis.tensorEvidence(call.receiver).kind === "gpu") ? moved : undefined;
}

function movedBy(node: SyntaxNode, call: MethodCall | undefined, context: RuleContext): SyntaxNode | undefined {
  if (call?.method === "cuda") return call.receiver;
  // `batch = batch_to_device(batch, device)`, `move_to_device(batch, device)`: a helper that moves the batch.
  const callee = childByField(node, "function");
  if (callee && DEVICE_MOVE_HELPER.test(lastName(context.text(callee)))) return positional(node)[0];
  // `imgs.type(Tensor)` with `Tensor = torch.cuda.FloatTensor if cuda else ...`.
  if (call && context.analysis.evidence.cudaTypeCast(node) && positional(node).length === 1) return call.receiver;
  if (call?.method === "to") {
    const target = context.analysis.evidence.deviceArgument(node);
    if (target && context.analysis.evidence.deviceOf(target) === "gpu") return call.receiver;
  }
  return undefined;
}

/** What a value is read from: `batch` for `batch["img"].float()[0]`, `v` for `v.to(device)`; a call of a function (`model(batch)`) is its own root. */
function rootOf(raw: SyntaxNode): SyntaxNode {
  let node = unparenthesized(raw);
  for (;;) {
    if (node.type === "subscript" || node.type === "attribute") node = unparenthesized(childByField(node, node.type === "subscript" ? "value" : "object")!);
    else if (node.type === "call" && childByField(node, "function")?.type === "attribute") node = unparenthesized(childByField(childByField(node, "function")!, "object")!);
    else return node;
  }
}

/** The names bound by `batch = next(it)` (or `x, y = next(it)`, or used in place: `next(it).to(device)`). */
function batchNamesOfNext(call: SyntaxNode, context: RuleContext): Set<string> {
  const assignment = call.parent?.type === "assignment" && call.field === "right" ? call.parent : undefined;
  const left = assignment && childByField(assignment, "left");
  return left ? identifiersOf(left, context) : new Set();
}

function identifiersOf(root: SyntaxNode, context: RuleContext): Set<string> {
  const names = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "identifier") names.add(context.text(node));
    // `x.to`: the attribute's name is no value of the loop.
    else if (node.type === "attribute") stack.push(childByField(node, "object")!);
    else stack.push(...node.children);
  }
  return names;
}

/**
 * `train(model, loader)` where `train` is defined in this file: follow the loader into its parameter. Where it
 * is not (`engine.train_one_epoch(model, loader, optimizer, device)`), a GPU device passed beside the loader says
 * where its batches go.
 */
function passedToFunction(call: SyntaxNode, loaderName: string, context: RuleContext, depth: number): BatchMove | undefined {
  const args = childByField(call, "arguments")?.children ?? [];
  const valueOf = (argument: SyntaxNode) => (argument.type === "keyword_argument" ? childByField(argument, "value") : argument);
  const index = args.findIndex((argument) => {
    const value = valueOf(argument);
    return !!value && context.text(value) === loaderName;
  });
  if (index < 0) return undefined;
  const callee = childByField(call, "function");
  if (!callee || (callee.type !== "identifier" && callee.type !== "attribute")) return undefined;
  const binding = callee.type === "identifier" ? resolveBinding(context.text(callee), callee.start, scopeOf(callee, context.analysis.scopes)) : undefined;
  if (binding?.kind === "import" || (callee.type === "attribute" && !context.text(callee).startsWith("self."))) {
    const device = args.map(valueOf).find((value) => !!value && value.type === "identifier" && DEVICE_NAME.test(context.text(value)) && context.analysis.evidence.deviceOf(value) === "gpu");
    return device ? { node: call, device } : undefined;
  }
  if (binding?.kind !== "function" || !binding.value) return undefined;
  const fn = binding.value;
  const argument = args[index];
  const parameterName = argument.type === "keyword_argument" ? context.text(childByField(argument, "name")!) : parameterAt(fn, index, context);
  if (!parameterName) return undefined;
  return loopMovingBatches(childByField(fn, "body") ?? fn, parameterName, context, depth + 1);
}

function parameterAt(fn: SyntaxNode, index: number, context: RuleContext): string | undefined {
  const parameters = childByField(fn, "parameters")?.children ?? [];
  const parameter = parameters[index];
  if (!parameter) return undefined;
  const nameNode = parameter.type === "identifier" ? parameter : childByField(parameter, "name") ?? parameter.children.find((c) => c.type === "identifier");
  return nameNode ? context.text(nameNode) : undefined;
}

