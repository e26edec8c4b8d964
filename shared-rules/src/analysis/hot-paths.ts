/**
 * How often does a line run? The step loop, a `forward`, a `*_step` method or a function they call runs
 * once per training step; a periodic guard (`if step % 100 == 0:`) or the body of an epoch loop outside
 * its step loop runs rarely. Rules report hot sites; the strict preset also reports the rest.
 */
import { SyntaxNode, childByField, contains, enclosingClassOf, enclosingFunctionOf, forEachNode, nodeAt, ownString, parameterName, returnStatementsOf, someNode, topLevelStatementOf, unparenthesized } from "../syntax";
import { TensorEvidence, argumentValues, isContainerEntry, isStringNode, isTensorKind, keywordArgument, movedToGpu, positionalArguments, stringValue } from "./tensor-evidence";
import {
  ACCUMULATION_NAME, CLOCK_FUNCTION, CLOCK_READING_NAME, COUNTER_NAME, CUDA_FLAG_NAME, DATA_ITERABLE_NAME, ELAPSED_TIME_NAME, ENVIRONMENT_NAME, EPOCH_NAME, TIME_INTERVAL_NAME, LOOP_FUNCTION_NAME, MODEL_INPUT_METHOD, MODULE_NAME, MODULE_SETUP_METHOD, OPTIMIZER_NAME, OPTIONS_NAME, PERIODIC_FLAG_NAME, REPLAY_BUFFER_CLASS, SOLVER_ITERATION_NAME, SPEED_MEASUREMENT_NAME, STEP_COUNT_NAME, WEIGHT_LOADING_NAME, attributeWrites, lastName, mayDefineOptions, OFF_LITERAL, optionGetattrReads, optionReads, setsAnyOption,
} from "./names";
import { Binding, assignedValue, identifiersNamed, resolveBinding, scopeOf, Scopes } from "./scopes";
import { ArgumentKind, HotEntries, HotEntry, importableName } from "./cross-file";
import { InstanceCall, InstanceSource, isProperty, methodCallsOn } from "./instances";

export type LoopKind = "step" | "epoch" | "other";

export type CompiledRegion = "torch.compile" | "cuda-graph";

export interface SiteContext {
  hot: boolean;
  /** Where the site is, as a phrase: "in the step loop of `train()` (line 13)". */
  where: string;
  /** How often it runs, as a phrase: "every step". */
  frequency: string;
  /** Why the site is (not) considered hot, for hovers and `--explain`. */
  reason: string;
  compiled?: CompiledRegion;
  /** The loop that makes the site hot, if a loop does. */
  loop?: SyntaxNode;
  /**
   * Hot only because it is in a loop that is neither a step loop nor in a per-step function (a loop over a
   * state dict, a list of metrics): the engine reports it only on positive GPU evidence.
   */
  plainLoop?: boolean;
  /**
   * Hot because code whose values may be assumed to live on a GPU calls it: another file's hot site, a module
   * whose `forward` it replaces, or `generate()` (a logits processor's `__call__`).
   */
  gpuCaller?: boolean;
  /**
   * The plain loop runs without autograd (`@torch.no_grad()`, `with torch.inference_mode():`), or a function it
   * calls does: post-processing of a model's outputs (a per-image threshold, an NMS `while` loop), so a value
   * known to be a tensor there may be taken to be on the GPU.
   */
  withoutGrad?: boolean;
  /** What the calls that make this function hot pass, where they agree (`agreedArguments`), for the function's branches. */
  arguments?: PassedArguments;
  /** No call that makes this function hot (from other files) passes anything that may be a tensor. */
  tensorFree?: boolean;
}

/** What a call passes, as far as the callee's branches can use it. */
/** An attribute an object keeps from a parameter of its `__init__`, and what each construction of its class passes. */
interface ConstructorOption {
  init: SyntaxNode;
  parameter: Binding;
  constructions: PassedArguments[];
}

export interface PassedArguments {
  /** How many positional arguments. */
  positional: number;
  /** Keyword arguments: the literal (`False`, `None`, `3`, `"cpu"`), or null for any other expression. */
  keywords: Record<string, string | null>;
  /** It passes `*args` or `**kwargs`: nothing is known of the parameters they may fill. */
  spread: boolean;
}


const LITERAL_TYPES = new Set(["true", "false", "none", "integer", "float", "string"]);

export function passedArguments(call: SyntaxNode, text: string): PassedArguments {
  const passed: PassedArguments = { positional: 0, keywords: {}, spread: false };
  for (const argument of childByField(call, "arguments")?.children ?? []) {
    if (argument.type === "list_splat" || argument.type === "dictionary_splat") passed.spread = true;
    else if (argument.type === "keyword_argument") {
      const name = childByField(argument, "name");
      const value = childByField(argument, "value");
      if (name && value) passed.keywords[text.slice(name.start, name.end)] = LITERAL_TYPES.has(value.type) ? text.slice(value.start, value.end) : null;
    } else passed.positional++;
  }
  return passed;
}

/** An argparse option's default, as written: `--save-txt` with `action="store_true"` defaults to `False`. */
export interface OptionDefault {
  flag: string;
  value: string;
  line: number;
  /** `None` because the option names no default and no action: a value the user is expected to give. */
  implicit: boolean;
  /** The file that defines the option, relative to this one (`../opts.py`), when another file does. */
  file?: string;
}

/** A test of a bare name: `p`, `not p`, `p is None`, `p is not None`, `p == "mean"`, `p != 0`. */
interface NameTest {
  name: string;
  kind: "truthy" | "falsy" | "none" | "not-none" | "equals" | "not-equals";
  literal?: string;
}

/** Whether `test` holds when its name has the literal `value` (as written). */
function nameTestHolds(test: NameTest, value: string): boolean {
  if (test.kind === "truthy") return isTruthyLiteral(value);
  if (test.kind === "falsy") return !isTruthyLiteral(value);
  if (test.kind === "none") return value === "None";
  if (test.kind === "not-none") return value !== "None";
  return sameLiteral(value, test.literal!) === (test.kind === "equals");
}

/** Python's `==` of two literals as written (`"none" == 'none'`, `1 == 1.0 == True`); a string never equals a number. */
function sameLiteral(a: string, b: string): boolean {
  const stringValue = (literal: string) => (/^[rRuU]?["']/.test(literal) ? literal.replace(/^[rRuU]?("""|'''|"|')/, "").replace(/("""|'''|"|')$/, "") : undefined);
  const [stringA, stringB] = [stringValue(a), stringValue(b)];
  if (stringA !== undefined || stringB !== undefined) return stringA === stringB;
  const numeric = (literal: string) => (literal === "True" ? 1 : literal === "False" ? 0 : Number(literal.replace(/_/g, "")));
  const [numberA, numberB] = [numeric(a), numeric(b)];
  if (!Number.isNaN(numberA) && !Number.isNaN(numberB)) return numberA === numberB;
  return a === b;
}

/**
 * What several calls of one function all pass alike: a keyword is a literal only where every call passes that
 * literal, absent where none passes it, and unknown (null) otherwise; a parameter any call fills by position
 * is unknown.
 */
export function agreedArguments(calls: PassedArguments[]): PassedArguments | undefined {
  if (calls.length <= 1) return calls[0];
  const names = new Set(calls.flatMap((call) => Object.keys(call.keywords)));
  const keywords: Record<string, string | null> = {};
  for (const name of names) {
    const values = calls.map((call) => (Object.prototype.hasOwnProperty.call(call.keywords, name) ? call.keywords[name] : undefined));
    keywords[name] = values.every((value) => value !== undefined && value !== null && sameLiteral(value, values[0]!)) ? values[0]! : null;
  }
  return { positional: Math.max(...calls.map((call) => call.positional)), keywords, spread: calls.some((call) => call.spread) };
}

/** Methods that list a model's weights: `parameters()`, `named_buffers()`, `state_dict()`. */
const WEIGHT_ITERATORS = /^(named_)?(parameters|buffers)$|^state_dict$/;
const LOOP_TYPES = new Set(["for_statement", "while_statement", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"]);
/** A trainer's method that runs one training step (StableCascade's `self.backward_pass(...)`, `trainer.train_step(batch)`). */
const TRAINING_STEP_METHOD = /^(backward_pass|forward_backward|forward_backward_pass|train_step|training_step|train_batch|train_on_batch)$/;
/** A model's own loss method (`model.loss(scores, labels)`). */
const LOSS_METHOD = /^(loss|get_loss|calc_loss|calculate_loss|compute_losses|loss_fn|loss_function)$/;
const STEP_HOOK = /^(on_(train|validation|test|predict)_batch_(start|end)|on_before_backward|on_after_backward|on_before_optimizer_step|on_before_zero_grad|optimizer_step|training_step_end|validation_step_end)$/;
const MAX_CALL_DEPTH = 3;
/** `module.register_forward_hook(`, `tensor.register_hook(`, `register_full_backward_pre_hook(` and the rest. */
const HOOK_REGISTRATION = /\.register_(?:module_)?(?:full_)?(?:forward_pre_|forward_|backward_pre_|backward_|post_accumulate_grad_)?hook\s*\(/g;
/** `if self.autobalance:`, `and not self.training`: an attribute of `self` a test reads. */
const TESTED_SELF_ATTRIBUTE = /\b(?:if|elif|and|or|not)\s+(?:not\s+)?self\.(\w+)\b/g;
/** `functools.partial`, however imported (`qualifiedName` resolves the import). */
const PARTIAL = "functools.partial";
/** Environment variables that launchers and schedulers set: their defaults say nothing of a run. */
const LAUNCHER_VARIABLE = /RANK|WORLD|SLURM|MASTER|LOCAL|NODE|CUDA|DEVICE|GPU|OMPI|PMI/i;
/** Tests that hold only under TorchScript or while Dynamo, FX or ONNX export traces a graph. */
const TRACING_TEST = /^torch\.(jit\.(is_scripting|is_tracing)|compiler\.is_compiling|_dynamo\.is_compiling|fx\._symbolic_trace\.is_fx_tracing|onnx\.is_in_onnx_export)$/;
/** Hugging Face generation callbacks, whose `__call__` runs once per generated token. */
const GENERATION_CALLBACK = /LogitsProcessor|LogitsWarper|StoppingCriteria/;

interface LoopEvent {
  loop: SyntaxNode;
  kind: LoopKind;
}
interface GuardEvent {
  guard: SyntaxNode;
}
type Event = LoopEvent | GuardEvent;

export interface HotPathEnvironment {
  text: string;
  root: SyntaxNode;
  scopes: Scopes;
  evidence: TensorEvidence;
  lineOf(offset: number): number;
  extraStepFunctions: ReadonlySet<string>;
  /** The top-level statements that mention a name (where its call sites can be), if known. */
  statementsMentioning?: (name: string) => ReadonlySet<SyntaxNode> | undefined;
  /** This file's functions that other files call from hot paths. */
  hotEntries?: HotEntries;
}

/** What a text that waits for its user holds (`waitsForUser`). */
const USER_WAIT_TEXT = /\b((raw_)?input|waitKey|show|waitforbuttonpress)\s*\(/;
/** Expressions a branch's condition is built of, around a test of one option. */
const CONDITION_PART = new Set(["boolean_operator", "not_operator", "comparison_operator", "parenthesized_expression"]);

/** Where code runs on some iterations only: a branch, a handler, a nested loop, a short-circuit. */
const CONDITIONAL_PART = new Set(["if_statement", "elif_clause", "else_clause", "except_clause", "except_group_clause", "conditional_expression", "boolean_operator", "match_statement", "for_statement", "while_statement", "lambda"]);

export class HotPaths {
  private readonly loopKinds = new Map<SyntaxNode, LoopKind>();
  private readonly functionContexts = new Map<SyntaxNode, SiteContext>();
  private readonly functionHasStepLoop = new Map<SyntaxNode, boolean>();
  /** Call sites found so far, per function name, and per class and method name. */
  private readonly callSites = new Map<string, SyntaxNode[]>();
  private readonly methodCallSites = new Map<SyntaxNode, Map<string, SyntaxNode[]>>();
  private callSiteQuestions = 0;
  private indexedAllCalls = false;
  private options: Map<string, OptionDefault> | undefined;
  /** Compiled functions, by how: `torch.compile` (Dynamo: a sync breaks the graph) or TorchScript (a sync is a sync). */
  private compiledFunctions: Map<SyntaxNode, "torch.compile" | "TorchScript"> | undefined;
  private patchedForwards: Map<SyntaxNode, SyntaxNode> | undefined;
  private readonly inProgress = new Set<SyntaxNode>();
  private readonly loopsInProgress = new Set<SyntaxNode>();
  /** Per class, the calls of its methods on its instances, by method name. */
  private readonly instanceSites = new Map<SyntaxNode, Map<string, SyntaxNode[]>>();
  /** Functions of this file that run a model in their own body (memo of `callsModelRunner`). */
  private readonly modelRunners = new Map<SyntaxNode, boolean>();

  constructor(private readonly env: HotPathEnvironment) {}

  /** What following calls on instances needs of this file (`instances.ts`), for this analysis and the project's links. */
  get instanceSource(): InstanceSource {
    return (this.instanceSourceMemo ??= { text: this.env.text, scopes: this.env.scopes, localFunction: (call) => this.localFunction(call), parameterFor: (fn, call, argument) => this.parameterFor(fn, call, argument) });
  }
  private instanceSourceMemo: InstanceSource | undefined;

  private text(node: SyntaxNode): string {
    return this.env.text.slice(node.start, node.end);
  }

  private line(node: SyntaxNode): number {
    return this.env.lineOf(node.start) + 1;
  }

  /** How often `site` runs, and why. */
  contextOf(site: SyntaxNode, depth = 0): SiteContext {
    const unreferenced = this.unreferencedClassAround(site);
    if (unreferenced) return this.cold(this.functionLabel(enclosingFunctionOf(site)), unreferenced);
    const events: Event[] = [];
    let fn: SyntaxNode | undefined;
    let capture: SyntaxNode | undefined;
    let child = site;
    for (let ancestor = site.parent; ancestor; child = ancestor, ancestor = ancestor.parent) {
      if (ancestor.type === "function_definition") {
        fn = ancestor;
        break;
      }
      if (ancestor.type === "class_definition") break;
      // `to_np = lambda t: t.cpu().numpy()`: the body runs where the name is called, not where the lambda is made.
      if (ancestor.type === "lambda" && child.field === "body") {
        const hook = this.hookRegistrations().get(ancestor);
        if (hook) return this.hookContext(`the lambda at line ${this.line(ancestor)}`, hook);
        const called = this.namedLambdaContext(ancestor, depth);
        if (called) return called;
      }
      // An exception handler runs when something failed, not on every step.
      if ((ancestor.type === "except_clause" || ancestor.type === "except_group_clause") && child.type === "block")
        return this.cold(this.functionLabel(enclosingFunctionOf(ancestor)), `it runs only when the exception handled at line ${this.line(ancestor)} is raised`);
      // `if has_oom:` with `has_oom = True` only in an exception handler: recovery after a failure (fairseq's trainer).
      if ((ancestor.type === "if_statement" || ancestor.type === "elif_clause") && child.field === "consequence") {
        const handler = this.setOnlyOnError(childByField(ancestor, "condition")!);
        if (handler) return this.cold(this.functionLabel(enclosingFunctionOf(ancestor)), `it runs only after the exception handled at line ${this.line(handler)} sets its flag`);
      }
      // An assertion's message is evaluated only when the assertion fails.
      if (ancestor.type === "assert_statement" && child !== ancestor.children[0])
        return this.cold(this.functionLabel(enclosingFunctionOf(ancestor)), `it is the message of the assertion at line ${this.line(ancestor)}, evaluated only when it fails`);
      // A branch that ends by raising or exiting runs once, on the way out.
      if (ancestor.type === "block" && isBranch(ancestor)) {
        const last = ancestor.children[ancestor.children.length - 1];
        if (last && (this.endsRun(last) || this.leavesStepLoop(last, ancestor))) {
          const exit = last.type === "raise_statement" ? "raising" : last.type === "break_statement" ? "`break`" : last.type === "return_statement" ? "`return`" : `\`${this.text(childByField(last.children[0], "function")!)}()\``;
          return this.cold(this.functionLabel(enclosingFunctionOf(ancestor)), `it runs at most once: its branch ends by ${exit} at line ${this.line(last)}`);
        }
      }
      const never = this.neverRunsWhenHot(ancestor, child, depth);
      if (never) return this.cold(this.functionLabel(enclosingFunctionOf(ancestor)), never);
      const userWait = LOOP_TYPES.has(ancestor.type) && child.field === "body" ? this.waitsForUser(ancestor) : undefined;
      if (userWait)
        return this.cold(this.functionLabel(enclosingFunctionOf(ancestor)), `its loop at line ${this.line(ancestor)} waits for the user (\`${this.text(userWait)}\` at line ${this.line(userWait)}) on each iteration: paced by a person, not by steps`);
      const guard = this.periodicGuardAbove(ancestor, child, site);
      if (guard) events.push({ guard });
      if (LOOP_TYPES.has(ancestor.type) && this.runsPerIteration(ancestor, child, site))
        events.push({ loop: ancestor, kind: this.loopKind(ancestor) });
      if (!capture && ancestor.type === "with_statement" && this.isGraphCapture(ancestor) && child.field === "body") capture = ancestor;
    }
    const base = this.classify(events, fn, depth);
    if (capture) {
      return {
        ...base,
        hot: true,
        compiled: "cuda-graph",
        where: `inside the CUDA-graph capture at line ${this.line(capture)}`,
        reason: `\`with ${this.text(capture).split("\n")[0].replace(/^with\s+/, "").replace(/:\s*$/, "")}\` records every operation into a graph`,
      };
    }
    return base;
  }

  /**
   * True when no site whose innermost function is `fn` can be hot: `fn` does not run per step and holds no loop
   * or graph capture of its own (nested functions and classes have contexts of their own). Then `contextOf`
   * finds every such site cold, and the engine need not ask the hot-path rules about them.
   */
  coldThroughout(fn: SyntaxNode): boolean {
    if (this.unreferencedClassAround(fn)) return true;
    // The walk first: a function's context may ask for its callers' contexts, a loop is found by looking.
    if (someNode(fn, (node) => LOOP_TYPES.has(node.type) || (node.type === "with_statement" && this.isGraphCapture(node)))) return false;
    return !this.functionContext(fn).hot;
  }

  private classify(events: Event[], fn: SyntaxNode | undefined, depth: number): SiteContext {
    const owner = this.functionLabel(fn);
    const firstLoop = events.findIndex((event) => "loop" in event);
    const fnContext = () => (fn ? this.functionContext(fn, depth) : undefined);
    const compiled = fnContext()?.compiled;
    if (firstLoop < 0) {
      const guard = events.find((event): event is GuardEvent => "guard" in event);
      if (guard) return this.cold(owner, `it is under the periodic guard at line ${this.line(guard.guard)}`);
      if (!fn) return this.cold(owner, "it is not inside a loop or a per-step function");
      return fnContext()!;
    }
    const guardInside = events.slice(0, firstLoop).find((event): event is GuardEvent => "guard" in event);
    if (guardInside) return this.cold(owner, `it is under the periodic guard at line ${this.line(guardInside.guard)}`);
    const innermost = events[firstLoop] as LoopEvent;
    if (innermost.kind === "step") {
      const smokeTest = fn ? this.speedMeasurement(fn) : this.smokeTest(innermost.loop);
      if (smokeTest) return this.cold(owner, smokeTest);
      // An evaluation loop that a training loop runs every N steps: its own steps are not training steps.
      const outermost = fn && !events.slice(firstLoop + 1).some((event) => "loop" in event);
      const periodic = this.periodicInsideStepLoop(events, firstLoop) ?? (outermost ? (this.calledOnlyPeriodically(fn, depth) ?? this.calledOnlyWithOtherOptions(fn, depth)) : undefined);
      if (periodic) return this.cold(owner, periodic);
      return this.stepLoopContext(innermost.loop, owner, compiled);
    }
    if (innermost.kind === "epoch")
      return this.cold(owner, `it runs once per epoch: it is in the epoch loop at line ${this.line(innermost.loop)}, outside the step loop`);
    for (const event of events.slice(firstLoop + 1)) {
      if ("guard" in event) return this.cold(owner, `its loop is under the periodic guard at line ${this.line(event.guard)}`);
      if (event.kind === "step") {
        const stepContext = this.stepLoopContext(event.loop, owner, compiled);
        return {
          ...stepContext,
          where: `in the loop at line ${this.line(innermost.loop)}, inside the step loop of ${owner} (line ${this.line(event.loop)})`,
          frequency: "several times per step",
          loop: innermost.loop,
        };
      }
      if (event.kind === "epoch")
        return this.cold(owner, `its loop at line ${this.line(innermost.loop)} runs once per epoch, outside the step loop`);
    }
    const inherited = fnContext();
    if (inherited?.hot) {
      return { ...inherited, where: `in the loop at line ${this.line(innermost.loop)} ${inherited.where}`, frequency: nestedFrequency(inherited.frequency), loop: innermost.loop };
    }
    // The loops around the site, innermost first.
    const loops = events.slice(firstLoop).filter((event): event is LoopEvent => "loop" in event).map((event) => event.loop);
    // `def sft_data_generator(): while True: ... yield inputs, targets`, whose batches a step loop takes with `next()`.
    const yielding = fn && loops.find((loop) => this.yieldsInBody(loop));
    const consumer = yielding && this.stepConsumerOf(fn!, depth);
    if (yielding && consumer) {
      return {
        ...consumer,
        where: `in the loop at line ${this.line(yielding)} of ${owner}, which yields once per iteration to ${consumer.where.replace(/^in /, "")}`,
        frequency: yielding === innermost.loop ? consumer.frequency : nestedFrequency(consumer.frequency),
        reason: `${owner} yields a batch on each iteration of its loop at line ${this.line(yielding)}, and ${consumer.reason}`,
        loop: innermost.loop,
      };
    }
    const overWeights = loops.find((loop) => this.iteratesWeights(loopIterable(loop), 0));
    if (overWeights)
      return this.cold(owner, `its loop at line ${this.line(overWeights)} goes over a model's weights or an optimizer's parameter groups outside any per-step code: a checkpoint, an export or a set-up, not a step`);
    const overRanks = loops.find((loop) => this.iteratesRanks(loopIterable(loop), 0));
    if (overRanks)
      return this.cold(owner, `its loop at line ${this.line(overRanks)} goes over the processes of a distributed group, one item per rank: it runs once per gather, not per step`);
    // `def load_pretrained_model(self, path):` looping over a converted checkpoint's layers (in its own nested
    // helpers too): once, at set-up.
    let loader = fn;
    while (loader && !WEIGHT_LOADING_NAME.test(this.text(childByField(loader, "name")!))) loader = enclosingFunctionOf(loader);
    if (loader)
      return this.cold(owner, `its loop at line ${this.line(innermost.loop)} is in ${loader === fn ? owner : `a helper of ${this.functionLabel(loader)}`}, which by its name loads or converts weights: once, at set-up, not per step`);
    if (this.runsAtConstruction(fn))
      return this.cold(owner, `its loop at line ${this.line(innermost.loop)} runs while an object is built (in \`__init__\`, or a function only \`__init__\` calls), not per step`);
    // `def test_varlen_correctness():` in a library module: a self-test, run by hand or by pytest.
    if (fn && /^test_/.test(this.text(childByField(fn, "name")!)))
      return this.cold(owner, `its loop at line ${this.line(innermost.loop)} is in a test function, which runs once per test, not per step`);
    // `compute_dacs_segsum_ref_varlen(...)`: a reference that only the file's `test_*` functions run, to check a kernel.
    if (fn && this.calledOnlyByTests(fn))
      return this.cold(owner, `its loop at line ${this.line(innermost.loop)} is in a function that only test functions of this file call, once per test, not per step`);
    const optional = fn && this.calledOnlyWithOtherOptions(fn, depth);
    if (optional) return this.cold(owner, optional);
    // `for i in range(4):` in a self-check run once: a handful of waits, once; nothing to batch.
    const iterations = loops.reduce((product, loop) => product * (literalRangeLength(loop, this.env.text) ?? this.writtenOutLength(loop) ?? this.countedPasses(loop) ?? Infinity), 1);
    if (iterations <= FEW_ITERATIONS)
      return this.cold(owner, `its loop at line ${this.line(innermost.loop)} runs ${iterations} times in all, outside any per-step code: a few waits, once`);
    return {
      hot: true,
      where: `in the loop at line ${this.line(innermost.loop)} of ${owner}`,
      frequency: "on every iteration",
      reason: "a sync inside a loop runs once per iteration, where one batched transfer after the loop would do",
      loop: innermost.loop,
      compiled,
      plainLoop: true,
      withoutGrad: runsWithoutGrad(innermost.loop, this.env.text),
    };
  }

  /** Why the step loop of a function that times a model is not training: its name says it measures speed. */
  private speedMeasurement(fn: SyntaxNode): string | undefined {
    const name = this.text(childByField(fn, "name")!);
    if (!SPEED_MEASUREMENT_NAME.test(name)) return undefined;
    return `\`${name}()\` times the model (its name says so): its loop measures speed apart from training, and a sync there makes the clock measure the GPU's work`;
  }

  /**
   * Why a step loop of the module's top level is a smoke test of the file's models, if it is: it runs a few
   * iterations (`for step in range(steps)` with `steps = 10`) in the `if __name__ == "__main__":` block of a file
   * that defines `nn.Module`s (kohya's `sdxl_original_unet.py`), a check run by hand, not training.
   */
  private smokeTest(loop: SyntaxNode): string | undefined {
    let guard: SyntaxNode | null = loop.parent;
    while (guard && guard.type !== "if_statement") guard = guard.parent;
    const condition = guard?.parent === this.env.root ? childByField(guard, "condition") : undefined;
    if (!condition || !/^__name__\s*==\s*["']__main__["']$/.test(this.text(condition))) return undefined;
    const iterable = loop.type === "for_statement" ? unparenthesized(childByField(loop, "right")!) : undefined;
    const callee = iterable?.type === "call" ? childByField(iterable, "function") : undefined;
    if (!callee || this.text(callee) !== "range") return undefined;
    const [bound, ...rest] = positionalArguments(iterable!);
    if (!bound || rest.length > 0) return undefined;
    let count = unparenthesized(bound);
    if (count.type === "identifier") {
      const binding = resolveBinding(this.text(count), count.start, scopeOf(count, this.env.scopes));
      const assigned = binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
      if (!assigned || !soleAssignment(this.env.scopes.module.bindings.get(binding!.name))) return undefined;
      count = unparenthesized(assigned);
    }
    if (!isFewSteps(count, this.env.text)) return undefined;
    const definesModules = this.env.root.children.some((statement) => {
      const cls = statement.type === "decorated_definition" ? childByField(statement, "definition") : statement;
      return cls?.type === "class_definition" && this.env.evidence.isModuleClass(cls);
    });
    if (!definesModules) return undefined;
    return `its loop at line ${this.line(loop)} runs ${this.text(count)} iterations in the \`__main__\` block of a file that defines models: a smoke test or a benchmark run by hand, not training`;
  }

  /** The step loop at `events[firstLoop]` runs under a periodic guard of an outer step loop (`if step % 250 == 0: for _ in range(val_steps):`). */
  private periodicInsideStepLoop(events: Event[], firstLoop: number): string | undefined {
    let guard: SyntaxNode | undefined;
    for (const event of events.slice(firstLoop + 1)) {
      if ("guard" in event) guard ??= event.guard;
      else if (guard && event.kind === "step") return `its loop at line ${this.line((events[firstLoop] as LoopEvent).loop)} runs only under the periodic guard at line ${this.line(guard)} of the step loop at line ${this.line(event.loop)}`;
      else return undefined;
    }
    return undefined;
  }

  /**
   * Every call of `fn` in this file is cold code inside a step loop (`if batches_done % interval == 0:
   * sample_images(batches_done)`), or outside any loop of a function that is only called so in turn
   * (`evaluate_model()` every `eval_freq` steps, which calls `calc_loss_loader()`): `fn`'s own loop runs every N
   * steps of that loop.
   */
  private calledOnlyPeriodically(fn: SyntaxNode, depth: number): string | undefined {
    if (depth > MAX_CALL_DEPTH) return undefined;
    const calls = this.callsFromOutside(fn);
    if (calls.length === 0) return undefined;
    for (const call of calls) {
      if (this.contextOf(call, depth + 1).hot) return undefined;
      if (this.insideStepLoop(call)) continue;
      const caller = enclosingFunctionOf(call);
      if (!caller || caller === fn || loopStatementAround(call) || !this.calledOnlyPeriodically(caller, depth + 1)) return undefined;
    }
    return `every call of ${this.functionLabel(fn)} in this file (line ${this.line(calls[0])}) runs only on some steps of a step loop`;
  }

  /**
   * Every call of `fn` in this file never runs with the script's default options or settings (`if
   * args.save_test_dir != "": test(model, testdev_loader)`), directly or through callers that are only called
   * so in turn: its own step loop never runs in a default run.
   */
  private calledOnlyWithOtherOptions(fn: SyntaxNode, depth: number): string | undefined {
    if (depth > MAX_CALL_DEPTH) return undefined;
    const calls = this.callsFromOutside(fn);
    if (calls.length === 0) return undefined;
    let why: string | undefined;
    for (const call of calls) {
      const never = this.neverRunsByDefault(call, depth + 1);
      if (never) {
        why ??= never;
        continue;
      }
      const caller = enclosingFunctionOf(call);
      const callerWhy = caller && caller !== fn ? this.calledOnlyWithOtherOptions(caller, depth + 1) : undefined;
      if (!callerWhy) return undefined;
      why ??= callerWhy;
    }
    return `every call of ${this.functionLabel(fn)} in this file (line ${this.line(calls[0])}) never runs by default: ${why!.replace(/^it never runs[^:]*: /, "")}`;
  }

  /**
   * Why `site` never runs in a default run, if it does not: a branch that the script's default options or
   * settings, or the device, cannot take, or code after its block's exit, up to its function.
   */
  neverRunsByDefault(site: SyntaxNode, depth = 0): string | undefined {
    for (let child = site, ancestor = site.parent; ancestor && ancestor.type !== "function_definition" && ancestor.type !== "class_definition"; child = ancestor, ancestor = ancestor.parent) {
      const never = this.neverRunsWhenHot(ancestor, child, depth);
      if (never) return never;
    }
    return undefined;
  }

  /** `node` is in the body of a step loop of its function (not in a loop's iterable, which runs once). */
  private insideStepLoop(node: SyntaxNode): boolean {
    for (let child = node, current = node.parent; current && current.type !== "function_definition" && current.type !== "class_definition"; child = current, current = current.parent) {
      if ((current.type === "for_statement" || current.type === "while_statement") && child.field === "body" && this.loopKind(current) === "step") return true;
    }
    return false;
  }

  /** The loop's body yields (not in a nested function): a generator's loop runs one iteration per item taken. */
  private yieldsInBody(loop: SyntaxNode): boolean {
    const body = childByField(loop, "body");
    return !!body && someNode(body, (node) => node.type === "yield");
  }

  /**
   * The step context in which this file takes the items of generator `fn`: a step loop over its call
   * (`for batch in gen(...)`), or `next(it)` in a step loop of the name its call is bound to (`it = gen(...)`).
   */
  private stepConsumerOf(fn: SyntaxNode, depth: number): SiteContext | undefined {
    if (depth > MAX_CALL_DEPTH) return undefined;
    for (const call of this.callsFromOutside(fn)) {
      const parent = call.parent;
      if (parent?.type === "for_statement" && call.field === "right" && this.loopKind(parent) === "step") return this.contextOf(childByField(parent, "body") ?? parent, depth + 1);
      const left = parent?.type === "assignment" && call.field === "right" ? childByField(parent, "left") : undefined;
      if (left?.type !== "identifier" && left?.type !== "attribute") continue;
      const name = this.text(left);
      const scope = enclosingFunctionOf(call) ?? this.env.root;
      let found: SiteContext | undefined;
      someNode(scope, (node) => {
        if (node.type !== "call" || this.text(childByField(node, "function")!) !== "next") return false;
        const [argument] = positionalArguments(node);
        if (!argument || this.text(argument) !== name) return false;
        const site = this.contextOf(node, depth + 1);
        if (site.hot && !site.plainLoop && site.loop && this.loopKind(site.loop) === "step") found = site;
        return !!found;
      });
      if (found) return found;
    }
    return undefined;
  }

  private stepLoopContext(loop: SyntaxNode, owner: string, compiled: CompiledRegion | undefined): SiteContext {
    return {
      hot: true,
      where: `in the step loop of ${owner} (line ${this.line(loop)})`,
      frequency: "every step",
      reason: `the loop at line ${this.line(loop)} ${this.stepLoopEvidence(loop)}`,
      loop,
      compiled,
    };
  }

  private cold(owner: string, reason: string): SiteContext {
    return { hot: false, where: owner === "the module's top level" ? "at the module's top level" : `in ${owner}`, frequency: "each time it runs", reason };
  }

  functionLabel(fn: SyntaxNode | undefined): string {
    if (!fn) return "the module's top level";
    const name = this.text(childByField(fn, "name")!);
    const cls = enclosingClassOf(fn);
    return cls ? `\`${this.text(childByField(cls, "name")!)}.${name}()\`` : `\`${name}()\``;
  }

  /** Per-step functions: `forward`, `*_step`, Lightning hooks, compiled functions and their same-file callees. */
  functionContext(fn: SyntaxNode, depth = 0): SiteContext {
    const cached = this.functionContexts.get(fn);
    if (cached) return cached;
    if (this.inProgress.has(fn) || depth > MAX_CALL_DEPTH) return this.cold(this.functionLabel(fn), "it is not called from a hot path");
    this.inProgress.add(fn);
    try {
      const result = this.computeFunctionContext(fn, depth);
      // A result reached at the depth limit may be incomplete (a per-step caller too deep to see): only memoise what is final.
      if ((result.hot && !result.plainLoop) || depth === 0) this.functionContexts.set(fn, result);
      return result;
    } finally {
      this.inProgress.delete(fn);
    }
  }

  private computeFunctionContext(fn: SyntaxNode, depth: number): SiteContext {
    const label = this.functionLabel(fn);
    const unreferenced = this.unreferencedClassAround(fn);
    if (unreferenced) return this.cold(label, unreferenced);
    const name = this.text(childByField(fn, "name")!);
    const cls = enclosingClassOf(fn);
    const compiledBy = this.compiled().get(fn);
    if (compiledBy === "torch.compile")
      return { hot: true, where: `in the compiled function ${label}`, frequency: "on every call", reason: `${label} is compiled with \`torch.compile\``, compiled: "torch.compile" };
    // TorchScript runs each op as eager code would: a sync waits the same, and breaks no graph.
    if (compiledBy) return { hot: true, where: `in the scripted function ${label}`, frequency: "on every call", reason: `${label} is compiled with TorchScript, for code that runs often` };
    // Not a trainer's `forward` that holds the training loop itself (`for _ in range(self.num_train_steps):`).
    if (cls && name === "forward" && !this.hasStepLoop(fn))
      return { hot: true, where: `in ${label}`, frequency: "on every forward pass", reason: "`forward` runs once per step (and once per token when decoding)" };
    // `generate()` calls each logits processor and stopping criterion once per generated token.
    if (cls && name === "__call__" && GENERATION_CALLBACK.test(this.text(childByField(cls, "superclasses") ?? cls.children[0])))
      return { hot: true, where: `in ${label}`, frequency: "for every generated token", reason: "`generate()` calls a logits processor or a stopping criterion once per generated token", gpuCaller: true };
    const patch = this.forwardPatches().get(fn);
    if (patch)
      return { hot: true, where: `in ${label}`, frequency: "on every forward pass", reason: `\`${this.text(patch).replace(/\s+/g, " ")}\` (line ${this.line(patch)}) makes it a module's \`forward\``, gpuCaller: true };
    // `_setup_step`, `checkpoint_step`, a module-level `test_step` (a smoke test): named for steps, run once.
    const setUp = /^_*(setup|set_up|init|build|prepare|reset|save|load|checkpoint)_step$/.test(name) || (!cls && /^test_step$/.test(name));
    if ((/(^|_)step$/.test(name) && !setUp) || STEP_HOOK.test(name)) {
      // `checkpoint_step(...)` called only under `if step % save_every == 0:`: named for a step, run on some.
      const periodic = this.calledOnlyPeriodically(fn, depth);
      if (periodic) return this.cold(label, periodic);
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: `\`${name}\` is called once per training step by convention` };
    }
    // pix2pix/CycleGAN and BasicSR models: the training loop calls `set_input(data)` (`feed_data`) and then
    // `optimize_parameters()` on every batch, through a model built by a factory the analysis cannot follow.
    if (cls && (name === "optimize_parameters" || (MODEL_INPUT_METHOD.test(name) && methodOf(cls, "optimize_parameters", this.env.text))))
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: `a training loop calls \`${name}\` on every batch by convention (pix2pix/CycleGAN and BasicSR models)` };
    // Off-policy RL (DQN, DDPG, TD3, SAC): every update samples a batch from the replay buffer, through an agent
    // whose class the training script picks by name (`TD3.TD3(**kwargs)` or `DDPG.DDPG(...)`).
    if (cls && name === "sample" && REPLAY_BUFFER_CLASS.test(this.text(childByField(cls, "name")!)))
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: "an off-policy agent samples a batch from its replay buffer on every update" };
    // Hugging Face's `Trainer.training_step` calls it once per step, and so does most code that defines one.
    if (name === "compute_loss")
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: "`compute_loss` runs once per training step (a Hugging Face `Trainer` calls it from `training_step`)" };
    if (this.env.extraStepFunctions.has(name))
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: `\`${name}\` is listed in \`extra-step-functions\`` };
    const hook = this.hookRegistrations().get(fn);
    if (hook) return this.hookContext(label, hook);
    // `@lru_cache` on `mel_filters(device, n_mels)`: the body runs once per distinct arguments, not per call.
    if (this.isCached(fn)) return this.cold(label, "its results are cached (`@lru_cache`, `@cache`): its body runs once per distinct arguments, not on every call");
    const calls = this.callsFromOutside(fn);
    // Calls through `partial(fn, ...)` count for how often `fn` runs, not for what it is passed: they pass more.
    const partialCalls = this.callsThroughPartial(fn);
    const hotCall = this.firstHotCaller(partialCalls.length === 0 ? calls : [...calls, ...partialCalls], depth);
    if (hotCall) {
      const { call, caller } = hotCall;
      return {
        hot: true,
        // A property runs where it is read (`self.r`).
        where: `in ${label}, ${call.type === "call" ? "called" : "read"} at line ${this.line(call)} ${caller.where}`,
        frequency: caller.frequency,
        reason: `${label} is called from a hot path: ${caller.reason}`,
        compiled: caller.compiled === "torch.compile" ? "torch.compile" : undefined,
        // Called from a loop that is not a step loop: its sites, too, count only on positive GPU evidence.
        plainLoop: caller.plainLoop,
        withoutGrad: caller.withoutGrad,
        // A helper that a module's method calls (`get_rel_pos(...)` in `Attention.forward`) runs where the model is.
        gpuCaller: caller.gpuCaller || this.inModuleClass(call),
        // With several callers, only what they all pass alike (a call in an exception handler is a fallback, never hot).
        arguments: partialCalls.length > 0 ? undefined : agreedArguments(calls.filter((each) => !inExceptionHandler(each)).map((each) => passedArguments(each, this.env.text))),
      };
    }
    const entry = this.crossFileEntry(fn);
    // A function with a step loop of its own runs once per call of its caller's loop, which is an epoch loop.
    if (entry && !this.hasStepLoop(fn)) {
      return {
        hot: true,
        where: `in ${label}, ${entry.where}`,
        frequency: entry.frequency,
        reason: `${label} is called from a hot path in another file: ${entry.reason}`,
        compiled: entry.compiled,
        gpuCaller: entry.gpu,
        arguments: entry.arguments,
        tensorFree: entry.tensorFree,
      };
    }
    // `_WrappedModel.__call__(self, x, ts)` that runs `self.model(x, new_ts)`: a wrapper of a model runs whenever
    // the model would, through objects the analysis cannot follow (guided-diffusion's timestep respacing).
    if (cls && name === "__call__" && calls.length === 0 && this.runsWrappedModel(fn))
      return { hot: true, where: `in ${label}`, frequency: "on every forward pass", reason: `${label} runs the model it wraps, so it runs as often as the model's forward pass`, gpuCaller: true };
    // `cond_fn` given to `diffusion.p_sample_loop(model_fn, shape, cond_fn=cond_fn)`: called on every sampling step.
    const loopCall = calls.length === 0 ? this.passedToLoopFunction(fn, name) : undefined;
    if (loopCall)
      return { hot: true, where: `in ${label}, which \`${loopCall}(...)\` calls`, frequency: "on every sampling step", reason: `${label} is passed to \`${loopCall}\`, a function that runs a loop of model steps and calls it on each`, gpuCaller: true };
    // `StyleGAN2Loss.accumulate_gradients(...)`, whose caller gets the object from a class name in a config: what
    // runs a backward pass or an optimizer step itself, outside a loop of steps of its own, runs once per step.
    // Not a function of the module that takes nothing (`def compare_grid_sample():` of a gradient check): a step is
    // given its batch, model or state; one that makes its own runs once, as a check or a demo. A closure takes
    // nothing and runs every step (`optimizer.step(closure)` of L-BFGS).
    const takesNothing = !cls && !enclosingFunctionOf(fn) && (childByField(fn, "parameters")?.children.length ?? 0) === 0;
    if (calls.length === 0 && name !== "__init__" && !/^test_/.test(name) && !takesNothing && !this.hasStepLoop(fn) && this.trains(fn))
      // The step trains the model, whose tensors are where training runs: assumed on a GPU, as in a `*_step` method.
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: `${label} runs a backward pass or an optimizer step, which happens once per training step`, gpuCaller: true };
    // `def loss(self, pred, label)` of a model that nothing here calls: the training loop calls `model.loss(...)`
    // on every batch, through a model built by a factory the analysis cannot follow (benchmarking-gnns' networks).
    if (cls && calls.length === 0 && LOSS_METHOD.test(name) && this.env.evidence.isModuleClass(cls))
      return { hot: true, where: `in ${label}`, frequency: "every step", reason: `a training loop calls a model's \`${name}\` once per batch by convention` };
    return this.cold(label, "it is not inside a loop or a per-step function, and no hot path of this file or of the files linted with it calls it");
  }

  /**
   * The first of `calls` on a per-step path; failing that, the first in a plain loop (whose sites count only on
   * positive GPU evidence), so that a one-off loop that also calls the function does not stand for its steps.
   */
  private firstHotCaller(calls: SyntaxNode[], depth: number): { call: SyntaxNode; caller: SiteContext } | undefined {
    let hotCall: { call: SyntaxNode; caller: SiteContext } | undefined;
    for (const call of calls) {
      const caller = this.contextOf(call, depth + 1);
      if (caller.hot && !caller.plainLoop) return { call, caller };
      if (caller.hot) hotCall ??= { call, caller };
    }
    return hotCall;
  }

  /**
   * The context of a lambda bound to a name (`to_np = lambda t: t.detach().cpu().numpy()`) that a hot path calls
   * by that name, as a function called from there (`computeFunctionContext`). Undefined when nothing calls the
   * name, no call is hot, or the depth limit or a cycle stops the search: the lambda then runs where it is made.
   */
  private namedLambdaContext(lambda: SyntaxNode, depth: number): SiteContext | undefined {
    if (this.lambdaContexts.has(lambda)) return this.lambdaContexts.get(lambda);
    if (this.inProgress.has(lambda) || depth > MAX_CALL_DEPTH) return undefined;
    const calls = this.callsThroughName(lambda);
    if (calls.length === 0) return undefined;
    this.inProgress.add(lambda);
    try {
      const hotCall = this.firstHotCaller(calls, depth);
      const label = `the lambda \`${this.text(childByField(lambda.parent!, "left")!)}\` (line ${this.line(lambda)})`;
      const result: SiteContext | undefined = hotCall && {
        hot: true,
        where: `in ${label}, called at line ${this.line(hotCall.call)} ${hotCall.caller.where}`,
        frequency: hotCall.caller.frequency,
        reason: `${label} is called from a hot path: ${hotCall.caller.reason}`,
        compiled: hotCall.caller.compiled === "torch.compile" ? "torch.compile" : undefined,
        plainLoop: hotCall.caller.plainLoop,
        withoutGrad: hotCall.caller.withoutGrad,
        gpuCaller: hotCall.caller.gpuCaller || this.inModuleClass(hotCall.call),
      };
      // As for functions: a result reached at the depth limit may miss a per-step caller too deep to see.
      if ((result?.hot && !result.plainLoop) || depth === 0) this.lambdaContexts.set(lambda, result);
      return result;
    } finally {
      this.inProgress.delete(lambda);
    }
  }
  private readonly lambdaContexts = new Map<SyntaxNode, SiteContext | undefined>();

  /**
   * The calls `name(...)` through the plain name that `value` is assigned to (`to_np = lambda t: ...`, `log_loss =
   * partial(record, history)`), where that assignment is the binding they see.
   */
  private callsThroughName(value: SyntaxNode): SyntaxNode[] {
    const assignment = value.field === "right" ? value.parent : undefined;
    const target = assignment?.type === "assignment" ? childByField(assignment, "left") : undefined;
    if (target?.type !== "identifier") return NO_CALLS;
    const name = this.text(target);
    const calls = this.callSitesNamed(name, undefined).filter((call) => !contains(value, call) && resolveBinding(name, call.start, scopeOf(call, this.env.scopes))?.value === value);
    return calls.length === 0 ? NO_CALLS : calls;
  }

  /**
   * A hook runs as often as what it hooks: a module's forward hook on each of its forward passes, a backward or
   * gradient hook on each backward pass. The registration itself runs once, at set-up: the hook's own context
   * does not depend on it.
   */
  private hookContext(label: string, registration: SyntaxNode): SiteContext {
    const method = this.text(childByField(childByField(registration, "function")!, "attribute")!);
    const backward = /backward|_grad_|^register_hook$/.test(method);
    const frequency = backward ? "on every backward pass" : "on every forward pass";
    return {
      hot: true,
      where: `in ${label}, a hook that \`${method}\` registers at line ${this.line(registration)}`,
      frequency,
      reason: `PyTorch calls a hook registered with \`${method}\` ${frequency} of what it hooks`,
      gpuCaller: true,
    };
  }

  /** The functions and lambdas of this file that calls of `register_*hook` hand to PyTorch, with the registering call. */
  private hookRegistrations(): Map<SyntaxNode, SyntaxNode> {
    if (this.hooks) return this.hooks;
    // Set first: what a receiver is may ask for contexts, which look here again (and find the hooks so far).
    const hooks = (this.hooks = new Map<SyntaxNode, SyntaxNode>());
    // Most files register no hook: the text says where the few registrations are, with no walk of the tree.
    for (const match of this.env.text.includes("hook") ? this.env.text.matchAll(HOOK_REGISTRATION) : []) {
      const method = nodeAt(this.env.root, match.index! + 1).parent;
      const call = method?.type === "attribute" && method.field === "function" ? method.parent : undefined;
      if (call?.type !== "call") continue;
      // `tensor.register_hook(fn)` is a gradient hook only on a tensor (not a trainer's own registry of callbacks).
      if (this.text(childByField(method!, "attribute")!) === "register_hook" && !isTensorKind(this.env.evidence.of(childByField(method!, "object")!).kind)) continue;
      const hook = keywordArgument(call, "hook", this.env.text) ?? positionalArguments(call)[0];
      for (const target of hook ? this.functionsGiven(hook) : NO_CALLS) if (!hooks.has(target)) hooks.set(target, call);
    }
    return hooks;
  }
  private hooks: Map<SyntaxNode, SyntaxNode> | undefined;

  /**
   * The functions and lambdas of this file that an expression hands on: a lambda, a function by name, a method
   * (`self._hook`), `partial(f, ...)`, or what a factory of the file returns (`self._make_hook(name)`).
   */
  private functionsGiven(raw: SyntaxNode, depth = 0): SyntaxNode[] {
    const value = unparenthesized(raw);
    if (value.type === "lambda") return [value];
    if (value.type === "identifier") {
      const binding = resolveBinding(this.text(value), value.start, scopeOf(value, this.env.scopes));
      if (binding?.kind === "function" && binding.value) return [binding.value];
      return binding?.kind === "assign" && binding.value?.type === "lambda" ? [binding.value] : NO_CALLS;
    }
    if (value.type === "attribute" && isSelfAttribute(value, this.env.text)) {
      const cls = enclosingClassOf(value);
      const method = cls && this.env.evidence.inheritedMethod(cls, this.text(childByField(value, "attribute")!));
      return method ? [method] : NO_CALLS;
    }
    if (value.type !== "call" || depth > 1) return NO_CALLS;
    const callee = childByField(value, "function")!;
    const [first] = positionalArguments(value);
    if (this.env.evidence.qualifiedName(callee) === PARTIAL) return first ? this.functionsGiven(first, depth + 1) : NO_CALLS;
    // A factory: the functions it returns.
    const found: SyntaxNode[] = [];
    for (const factory of this.functionsGiven(callee, depth + 1)) {
      if (factory.type !== "function_definition") continue;
      for (const returned of returnStatementsOf(factory)) {
        const expression = returned.children[0];
        if (expression) found.push(...this.functionsGiven(expression, depth + 1).filter((fn) => contains(factory, fn)));
      }
    }
    return found;
  }

  /**
   * Calls of `fn` through a name bound to `partial(fn, ...)` in the same scope: `log_loss = partial(record,
   * history, "loss")`, then `log_loss(loss)`.
   */
  private callsThroughPartial(fn: SyntaxNode): SyntaxNode[] {
    const made = this.partialsOf().get(fn);
    return made ? made.flatMap((partial) => this.callsThroughName(partial)) : NO_CALLS;
  }

  /** By function of this file, the calls of `partial` that bind it (`partial(record, history)`), found once per file. */
  private partialsOf(): Map<SyntaxNode, SyntaxNode[]> {
    if (this.partialTargets) return this.partialTargets;
    const byFunction = new Map<SyntaxNode, SyntaxNode[]>();
    for (const made of this.partialsMade()) {
      const [first] = positionalArguments(made);
      for (const fn of first ? this.functionsGiven(first, 1) : NO_CALLS) {
        const list = byFunction.get(fn);
        if (list) list.push(made);
        else byFunction.set(fn, [made]);
      }
    }
    return (this.partialTargets = byFunction);
  }
  private partialTargets: Map<SyntaxNode, SyntaxNode[]> | undefined;

  /** The calls of `partial` that bind a function of this file (not `partial(nn.LayerNorm, eps=1e-6)`). */
  private partialsOfFunctions(): Set<SyntaxNode> {
    return (this.bindingPartials ??= new Set([...this.partialsOf().values()].flat()));
  }
  private bindingPartials: Set<SyntaxNode> | undefined;

  /** The calls of `functools.partial` in this file, found from where the text says `partial(`. */
  private partialsMade(): SyntaxNode[] {
    if (this.partials) return this.partials;
    const partials: SyntaxNode[] = [];
    for (const match of this.env.text.includes("partial") ? this.env.text.matchAll(/\bpartial\s*\(/g) : []) {
      let callee: SyntaxNode | null = nodeAt(this.env.root, match.index!);
      if (callee.parent?.type === "attribute" && callee.field === "attribute") callee = callee.parent;
      const call = callee.field === "function" ? callee.parent : undefined;
      if (call?.type === "call" && this.env.evidence.qualifiedName(callee) === PARTIAL) partials.push(call);
    }
    return (this.partials = partials);
  }
  private partials: SyntaxNode[] | undefined;

  /** What each call of a named lambda passes for its parameter at `index`, when every call passes one by position. */
  argumentsOfNamedLambda(lambda: SyntaxNode, index: number): SyntaxNode[] | undefined {
    const calls = this.callsThroughName(lambda);
    const passed = calls.map((call) => (passesListSplat(call) ? undefined : positionalArguments(call)[index]));
    return calls.length > 0 && passed.every((argument) => argument) ? (passed as SyntaxNode[]) : undefined;
  }

  /**
   * The name of the loop function (`p_sample_loop`, `ddim_sample_loop`) that a call in `fn`'s own scope passes `fn`
   * to, directly or through a name bound to one (`sample_fn = diffusion.p_sample_loop if ... else ...`).
   */
  private passedToLoopFunction(fn: SyntaxNode, name: string): string | undefined {
    const scope = enclosingFunctionOf(fn);
    return this.loopCallbacks().find((callback) => callback.name === name && enclosingFunctionOf(callback.call) === scope)?.loopName;
  }

  /** The names that calls of loop functions are given as arguments, found from where the text says `_loop`. */
  private loopCallbacks(): { name: string; call: SyntaxNode; loopName: string }[] {
    if (this.callbacks) return this.callbacks;
    const found: { name: string; call: SyntaxNode; loopName: string }[] = [];
    const record = (call: SyntaxNode, loopName: string) => {
      for (const argument of childByField(call, "arguments")?.children ?? []) {
        const value = argument.type === "keyword_argument" ? childByField(argument, "value") : argument;
        if (value?.type === "identifier") found.push({ name: this.text(value), call, loopName });
      }
    };
    const text = this.env.text;
    for (let at = text.indexOf("_loop"); at >= 0; at = text.indexOf("_loop", at + 5)) {
      let node: SyntaxNode = nodeAt(this.env.root, at);
      if (node.type !== "identifier" || node.end !== at + 5) continue;
      const loopName = this.text(node);
      if (node.parent?.type === "attribute" && node.field === "attribute") node = node.parent;
      if (node.parent?.type === "call" && node.field === "function") {
        record(node.parent, loopName);
        continue;
      }
      // `sample_fn = diffusion.p_sample_loop if not args.use_ddim else diffusion.ddim_sample_loop`, then `sample_fn(...)`.
      let assignment: SyntaxNode | null = node.parent;
      while (assignment && assignment.type !== "assignment" && !/statement$|definition$|^block$/.test(assignment.type)) assignment = assignment.parent;
      const alias = assignment?.type === "assignment" ? childByField(assignment, "left") : undefined;
      if (alias?.type !== "identifier" || !contains(childByField(assignment!, "right") ?? alias, node)) continue;
      for (const call of this.callSitesNamed(this.text(alias), undefined)) if (enclosingFunctionOf(call) === enclosingFunctionOf(assignment!)) record(call, loopName);
    }
    return (this.callbacks = found);
  }
  private callbacks: { name: string; call: SyntaxNode; loopName: string }[] | undefined;

  /** A method that calls a model kept on the object (`self.model(x, t)`), returning or using its output. */
  private runsWrappedModel(fn: SyntaxNode): boolean {
    return this.someDirectNode(fn, (node) => {
      if (node.type !== "call") return false;
      const callee = childByField(node, "function");
      return callee?.type === "attribute" && isSelfAttribute(callee, this.env.text) && MODULE_NAME.test(this.text(childByField(callee, "attribute")!));
    }, false);
  }

  /**
   * Decorated with `@lru_cache`/`@cache`/`@cached_property`, and given no tensors: a tensor argument is hashed by
   * identity, so a cache keyed on one misses every call (fairseq's `_get_weight(s_len, ...)` reads `s_len.device`).
   */
  private isCached(fn: SyntaxNode): boolean {
    const decorated = fn.parent?.type === "decorated_definition" ? fn.parent : undefined;
    if (!decorated?.children.some((decorator) => decorator.type === "decorator" && /^@\s*(functools\.)?(lru_cache|cache|cached_property)\b/.test(this.text(decorator)))) return false;
    const parameters = new Set((childByField(fn, "parameters")?.children ?? []).map((parameter) => parameterName(parameter)).filter((name): name is SyntaxNode => !!name).map((name) => this.text(name)));
    return !someNode(fn, (node) => {
      if (node.type !== "attribute") return false;
      const object = childByField(node, "object")!;
      return object.type === "identifier" && parameters.has(this.text(object)) && /^(device|dtype|shape|to|cuda|size|numel|dim)$/.test(this.text(childByField(node, "attribute")!));
    });
  }

  /**
   * Why nothing in the top-level class around `node` is known to run, when the project names the class nowhere
   * but in its own definition (`class-names.ts`).
   */
  private unreferencedClassAround(node: SyntaxNode): string | undefined {
    const entries = this.env.hotEntries;
    if (!entries || !(this.anyUnreferencedClass ??= Object.values(entries).some((entry) => "unreferenced" in entry))) return undefined;
    const statement = topLevelStatementOf(node);
    const name = statement.type === "class_definition" ? childByField(statement, "name") : undefined;
    const className = name && this.text(name);
    if (!className || !Object.prototype.hasOwnProperty.call(entries, className) || !("unreferenced" in entries[className])) return undefined;
    return `no file of the project builds, subclasses, imports or otherwise names \`${className}\` (nor does any config or script beside them): it is not known to run`;
  }
  private anyUnreferencedClass: boolean | undefined;

  /** What the project says of `fn`, by the name other files import it by, if anything. */
  private projectEntryOf(fn: SyntaxNode): HotEntries[string] | undefined {
    const entries = this.env.hotEntries;
    const name = entries && importableName(fn, this.env.text);
    return name !== undefined && Object.prototype.hasOwnProperty.call(entries, name) ? entries![name] : undefined;
  }

  /** How another file calls `fn` from a hot path, if one does. */
  private crossFileEntry(fn: SyntaxNode): HotEntry | undefined {
    const entry = this.projectEntryOf(fn);
    return entry && "where" in entry ? entry : undefined;
  }

  /** Where another file moves the batches of the loader `fn` returns to a GPU (`LoaderFactory`), if one does. */
  loaderMovedBy(fn: SyntaxNode): string | undefined {
    const entry = this.projectEntryOf(fn);
    return entry && "loaderMovedBy" in entry ? entry.loaderMovedBy : undefined;
  }

  /**
   * What functions defined elsewhere in the file can learn from `statement`: the context of each of its calls
   * of a function the module defines by name, at every depth a callee asks its callers' contexts at (a
   * function is hot when a hot path calls it, followed MAX_CALL_DEPTH calls up). The incremental linter
   * compares it before and after an edit that reaches the statement only through the functions it calls.
   */
  callerSignature(statement: SyntaxNode): string {
    let signature = "";
    const sign = (name: string, call: SyntaxNode) => {
      signature += `${name}@${call.start - statement.start}`;
      // What the call passes says what the callee's parameters are (`passedAlike`).
      for (const argument of argumentValues(call)) signature += `,${this.env.evidence.of(argument).kind}`;
      for (let depth = 1; depth <= MAX_CALL_DEPTH + 1; depth++) {
        const site = this.contextOf(call, depth);
        signature += `|${site.hot}:${site.frequency}:${site.compiled}:${site.plainLoop}:${site.withoutGrad}:${site.where}:${site.reason}`;
      }
      signature += "\n";
    };
    statementCalls(statement, this.env.text).functionCalls.forEach((sites, name) => {
      const bindings = this.env.scopes.module.bindings.get(name);
      if (bindings?.some((binding) => binding.kind === "function" || binding.value?.type === "lambda")) for (const call of sites) sign(name, call);
      // `log_loss(loss)` with `log_loss = partial(record, history)`: a call of `record`.
      else if (this.partialsOfFunctions().size > 0)
        for (const call of sites) {
          const value = resolveBinding(name, call.start, scopeOf(call, this.env.scopes))?.value;
          if (value && this.partialsOfFunctions().has(value)) sign(name, call);
        }
      // The methods called on the instances this statement makes (`self.decoder = GreedyDecoder()`, `self.decoder.update()`).
      const made = bindings?.find((binding) => binding.kind === "class")?.value;
      if (made) for (const { call } of this.instanceCalls(made, sites)) sign(`${name}()`, call);
    });
    return signature;
  }

  /**
   * The function of `parameter` has calls in this file, and none passes it (by name, position or splat). Not when
   * other files call it from hot paths too: what they pass is not seen here.
   */
  callsLeaveDefault(parameter: Binding): boolean {
    const calls = this.callsOfParameterFunction(parameter);
    return calls.length > 0 && this.argumentsFor(parameter).length === 0 && !calls.some(passesSplat) && !this.calledFromOtherFiles(parameter);
  }

  /**
   * What each call of `parameter`'s function in this file passes for it, when every call passes it and there is
   * one, and no other file calls the function from a hot path (a dataset's `mel_spectrogram(cpu_audio)` says
   * nothing of the training loop's `mel_spectrogram(gpu_audio)` in another file).
   */
  argumentsOfEveryCall(parameter: Binding): SyntaxNode[] | undefined {
    if (this.calledFromOtherFiles(parameter)) return undefined;
    const calls = this.callsOfParameterFunction(parameter);
    const passed = this.argumentsFor(parameter);
    return calls.length > 0 && passed.length === calls.length ? passed : undefined;
  }

  /**
   * Where the values that the hot calls from other files pass for `parameter` live, where they agree
   * (`agreedKinds`) and the file does not call the function itself: `visualizer.draw(labels=labels.cpu())` in a training script
   * passes host data; `compute_loss(pred, targets.to(device))` a GPU tensor.
   */
  argumentKindFromOtherFile(parameter: Binding): ArgumentKind | undefined {
    const fn = parameter.node.parent?.parent;
    if (parameter.kind !== "parameter" || fn?.type !== "function_definition") return undefined;
    const kinds = this.crossFileEntry(fn)?.argumentKinds;
    if (!kinds || this.callsFromOutside(fn).length > 0) return undefined;
    if (Object.prototype.hasOwnProperty.call(kinds, parameter.name)) return kinds[parameter.name];
    const index = positionalParameters(fn).indexOf(parameter.node) - this.implicitParameters(fn);
    return index >= 0 && Object.prototype.hasOwnProperty.call(kinds, String(index)) ? kinds[String(index)] : undefined;
  }

  private calledFromOtherFiles(parameter: Binding): boolean {
    const fn = parameter.node.parent?.parent;
    return parameter.kind === "parameter" && fn?.type === "function_definition" && !!this.crossFileEntry(fn);
  }

  /** The calls of `fn` in this file, but for its own recursive ones. */
  private callsFromOutside(fn: SyntaxNode): SyntaxNode[] {
    return this.callSitesOf(fn).filter((call) => !contains(fn, call) && !this.callsAnotherNamedSo(call));
  }

  /** `from thop import profile` in a function, then `profile(model)` there: a call of another `profile` than the file's. */
  private callsAnotherNamedSo(call: SyntaxNode): boolean {
    const callee = childByField(call, "function");
    if (callee?.type !== "identifier") return false;
    const binding = resolveBinding(this.text(callee), call.start, scopeOf(call, this.env.scopes));
    // Not a parameter named so: a function is often passed under its own name (point-e's `denoiser`).
    return binding?.kind === "import";
  }

  private callsOfParameterFunction(parameter: Binding): SyntaxNode[] {
    const fn = parameter.node.parent?.parent;
    if (parameter.kind !== "parameter" || fn?.type !== "function_definition") return [];
    return this.callsFromOutside(fn);
  }

  /**
   * The expressions passed for a parameter at its function's call sites in this file (`f(x)`, `f(p=x)`,
   * `self.f(x)` in its class), in source order: what the file says the parameter is. A call that passes it
   * through `*args`/`**kwargs`, or not at all, gives nothing.
   */
  argumentsFor(parameter: Binding): SyntaxNode[] {
    const fn = parameter.node.parent?.parent;
    if (parameter.kind !== "parameter" || fn?.type !== "function_definition") return [];
    const index = positionalParameters(fn).indexOf(parameter.node) - this.implicitParameters(fn);
    const found: SyntaxNode[] = [];
    for (const call of this.callSitesOf(fn)) {
      if (contains(fn, call)) continue;
      const byPosition = index >= 0 && !passesListSplat(call) ? positionalArguments(call)[index] : undefined;
      const argument = keywordArgument(call, parameter.name, this.env.text) ?? byPosition;
      if (argument) found.push(argument);
    }
    return found.sort((a, b) => a.start - b.start);
  }

  /** The parameter of `fn` that `argument` of `call` (a call of `fn`: `f(x)`, `f(p=x)`, `self.f(x)`) is passed for. */
  parameterFor(fn: SyntaxNode, call: SyntaxNode, argument: SyntaxNode): Binding | undefined {
    let name: string | undefined;
    if (argument.parent?.type === "keyword_argument" && argument.field === "value") {
      const key = childByField(argument.parent, "name");
      name = key && this.text(key);
    } else if (argument.parent?.type === "argument_list" && !passesListSplat(call)) {
      const parameter = positionalParameters(fn)[positionalArguments(call).indexOf(argument) + this.implicitParameters(fn)];
      const nameNode = parameter && parameterName(parameter);
      name = nameNode && this.text(nameNode);
    }
    return name === undefined ? undefined : this.env.scopes.get(fn)?.bindings.get(name)?.find((binding) => binding.kind === "parameter");
  }

  /** `self.f(x)` binds `self` (or `cls`) itself: 1 for a method that is not static, else 0. */
  private implicitParameters(fn: SyntaxNode): number {
    const decorated = fn.parent?.type === "decorated_definition" ? fn.parent : undefined;
    const isStatic = !!decorated?.children.some((d) => d.type === "decorator" && /staticmethod/.test(this.text(d)));
    return enclosingClassOf(fn) && !isStatic ? 1 : 0;
  }

  /** Call sites of a local function (`f(...)`) or method (`self.f(...)`), gathered from every statement's index. */
  private callSitesOf(fn: SyntaxNode): SyntaxNode[] {
    const name = this.text(childByField(fn, "name")!);
    const cls = enclosingClassOf(fn);
    const named = this.callSitesNamed(name, cls);
    if (!cls) {
      const dispatched = this.dispatchedCallSites(name);
      return dispatched.length === 0 ? named : [...named, ...dispatched];
    }
    const onInstances = this.instanceCallSites(cls, name);
    const reads = isProperty(fn, this.env.text) ? this.propertyReads(cls, name) : NO_CALLS;
    return onInstances.length === 0 && reads.length === 0 ? named : [...named, ...onInstances, ...reads];
  }

  /**
   * `self.r` in the class of a property `r` (Real-Time-Voice-Cloning's `Tacotron.r`, read in `forward`'s decoder
   * loop): reading it runs the property; assigning it runs the setter.
   */
  private propertyReads(cls: SyntaxNode, name: string): SyntaxNode[] {
    const found: SyntaxNode[] = [];
    const text = this.env.text;
    const mention = new RegExp(`\\bself\\s*\\.\\s*${name}\\b`, "g");
    mention.lastIndex = cls.start;
    for (let match = mention.exec(text); match && match.index < cls.end; match = mention.exec(text)) {
      const attribute = nodeAt(cls, match.index + match[0].length - 1).parent;
      if (attribute?.type !== "attribute" || !isSelfAttribute(attribute, text) || (attribute.field === "left" && attribute.parent?.type === "assignment")) continue;
      found.push(attribute);
    }
    return found;
  }

  /**
   * Calls of function `name` through a table of functions: `sample_fn = {"heun": sample_heun, ...}[sampler]`, then
   * `sample_fn(denoiser, x_T, sigmas)` in the same function (consistency_models' and k-diffusion's samplers).
   */
  private dispatchedCallSites(name: string): SyntaxNode[] {
    const aliases = this.dispatchTables().get(name);
    if (!aliases) return NO_CALLS;
    const found: SyntaxNode[] = [];
    for (const alias of aliases) {
      const scope = enclosingFunctionOf(alias);
      for (const call of this.callSitesNamed(this.text(alias), undefined)) if (call.start > alias.end && enclosingFunctionOf(call) === scope) found.push(call);
    }
    return found;
  }

  /** By function name, the names that tables of functions subscripted at once are bound to (`f = {...: name}[key]`). */
  private dispatchTables(): Map<string, SyntaxNode[]> {
    if (this.tables) return this.tables;
    const tables = new Map<string, SyntaxNode[]>();
    const text = this.env.text;
    // Most files have no such table: the text says where the few are, with no walk of the tree.
    for (const match of text.matchAll(/\}\s*\[/g)) {
      let dictionary: SyntaxNode | null = nodeAt(this.env.root, match.index!);
      while (dictionary && dictionary.type !== "dictionary") dictionary = dictionary.parent;
      const subscript = dictionary?.parent;
      const assignment = subscript?.type === "subscript" && dictionary!.field === "value" ? subscript.parent : undefined;
      const alias = assignment?.type === "assignment" && subscript!.field === "right" ? childByField(assignment, "left") : undefined;
      if (alias?.type !== "identifier") continue;
      for (const pair of dictionary!.children) {
        const value = pair.type === "pair" ? childByField(pair, "value") : undefined;
        if (value?.type !== "identifier") continue;
        const aliases = tables.get(this.text(value)) ?? tables.set(this.text(value), []).get(this.text(value))!;
        aliases.push(alias);
      }
    }
    return (this.tables = tables);
  }
  private tables: Map<string, SyntaxNode[]> | undefined;

  /**
   * Calls of method `name` of `cls` on its instances in this file (`self.decoder = GreedyDecoder(...)`, then
   * `self.decoder.update(...)`; `meter = Meter()`, then `meter.update(v)`), also of instances of its same-file
   * subclasses that inherit the method.
   */
  private instanceCallSites(cls: SyntaxNode, name: string): SyntaxNode[] {
    let byName = this.instanceSites.get(cls);
    if (!byName) this.instanceSites.set(cls, (byName = this.instanceCallsOf(cls)));
    return byName.get(name) ?? NO_CALLS;
  }

  private instanceCallsOf(cls: SyntaxNode): Map<string, SyntaxNode[]> {
    const byName = new Map<string, SyntaxNode[]>();
    const hasOwnCall = !!methodOf(cls, "__call__", this.env.text);
    for (const made of [cls, ...this.subclassesOf(cls)]) {
      const className = this.text(childByField(made, "name")!);
      for (const { call, name, read } of this.instanceCalls(made, this.callSitesNamed(className, undefined))) {
        // Reading an attribute runs a method only when the method is a property.
        if (read) {
          const method = methodOf(cls, name, this.env.text);
          if (!method || !isProperty(method, this.env.text)) continue;
        }
        // A subclass's own method is not the base class's; nor is a subclass's own `forward`, which calling its
        // instances runs (unless the base class's `__call__` runs first).
        if (made !== cls && (methodOf(made, name, this.env.text) || (name === "__call__" && !hasOwnCall && methodOf(made, "forward", this.env.text)))) continue;
        const list = byName.get(name);
        if (list) list.push(call);
        else byName.set(name, [call]);
      }
    }
    // Calling a module (`self.y_embedder(y, self.training)`) runs its `forward`, unless the class has a `__call__` of its own.
    const calls = byName.get("__call__");
    if (calls && !hasOwnCall && this.env.evidence.isModuleClass(cls)) byName.set("forward", [...(byName.get("forward") ?? NO_CALLS), ...calls]);
    return byName;
  }

  /** The calls on the instances of `cls` that `constructions` (calls of its name) make. */
  private instanceCalls(cls: SyntaxNode, constructions: readonly SyntaxNode[]): InstanceCall[] {
    const className = this.text(childByField(cls, "name")!);
    const found: InstanceCall[] = [];
    for (const construction of constructions) {
      const binding = resolveBinding(className, construction.start, scopeOf(construction, this.env.scopes));
      if (binding?.kind === "class" && binding.value === cls) found.push(...methodCallsOn(construction, this.instanceSource));
    }
    return found;
  }

  /** `node` is in a method of an `nn.Module` class of this file. */
  private inModuleClass(node: SyntaxNode): boolean {
    const cls = enclosingClassOf(node);
    return !!cls && this.env.evidence.isModuleClass(cls);
  }

  /** The classes of this file that name `cls` among their bases. */
  private subclassesOf(cls: SyntaxNode): SyntaxNode[] {
    const className = this.text(childByField(cls, "name")!);
    const found: SyntaxNode[] = [];
    for (const statement of this.env.root.children) {
      const definition = statement.type === "decorated_definition" ? childByField(statement, "definition") : statement;
      if (definition?.type !== "class_definition" || definition === cls) continue;
      const bases = childByField(definition, "superclasses");
      if (bases?.children.some((base) => base.type === "identifier" && this.text(base) === className)) found.push(definition);
    }
    return found;
  }

  /** Calls of a function by name (`f(...)`), or of a method of `cls` on `self` (`self.f(...)`). */
  private callSitesNamed(name: string, cls: SyntaxNode | undefined): SyntaxNode[] {
    // A few questions (a re-linted statement's functions) are answered statement by statement; many (a whole
    // file's functions) from one index of the whole file.
    if (!this.indexedAllCalls && ++this.callSiteQuestions > 8) this.indexAllCalls();
    const memo = cls ? (this.methodCallSites.get(cls) ?? this.methodCallSites.set(cls, new Map()).get(cls)!) : this.callSites;
    let sites = memo.get(name);
    if (!sites && this.indexedAllCalls) sites = NO_CALLS;
    if (!sites) {
      sites = [];
      // A method is called as `self.f(...)` inside its class; a function by its name, where the name is mentioned
      // (with an index of mentions, a name no statement mentions has no call sites).
      const mentioning = this.env.statementsMentioning;
      const statements = cls ? [topLevelStatementOf(cls)] : mentioning ? [...(mentioning(name) ?? NO_STATEMENTS)].sort((a, b) => a.start - b.start) : this.env.root.children;
      // Last statement first, in the order a walk over the whole file meets the calls: the first hot caller names the context.
      for (let i = statements.length - 1; i >= 0; i--) {
        const calls = statementCalls(statements[i], this.env.text);
        const found = cls ? calls.methodCalls.get(cls)?.get(name) : calls.functionCalls.get(name);
        if (found) sites.push(...found);
      }
      memo.set(name, sites);
    }
    return sites;
  }

  private indexAllCalls(): void {
    this.indexedAllCalls = true;
    this.callSites.clear();
    this.methodCallSites.clear();
    const add = (map: Map<string, SyntaxNode[]>, name: string, calls: SyntaxNode[]) => {
      const list = map.get(name);
      if (list) list.push(...calls);
      else map.set(name, [...calls]);
    };
    const statements = this.env.root.children;
    for (let i = statements.length - 1; i >= 0; i--) {
      const calls = statementCalls(statements[i], this.env.text);
      for (const [name, found] of calls.functionCalls) add(this.callSites, name, found);
      for (const [cls, byName] of calls.methodCalls) {
        let memo = this.methodCallSites.get(cls);
        if (!memo) this.methodCallSites.set(cls, (memo = new Map()));
        for (const [name, found] of byName) add(memo, name, found);
      }
    }
  }

  /** The functions compiled by decorator or passed (as a function or a module instance) to `torch.compile` or `torch.jit.script`. */
  private indexCompiled(): Map<SyntaxNode, "torch.compile" | "TorchScript"> {
    const compiled = new Map<SyntaxNode, "torch.compile" | "TorchScript">();
    // `torch.compile` wins over TorchScript where a function is given to both.
    const add = (fn: SyntaxNode, by: "torch.compile" | "TorchScript") => {
      if (compiled.get(fn) !== "torch.compile") compiled.set(fn, by);
    };
    const statements = this.env.root.children;
    // Indexed loops with early exits: this pass runs per keystroke over every statement, often before V8 has
    // optimised it, and unoptimised for-of loops allocate an iterator per array.
    for (let i = 0; i < statements.length; i++) {
      const calls = statementCalls(statements[i], this.env.text);
      if (calls.decorated.length === 0 && calls.compileCalls.length === 0) continue;
      for (const node of calls.decorated) {
        const definition = childByField(node, "definition");
        const by = node.children.map((d) => (d.type === "decorator" ? this.compileDecorator(d) : undefined)).find((kind) => kind);
        if (!by) continue;
        if (definition?.type === "function_definition") add(definition, by);
        if (definition?.type === "class_definition") {
          const forward = methodOf(definition, "forward", this.env.text);
          if (forward) add(forward, by);
        }
      }
      for (const node of calls.compileCalls) {
        const name = this.env.evidence.qualifiedName(childByField(node, "function")!);
        if (name !== "torch.compile" && name !== "torch.jit.script") continue;
        const [target] = positionalArguments(node);
        if (target) for (const fn of this.compiledTargets(target)) add(fn, name === "torch.compile" ? "torch.compile" : "TorchScript");
      }
    }
    return compiled;
  }

  /** `fn` is assigned as a module's `forward` somewhere in the file: its inputs are a forward pass's. */
  replacesForward(fn: SyntaxNode): boolean {
    return this.forwardPatches().has(fn);
  }

  /** Functions of this file assigned as a module's `forward` (`LlamaAttention.forward = forward`), each with its assignment. */
  private forwardPatches(): Map<SyntaxNode, SyntaxNode> {
    if (this.patchedForwards) return this.patchedForwards;
    const patches = new Map<SyntaxNode, SyntaxNode>();
    this.patchedForwards = patches;
    // Cheap text test first: most files patch nothing.
    if (!/\.forward\s*=[^=]/.test(this.env.text)) return patches;
    const stack = [this.env.root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      for (let i = 0; i < node.children.length; i++) stack.push(node.children[i]);
      if (node.type !== "assignment") continue;
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      if (left?.type !== "attribute" || right?.type !== "identifier" || this.text(childByField(left, "attribute")!) !== "forward") continue;
      const binding = resolveBinding(this.text(right), right.start, scopeOf(right, this.env.scopes));
      if (binding?.kind === "function" && binding.value && !patches.has(binding.value)) patches.set(binding.value, node);
    }
    return patches;
  }

  private compiled(): Map<SyntaxNode, "torch.compile" | "TorchScript"> {
    this.compiledFunctions ??= this.indexCompiled();
    return this.compiledFunctions;
  }

  private compileDecorator(decorator: SyntaxNode): "torch.compile" | "TorchScript" | undefined {
    let expression = decorator.children[0];
    if (!expression) return undefined;
    if (expression.type === "call") expression = childByField(expression, "function") ?? expression;
    const name = this.env.evidence.qualifiedName(expression);
    return name === "torch.compile" || name === "torch._dynamo.optimize" ? "torch.compile" : name === "torch.jit.script" ? "TorchScript" : undefined;
  }

  /** The functions that `torch.compile(target)` compiles, when they are defined in this file. */
  private compiledTargets(target: SyntaxNode): SyntaxNode[] {
    const node = unparenthesized(target);
    if (node.type === "call") {
      const callee = childByField(node, "function");
      return callee ? this.compiledTargets(callee) : [];
    }
    if (node.type !== "identifier") return [];
    const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
    if (!binding?.value) return [];
    if (binding.kind === "function") return [binding.value];
    if (binding.kind === "class") {
      const forward = methodOf(binding.value, "forward", this.env.text);
      return forward ? [forward] : [];
    }
    if (binding.kind === "assign" && binding.value.type === "call") return this.compiledTargets(binding.value);
    return [];
  }

  private isGraphCapture(withStatement: SyntaxNode): boolean {
    const clause = withStatement.children.find((child) => child.type === "with_clause");
    for (const item of clause?.children ?? []) {
      let value = childByField(item, "value");
      if (value?.type === "as_pattern") value = value.children[0];
      if (value?.type !== "call") continue;
      const callee = childByField(value, "function");
      const name = callee ? this.env.evidence.qualifiedName(callee) : undefined;
      if (name && /(^|\.)cuda\.graph$/.test(name)) return true;
    }
    return false;
  }

  /** True when `site`, reached through `child`, is evaluated on every iteration of `loop`. */
  private runsPerIteration(loop: SyntaxNode, child: SyntaxNode, site: SyntaxNode): boolean {
    if (loop.type === "for_statement") return child.field === "body" && !this.runsOnce(loop);
    if (loop.type === "while_statement") return (child.field === "body" || child.field === "condition") && !this.runsOnce(loop);
    // Comprehensions: everything but the first iterable runs per item.
    const firstClause = loop.children.find((c) => c.type === "for_in_clause");
    const iterable = firstClause ? childByField(firstClause, "right") : undefined;
    return !(iterable && contains(iterable, site));
  }

  /**
   * A loop whose body always leaves it on the first pass (it ends in `return`, `break` or `raise`, and no
   * `continue` of this loop skips that end): `for x in loader: ...; return` measures one batch.
   */
  private runsOnce(loop: SyntaxNode): boolean {
    const body = childByField(loop, "body");
    const last = body?.children[body.children.length - 1];
    if (!body || !last || !(last.type === "return_statement" || last.type === "break_statement" || this.endsRun(last))) return false;
    return !this.someDirectNode(loop, (node) => node.type === "continue_statement", true);
  }

  /**
   * Why `child`, reached through `ancestor`, never runs where its function is hot, if it does not: a branch the
   * hot call cannot take, a branch for tensors no hot call passes, code after its block's exit, a branch for a
   * device that is not CUDA.
   */
  private neverRunsWhenHot(ancestor: SyntaxNode, child: SyntaxNode, depth: number): string | undefined {
    // `if opt.verbose and out.sum() > 0:`: Python evaluates the right operand only when the left does not decide.
    if (ancestor.type === "boolean_operator" && child.field === "right") {
      const left = childByField(ancestor, "left");
      return left ? this.optionDefaultBranch(left, ancestor.tokens[0] === "and") : undefined;
    }
    if (ancestor.type === "block") {
      const exit = this.exitBefore(ancestor, child);
      return exit ? `it never runs: the statement at line ${this.line(exit)} leaves its block before it` : undefined;
    }
    const branch = branchOf(ancestor, child);
    if (!branch) return undefined;
    const settled = (each: Branch) =>
      this.constantBranch(each, depth) ?? this.moduleSettingBranch(each) ?? this.localSettingBranch(each) ?? this.optionDefaultBranch(each.condition, each.taken) ?? this.constructorOptionBranch(each) ?? this.tensorOnlyBranch(each, depth);
    const constant = settled(branch);
    if (constant) return constant;
    // `merge = False` ... `if merge and (1 < n < 3E3):`: one operand of `and` that never holds is enough.
    for (const operand of branch.taken ? conjuncts(branch.condition) : []) {
      const never = operand !== branch.condition ? settled({ condition: operand, taken: true }) : undefined;
      if (never) return never;
    }
    // `def forward(self, images, debug_percentile=None):` ... `if debug_percentile is not None:` (StyleGAN2-ADA's
    // augmentation): a debugging switch, off in the runs that train.
    const debug = branch.taken ? this.debugParameterTest(branch.condition) : undefined;
    if (debug) return `it runs only when the debugging parameter \`${debug}\` is given (the test at line ${this.line(branch.condition)}); it is off by default`;
    // `if mps: x = x.cpu()` (or the `else` of `if torch.cuda.is_available():`) never runs beside a CUDA device.
    if (this.deviceTest(branch.condition) === (branch.taken ? "other" : "cuda")) return `it runs only when the device is not a CUDA GPU (the test at line ${this.line(branch.condition)})`;
    // `if torch.jit.is_scripting():` (TorchScript), `if torch.compiler.is_compiling():` (while Dynamo traces).
    if (this.tracingTest(branch.condition) === branch.taken) return `it runs only under TorchScript or while a graph is traced (the test at line ${this.line(branch.condition)}), not in eager steps`;
    // `if tensor.numel() == 0: return zeros`, `if sum_masks == 0:`: the case of an empty input, not a step's.
    if (branch.taken && this.emptinessTest(branch.condition)) return `it runs only when a tensor is empty or nothing is selected (the test at line ${this.line(branch.condition)}), not on a step's data`;
    // `if np.isnan(loss.item()): wandb.alert(...)`: the test runs every step, its branch only once training diverged.
    if (branch.taken && this.nonFiniteTest(branch.condition)) return `it runs only when a value is NaN or infinite (the test at line ${this.line(branch.condition)}): an error path, not a step's`;
    // `if torch.min(y) < -1.: print("min value is ", torch.min(y))` (HiFi-GAN's `mel_spectrogram`): a warning of values out of range.
    if (branch.taken && this.rangeTest(branch.condition) && this.onlyReports(child)) return `it runs only when a value is out of its range (the test at line ${this.line(branch.condition)}), to warn of it: an error path, not a step's`;
    return undefined;
  }

  /** `debug_percentile is not None`, `debug`: a test that holds only when a parameter named for debugging, `None` or `False` by default, is given. */
  private debugParameterTest(condition: SyntaxNode): string | undefined {
    const test = this.parameterTest(condition);
    if (!test || (test.kind !== "truthy" && test.kind !== "not-none") || !DEBUG_NAME.test(test.name)) return undefined;
    // The function's own parameter, even where the body binds it anew (`debug_percentile = torch.as_tensor(debug_percentile)`).
    const parameter = childByField(enclosingFunctionOf(condition) ?? condition, "parameters")?.children.find((each) => {
      const name = parameterName(each);
      return !!name && this.text(name) === test.name;
    });
    const fallback = parameter && (parameter.type === "default_parameter" || parameter.type === "typed_default_parameter") ? childByField(parameter, "value") : undefined;
    return fallback && /^(None|False)$/.test(this.text(fallback)) ? test.name : undefined;
  }

  /**
   * Why a branch never runs on the call that makes its function hot: it tests a parameter (`if do_sample:`,
   * `if not fast:`, `if mask is None:`) that the call fixes to a literal, by keyword or by leaving the
   * parameter's default (`generate(x, do_sample=False)`).
   */
  private constantBranch({ condition, taken }: Branch, depth: number): string | undefined {
    const fn = enclosingFunctionOf(condition);
    if (!fn) return undefined;
    const test = this.parameterTest(condition);
    if (!test) return undefined;
    const binding = this.env.scopes.get(fn)?.bindings.get(test.name)?.find((b) => b.kind === "parameter");
    const resolved = binding && resolveBinding(test.name, condition.start, scopeOf(condition, this.env.scopes)) === binding ? binding : undefined;
    const passed = resolved && this.functionContext(fn, depth).arguments;
    const value = resolved && passed ? this.parameterValue(fn, resolved, passed) : undefined;
    if (value === undefined) return undefined;
    if (nameTestHolds(test, value) === taken) return undefined;
    const how = Object.prototype.hasOwnProperty.call(passed!.keywords, test.name) ? `passes \`${test.name}=${value}\`` : `leaves \`${test.name}\` at its default, \`${value}\``;
    return `it never runs on the calls that make it hot: the test at line ${this.line(condition)} depends on \`${test.name}\`, and every such call ${how}`;
  }

  /**
   * Why a branch never runs: it tests an option that an object keeps from its construction (`self.autobalance =
   * autobalance` in `__init__`, then `if self.autobalance:`), and every construction of the class in the project
   * (`constructorOption`) passes the same literal for it, or leaves its default (YOLOv5's `ComputeLoss(model)`,
   * `autobalance=False`).
   */
  private constructorOptionBranch({ condition, taken }: Branch): string | undefined {
    const test = this.parameterTest(condition, (operand) => {
      const object = operand.type === "attribute" ? childByField(operand, "object") : undefined;
      return object?.type === "identifier" && this.text(object) === "self" ? this.text(childByField(operand, "attribute")!) : undefined;
    });
    const cls = test && enclosingClassOf(condition);
    const option = cls && this.constructorOption(cls, test.name);
    if (!test || !option) return undefined;
    const values = new Set(option.constructions.map((passed) => this.parameterValue(option.init, option.parameter, passed)));
    const [value] = values;
    if (values.size !== 1 || value === undefined || nameTestHolds(test, value) === taken) return undefined;
    return `it never runs: the test at line ${this.line(condition)} depends on \`self.${test.name}\`, which every construction of \`${this.text(childByField(cls!, "name")!)}\` sets to \`${value}\` (the \`${option.parameter.name}\` of \`__init__\`)`;
  }

  /**
   * The attributes of `self` that `cls` keeps from parameters of its `__init__` and tests (`self.autobalance =
   * autobalance`, then `if self.autobalance:`): options that its constructions settle (`constructorOption`).
   */
  constructorOptionsOf(cls: SyntaxNode): string[] {
    const init = methodOf(cls, "__init__", this.env.text);
    if (!init) return [];
    const tested = new Set<string>();
    for (const match of this.text(cls).matchAll(TESTED_SELF_ATTRIBUTE)) tested.add(match[1]);
    return [...this.parametersKept(init).keys()].filter((attribute) => tested.has(attribute));
  }

  /**
   * A `setattr(...)` of the file may set `attribute`: unless it names another attribute, as a string or as the
   * item of a loop over written strings (`for k in "na", "nc": setattr(self, k, getattr(det, k))`).
   */
  private maySetAttribute(attribute: string): boolean {
    const named = (raw: SyntaxNode): string[] | undefined => {
      const node = unparenthesized(raw);
      if (isStringNode(node)) return [stringValue(this.text(node))];
      if (node.type !== "identifier") return undefined;
      const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
      const items = binding?.kind === "for" && binding.unpackPath.length === 0 && binding.value ? unparenthesized(binding.value) : undefined;
      if (!items || !["tuple", "list", "expression_list"].includes(items.type) || !items.children.every(isStringNode)) return undefined;
      return items.children.map((item) => stringValue(this.text(item)));
    };
    for (const node of identifiersNamed(this.env.text, "setattr", this.env.root)) {
      const call = node.field === "function" ? node.parent : undefined;
      const name = call?.type === "call" ? positionalArguments(call)[1] : undefined;
      const names = name && named(name);
      if (!names || names.includes(attribute)) return true;
    }
    return false;
  }

  /** `self.gr, self.autobalance = 1.0, autobalance` in `init`: by attribute, the parameter it keeps. */
  private parametersKept(init: SyntaxNode): Map<string, Binding> {
    const kept = new Map<string, Binding>();
    forEachNode(childByField(init, "body") ?? init, (node) => {
      if (node.type !== "assignment" || enclosingFunctionOf(node) !== init) return;
      const [left, right] = [childByField(node, "left"), childByField(node, "right")];
      const targets = left?.type === "pattern_list" || left?.type === "tuple_pattern" ? left.children : left ? [left] : [];
      const values = targets.length > 1 ? (right?.type === "expression_list" || right?.type === "tuple" ? right.children : []) : right ? [right] : [];
      if (values.length !== targets.length) return;
      targets.forEach((target, index) => {
        const object = target.type === "attribute" ? childByField(target, "object") : undefined;
        if (object?.type !== "identifier" || this.text(object) !== "self" || values[index].type !== "identifier") return;
        const parameter = resolveBinding(this.text(values[index]), values[index].start, scopeOf(values[index], this.env.scopes));
        if (parameter?.kind === "parameter" && parameter.node.parent?.parent === init) kept.set(this.text(childByField(target, "attribute")!), parameter);
      });
    });
    return kept;
  }

  /**
   * The parameter of `__init__` that `cls` keeps as `self.<attribute>` (the attribute's only assignment in the
   * file), and what each construction of the class passes: this file's calls of it, and other files'
   * (`ConstructedClass`). None when a subclass of the file may construct it otherwise, or when its methods run hot
   * on instances no construction known makes.
   */
  private constructorOption(cls: SyntaxNode, attribute: string): ConstructorOption | undefined {
    const key = `${cls.start}\0${attribute}`;
    if (!this.constructorOptions.has(key)) this.constructorOptions.set(key, this.findConstructorOption(cls, attribute));
    return this.constructorOptions.get(key);
  }
  private readonly constructorOptions = new Map<string, ConstructorOption | undefined>();

  private findConstructorOption(cls: SyntaxNode, attribute: string): ConstructorOption | undefined {
    const className = this.text(childByField(cls, "name")!);
    // Every hot method's callers construct their instances, so other files' constructions are known (`ConstructedClass`).
    const entry = this.env.hotEntries && Object.prototype.hasOwnProperty.call(this.env.hotEntries, className) ? this.env.hotEntries[className] : undefined;
    if (!entry || !("constructions" in entry)) return undefined;
    const init = methodOf(cls, "__init__", this.env.text);
    const parameter = init && this.parametersKept(init).get(attribute);
    if (!init || !parameter || this.subclassesOf(cls).length > 0 || this.maySetAttribute(attribute)) return undefined;
    // No other write: `loss.autobalance = True`, `losses[0].autobalance = True`, `self.autobalance = False` in another
    // method (`self.` writes in other classes are theirs; other files' writes on the instances they construct make
    // their constructions unknown, `moduleLinks`).
    let ownWrites = 0;
    for (const write of attributeWrites(this.env.text, attribute)) {
      if (write.inComment) continue;
      if (write.owner !== "self") return undefined;
      if (enclosingClassOf(nodeAt(this.env.root, write.at)) === cls) ownWrites++;
    }
    if (ownWrites !== 1) return undefined;
    const constructions: PassedArguments[] = [...entry.constructions];
    for (const node of identifiersNamed(this.env.text, className, this.env.root)) {
      // `class ComputeLoss:` itself, `super(ComputeLoss, self).__init__()` in it.
      if (contains(cls, node) && !(node.field === "function" && node.parent?.type === "call")) continue;
      // `partial(ComputeLoss, ...)`, `{"yolo": ComputeLoss}`, `class Sub(ComputeLoss)`: built in ways not seen here.
      if (node.field !== "function" || node.parent?.type !== "call") return undefined;
      constructions.push(passedArguments(node.parent, this.env.text));
    }
    // The methods run hot on instances that their hot callers in other files construct, all of them: a class of a
    // library, whose users construct it with their own options, is called otherwise (a trainer's callback hooks).
    const hotEntries = (childByField(cls, "body")?.children ?? []).flatMap((method) => {
      const fn = method.type === "decorated_definition" ? childByField(method, "definition") : method;
      const hot = fn?.type === "function_definition" ? this.crossFileEntry(fn) : undefined;
      return hot ? [hot] : [];
    });
    if (hotEntries.length === 0 || hotEntries.some((hot) => !hot.onOwnInstance)) return undefined;
    return { init, parameter, constructions };
  }

  /**
   * Why the branch of `if isinstance(v, torch.Tensor):` (or `torch.is_tensor(v)`) on a value the function was
   * given never runs: the calls that make the function hot pass no tensors (`logger.update(loss=loss.item())`).
   */
  private tensorOnlyBranch({ condition, taken }: Branch, depth: number): string | undefined {
    const test = unparenthesized(condition);
    if (!taken || test.type !== "call") return undefined;
    const callee = this.env.evidence.qualifiedName(childByField(test, "function")!);
    const [value, type] = positionalArguments(test);
    const isTensorTest = (callee === "isinstance" && !!type && /^torch\.(Tensor|\w+Tensor)$/.test(this.env.evidence.qualifiedName(type) ?? "")) || (callee === "torch.is_tensor" && !!value);
    const fn = enclosingFunctionOf(condition);
    if (!isTensorTest || !value || !fn || !this.fromParameters(value, fn) || !this.functionContext(fn, depth).tensorFree) return undefined;
    return `it runs only for a tensor (the test at line ${this.line(condition)}), and the calls that make ${this.functionLabel(fn)} hot pass none`;
  }

  /** `v` is a parameter, or a name bound by a loop over an expression of parameters (`for k, v in kwargs.items()`). */
  private fromParameters(raw: SyntaxNode, fn: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type !== "identifier") return false;
    const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
    if (binding?.kind === "parameter") return binding.node.parent?.parent === fn;
    if (binding?.kind !== "for" || !binding.value || enclosingFunctionOf(binding.node) !== fn) return false;
    // The names `fn` takes, `*args` and `**kwargs` included.
    const parameters = (childByField(fn, "parameters")?.children ?? []).map((parameter) => {
      const name = parameterName(parameter);
      return name ? this.text(name) : "";
    });
    return identifiersIn(binding.value, this.env.text).some((name) => parameters.includes(name));
  }

  /**
   * `p`, `not p`, `p is None`, `p is not None`, `p == "mean"` on a bare name; with `nameOf`, on what it names
   * (`opt.save_txt`).
   */
  private parameterTest(raw: SyntaxNode, nameOf = (node: SyntaxNode) => (node.type === "identifier" ? this.text(node) : undefined)): NameTest | undefined {
    const node = unparenthesized(raw);
    const [first, second] = node.children;
    const subject = node.type === "comparison_operator" && node.children.length === 2 ? nameOf(first) : undefined;
    // `if reduction == "mean":`
    if (subject && LITERAL_TYPES.has(second.type) && second.type !== "none") {
      const operator = node.tokens.join(" ");
      if (operator === "==" || operator === "!=") return { name: subject, kind: operator === "==" ? "equals" : "not-equals", literal: this.text(second) };
    }
    const whole = nameOf(node);
    if (whole) return { name: whole, kind: "truthy" };
    if (node.type === "not_operator") {
      const name = nameOf(unparenthesized(childByField(node, "argument") ?? node.children[0]));
      return name ? { name, kind: "falsy" } : undefined;
    }
    if (subject && second.type === "none") {
      const operator = node.tokens.join(" ");
      if (operator === "is") return { name: subject, kind: "none" };
      if (operator === "is not") return { name: subject, kind: "not-none" };
    }
    return undefined;
  }

  /**
   * Why a branch never runs with the script's default options: it tests an argparse option of this file
   * (`if opt.save_txt:`, `if args.masks:`, `if args.resume is not None:`) whose default fails the test
   * (`action="store_true"`, `default=None`), and which no statement of the file sets. Either operand of a taken
   * `and` may fail it.
   */
  private optionDefaultBranch(raw: SyntaxNode, taken: boolean): string | undefined {
    const option = this.optionFailingTest(raw, taken);
    return option && `it never runs with the default options: the test at line ${this.line(raw)} depends on ${this.optionDescription(option)}`;
  }

  /** The option whose default decides that `raw`, as a condition, is not `taken` (`optionDefaultBranch`). */
  private optionFailingTest(raw: SyntaxNode, taken: boolean): OptionDefault | undefined {
    const node = unparenthesized(raw);
    if (node.type === "boolean_operator") {
      if (node.tokens[0] !== (taken ? "and" : "or")) return undefined;
      const [left, right] = [childByField(node, "left"), childByField(node, "right")];
      return (left && this.optionFailingTest(left, taken)) ?? (right ? this.optionFailingTest(right, taken) : undefined);
    }
    const test = this.parameterTest(node, (operand) => this.optionRead(operand));
    const option = test && this.optionDefaults().get(test.name);
    if (!test || !option || nameTestHolds(test, option.value) === taken) return undefined;
    // `if args.dataset == "chairs":` of an option without a default: which value to run with is the user's choice.
    if (option.implicit && (test.kind === "equals" || test.kind === "not-equals")) return undefined;
    return option;
  }

  private optionDescription(option: OptionDefault): string {
    const definedAt = option.file ? `\`${option.file}\` line ${option.line}` : `line ${option.line}`;
    return `the option \`${option.flag}\`, which defaults to \`${option.value}\` (${definedAt}) and is not set in code`;
  }

  /**
   * The argparse options this file tests by default: those it defines (`parser.add_argument("--save-txt",
   * action="store_true")`), and those another file of the project defines (`opts.py`, told by the project:
   * `ProjectOption`), that no statement sets (`opt.save_txt = True`, `set_defaults(...)`), by destination.
   */
  private optionDefaults(): Map<string, OptionDefault> {
    if (this.options) return this.options;
    const { defined, setInCode } = this.ownOptions();
    const options = new Map(defined);
    for (const [key, entry] of Object.entries(this.env.hotEntries ?? {})) {
      const name = key.slice(2);
      if (key.startsWith("--") && "option" in entry && !options.has(name)) options.set(name, entry.option);
    }
    for (const name of setInCode) options.delete(name);
    if (setInCode.has("*")) options.clear();
    return (this.options = options);
  }

  /**
   * The options this file defines with a default (`optionDefaults` without the project's), the names it sets or
   * makes required (`setInCode`, "*" for any: `setattr(anything, ...)`), and those it sets on an options object
   * or makes required (`opt.flip = True`; "*" for `setattr(args, ...)`, `vars(args).update(...)`), which settle
   * them for the whole project.
   */
  ownOptions(): { defined: Map<string, OptionDefault>; setInCode: Set<string>; setForProject: Set<string> } {
    if (this.ownOptionsMemo) return this.ownOptionsMemo;
    const defined = new Map<string, OptionDefault>();
    const setInCode = new Set<string>();
    const setForProject = new Set<string>();
    const settle = (name: string, forProject: boolean) => {
      setInCode.add(name);
      if (forProject) setForProject.add(name);
    };
    // `args.fsdp = False`: turns an option off, which changes nothing of one that is off by default.
    const cleared = new Set<string>();
    if (setsAnyOption(this.env.text)) settle("*", true);
    forEachNode(this.env.root, (node) => {
      if (node.type === "assignment" || node.type === "augmented_assignment") {
        const left = childByField(node, "left");
        if (left?.type !== "attribute") return;
        const right = childByField(node, "right");
        const name = this.text(childByField(left, "attribute")!);
        if (node.type === "assignment" && right && OFF_LITERAL.test(this.text(right))) cleared.add(name);
        else settle(name, this.namesOptions(childByField(left, "object")!));
        return;
      }
      // `if not args.do_train and not args.do_predict: raise ValueError(...)`: the script runs with one of them set,
      // so neither default says what a run does.
      if (node.type === "if_statement") {
        for (const name of this.requiredOptions(node)) settle(name, true);
        return;
      }
      if (node.type !== "call") return;
      const callee = childByField(node, "function");
      const method = callee?.type === "attribute" ? this.text(childByField(callee, "attribute")!) : "";
      if (method === "set_defaults" || (callee?.type === "identifier" && this.text(callee) === "setattr")) {
        for (const argument of childByField(node, "arguments")?.children ?? []) if (argument.type === "keyword_argument") settle(this.text(childByField(argument, "name")!), true);
        // `setattr(args, name, value)` may set any option.
        if (method !== "set_defaults") setInCode.add("*");
        return;
      }
      if (callee && positionalArguments(node).length >= 1) this.dataclassOptions(node, defined);
      if (method !== "add_argument") return;
      const flags = positionalArguments(node).filter((argument) => isStringNode(argument)).map((argument) => stringValue(this.text(argument)));
      const long = flags.find((flag) => flag.startsWith("--")) ?? flags.find((flag) => flag.startsWith("-"));
      if (!long) return;
      const destination = keywordArgument(node, "dest", this.env.text);
      const name = destination && isStringNode(destination) ? stringValue(this.text(destination)) : long.replace(/^-+/, "").replace(/-/g, "_");
      const explicit = keywordArgument(node, "default", this.env.text);
      const action = keywordArgument(node, "action", this.env.text);
      const actionName = action && isStringNode(action) ? stringValue(this.text(action)) : undefined;
      let value: string | undefined;
      if (explicit) value = LITERAL_TYPES.has(unparenthesized(explicit).type) ? this.text(unparenthesized(explicit)) : undefined;
      else if (actionName === "store_true") value = "False";
      else if (actionName === "store_false") value = "True";
      else if (!action) value = "None";
      if (value !== undefined) defined.set(name, { flag: long, value, line: this.line(node), implicit: !explicit && !action });
    });
    for (const name of cleared) if (!OFF_LITERAL.test(defined.get(name)?.value ?? "")) setInCode.add(name);
    return (this.ownOptionsMemo = { defined, setInCode, setForProject });
  }
  private ownOptionsMemo: { defined: Map<string, OptionDefault>; setInCode: Set<string>; setForProject: Set<string> } | undefined;

  /**
   * The options this file tests (`if opt.eval_oracle_wh:`, `if self.opt.predictive_mask and ...`) without
   * defining them: a trainer whose parser is in another file (`opts.py`), which the project may know.
   */
  testedOptionsDefinedElsewhere(): string[] {
    const text = this.env.text;
    const own = mayDefineOptions(text) ? this.ownOptions().defined : new Map<string, OptionDefault>();
    const tested = new Set<string>();
    for (const { at } of optionReads(text)) {
      const identifier = nodeAt(this.env.root, at);
      if (identifier.type !== "identifier" || identifier.start !== at) continue;
      // `opt.x`, or `self.opt.x`, whose `opt` is the attribute of `self.opt`.
      const object = identifier.parent?.type === "attribute" && identifier.field === "attribute" ? identifier.parent : identifier;
      const read = object.parent?.type === "attribute" && object.field === "object" ? object.parent : undefined;
      if (!read || !this.namesOptions(object)) continue;
      const name = this.text(childByField(read, "attribute")!);
      if (!own.has(name) && this.inBranchCondition(read)) tested.add(name);
    }
    for (const { at, option } of optionGetattrReads(text)) {
      const call = nodeAt(this.env.root, at).parent;
      if (call?.type === "call" && this.optionRead(call) === option && !own.has(option) && this.inBranchCondition(call)) tested.add(option);
    }
    return [...tested].sort();
  }

  /**
   * `node` is part of the condition of an `if`/`elif` (through `and`, `or`, `not`, comparisons, parentheses), or
   * of a condition kept in a name (`use_fsdp = args.fsdp and args.distributed`, tested later: `localSettingBranch`).
   */
  private inBranchCondition(node: SyntaxNode): boolean {
    let child = node;
    for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
      if ((parent.type === "if_statement" || parent.type === "elif_clause") && child.field === "condition") return true;
      if (parent.type === "assignment" && child.field === "right" && childByField(parent, "left")?.type === "identifier") return child !== node;
      if (!CONDITION_PART.has(parent.type)) return false;
    }
    return false;
  }

  /**
   * `args = tyro.cli(Args)`, `HfArgumentParser((ModelArguments, TrainingArguments))`: the fields of a `@dataclass` of
   * this file that a parser is given are options, each defaulting to its literal (cleanrl's `clip_vloss: bool = True`).
   */
  private dataclassOptions(call: SyntaxNode, options: Map<string, OptionDefault>): void {
    const callee = lastName(this.text(childByField(call, "function")!));
    if (!/^(cli|parse|HfArgumentParser|ArgumentParser)$/.test(callee)) return;
    const [first] = positionalArguments(call);
    const given = unparenthesized(first).type === "tuple" ? unparenthesized(first).children : [first];
    for (const argument of given) {
      const binding = argument.type === "identifier" ? resolveBinding(this.text(argument), argument.start, scopeOf(argument, this.env.scopes)) : undefined;
      const cls = binding?.kind === "class" ? binding.value : undefined;
      const decorated = cls?.parent?.type === "decorated_definition" ? cls.parent : undefined;
      if (!cls || !decorated?.children.some((decorator) => decorator.type === "decorator" && /^@\s*(dataclasses\.)?dataclass\b/.test(this.text(decorator)))) continue;
      for (const statement of childByField(cls, "body")?.children ?? []) {
        const field = statement.type === "expression_statement" ? statement.children[0] : undefined;
        const [name, value] = field?.type === "assignment" ? [childByField(field, "left"), childByField(field, "right")] : [];
        if (name?.type !== "identifier" || !value || !LITERAL_TYPES.has(unparenthesized(value).type)) continue;
        options.set(this.text(name), { flag: this.text(name), value: this.text(unparenthesized(value)), line: this.line(statement), implicit: false });
      }
    }
  }

  /** The option `node` reads: `opt.save_txt`, `self.args.fsdp`, `getattr(args, "fsdp", False)`. */
  private optionRead(node: SyntaxNode): string | undefined {
    if (node.type === "attribute") {
      const object = childByField(node, "object");
      return object && this.namesOptions(object) ? this.text(childByField(node, "attribute")!) : undefined;
    }
    if (node.type !== "call" || this.text(childByField(node, "function")!) !== "getattr") return undefined;
    const [object, name] = positionalArguments(node);
    return object && name?.type === "string" && this.namesOptions(object) ? /^["'](\w+)["']$/.exec(this.text(name))?.[1] : undefined;
  }

  /** `args`, `opt`, or the same kept on the object (`self.args`, `self.opt`: a fairseq task's options). */
  private namesOptions(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type === "identifier") return OPTIONS_NAME.test(this.text(node));
    return node.type === "attribute" && isSelfAttribute(node, this.env.text) && OPTIONS_NAME.test(this.text(childByField(node, "attribute")!));
  }

  /**
   * The options an `if` requires at least one of, by refusing to go on without them: `if not args.do_train and
   * not args.do_eval: raise ValueError(...)` (or `parser.error(...)`, `sys.exit(...)`). Empty for any other `if`.
   */
  private requiredOptions(statement: SyntaxNode): string[] {
    const consequence = childByField(statement, "consequence");
    const refuses = consequence?.children.some((child) =>
      child.type === "raise_statement" || (child.type === "expression_statement" && /^(parser\.error|sys\.exit|exit)\(/.test(this.text(child))));
    if (!refuses) return [];
    const names: string[] = [];
    const collect = (raw: SyntaxNode): boolean => {
      const node = unparenthesized(raw);
      if (node.type === "boolean_operator" && node.tokens[0] === "and") return node.children.every(collect);
      const operand = node.type === "not_operator" ? childByField(node, "argument") : undefined;
      const object = operand?.type === "attribute" ? childByField(operand, "object") : undefined;
      if (!operand || !object || !this.namesOptions(object)) return false;
      names.push(this.text(childByField(operand, "attribute")!));
      return true;
    };
    const condition = childByField(statement, "condition");
    return condition && collect(condition) ? names : [];
  }

  /**
   * Why a branch never runs with the script's default settings: it tests a module-level setting bound once, to a
   * literal or to an environment variable's literal default (`USE_FP8 = False`, `MODE = os.environ.get("MODE",
   * "off")`), that nothing rebinds (`if USE_FP8:`, `if MODE == "delta":`).
   */
  private moduleSettingBranch({ condition, taken }: Branch): string | undefined {
    const test = this.parameterTest(condition);
    const binding = test && soleAssignment(this.env.scopes.module.bindings.get(test.name));
    if (!test || !binding?.value || resolveBinding(test.name, condition.start, scopeOf(condition, this.env.scopes)) !== binding) return undefined;
    // `global USE_FP8` in a function may set it anew.
    if (new RegExp(`\\bglobal\\b[^\\n]*\\b${test.name}\\b`).test(this.env.text)) return undefined;
    const value = this.settingDefault(binding.value);
    if (value === undefined) return undefined;
    if (nameTestHolds(test, value) === taken) return undefined;
    return `it never runs with the default settings: the test at line ${this.line(condition)} depends on \`${test.name}\`, set once to \`${this.text(binding.value).replace(/\s+/g, " ")}\` at line ${this.line(binding.node)}`;
  }

  /**
   * Why a branch never runs: it tests a variable of its function bound once, to a literal (`do_test = False`, then
   * `if do_test:`), that nothing else binds; a switch written into the script, like a module-level setting.
   */
  private localSettingBranch({ condition, taken }: Branch): string | undefined {
    const test = this.parameterTest(condition);
    const fn = enclosingFunctionOf(condition);
    const scope = fn && this.env.scopes.get(fn);
    const binding = test && soleAssignment(scope?.bindings.get(test.name));
    if (!test || !binding?.value || binding.node.start > condition.start) return undefined;
    // `dump_dir = os.environ.get("HF_BACKEND_LOGIT_DUMP")`: a debugging switch, unset unless someone sets it.
    const literal = LITERAL_TYPES.has(unparenthesized(binding.value).type);
    const value = this.settingDefault(binding.value);
    // `use_fsdp = getattr(args, "fsdp", False) and args.distributed`, then `if use_fsdp:`: the test of an option kept in a name.
    const needsTruth = (test.kind === "truthy" && taken) || (test.kind === "falsy" && !taken);
    if (value === undefined && needsTruth) {
      const option = this.optionFailingTest(binding.value, true);
      return option && `it never runs with the default options: the test at line ${this.line(condition)} depends on \`${test.name}\`, set at line ${this.line(binding.node)} by a test of ${this.optionDescription(option)}`;
    }
    if (value === undefined) return undefined;
    // A nested function may rebind it (`nonlocal do_test`).
    if (new RegExp(`\\bnonlocal\\b[^\\n]*\\b${test.name}\\b`).test(this.text(fn!))) return undefined;
    if (nameTestHolds(test, value) === taken) return undefined;
    if (!literal) return `it never runs with the default environment: the test at line ${this.line(condition)} depends on \`${test.name}\`, read from the environment at line ${this.line(binding.node)}, \`${value}\` when the variable is not set`;
    return `it never runs: the test at line ${this.line(condition)} depends on \`${test.name}\`, set once to \`${value}\` at line ${this.line(binding.node)}`;
  }

  /** The literal a setting's value has by default: a literal, or `os.environ.get("NAME", literal)` (through `int()`/`float()`). */
  private settingDefault(raw: SyntaxNode): string | undefined {
    const node = unparenthesized(raw);
    if (LITERAL_TYPES.has(node.type)) return this.text(node);
    if (node.type !== "call") return undefined;
    const name = this.env.evidence.qualifiedName(childByField(node, "function")!);
    const args = positionalArguments(node);
    if ((name === "int" || name === "float") && args.length === 1) {
      const inner = this.settingDefault(args[0]);
      const number = inner === undefined ? NaN : Number(inner.replace(/^[rRuU]?(["'])(.*)\1$/, "$2"));
      return Number.isNaN(number) ? undefined : String(number);
    }
    if ((name === "os.environ.get" || name === "os.getenv") && (args.length === 1 || (args.length === 2 && LITERAL_TYPES.has(unparenthesized(args[1]).type)))) {
      // What a launcher sets (`RANK`, `LOCAL_RANK`, `WORLD_SIZE`, `SLURM_*`) is no user's default.
      if (LAUNCHER_VARIABLE.test(this.text(args[0]))) return undefined;
      return args.length === 1 ? "None" : this.text(unparenthesized(args[1]));
    }
    return undefined;
  }

  /** The literal a parameter has on a call that passes `passed`; undefined when it is not known to be one. */
  private parameterValue(fn: SyntaxNode, parameter: Binding, passed: PassedArguments): string | undefined {
    if (passed.spread) return undefined;
    if (Object.prototype.hasOwnProperty.call(passed.keywords, parameter.name)) return passed.keywords[parameter.name] ?? undefined;
    const index = positionalParameters(fn).indexOf(parameter.node) - this.implicitParameters(fn);
    if (index < 0 || index < passed.positional) return undefined;
    const fallback = parameter.defaultValue;
    // `labels=()`: an empty container is as false as `None` in `if labels and ...:`.
    return fallback && (LITERAL_TYPES.has(fallback.type) || isEmptyContainer(fallback)) ? this.text(fallback) : undefined;
  }

  /** A `return`, `raise`, `break`, `continue` or `assert False` before `child` in `block`: what follows is dead code. */
  private exitBefore(block: SyntaxNode, child: SyntaxNode): SyntaxNode | undefined {
    for (const statement of block.children) {
      if (statement.start >= child.start) return undefined;
      if (statement.type === "return_statement" || statement.type === "raise_statement" || statement.type === "break_statement" || statement.type === "continue_statement") return statement;
      if (statement.type === "assert_statement" && statement.children[0]?.type === "false") return statement;
    }
    return undefined;
  }

  /**
   * Whether a test holds only with a CUDA device ("cuda") or only without one ("other"): `x.device.type == "mps"`,
   * `"mps" in device.type`, `device == "cpu"`, `not torch.cuda.is_available()`, `x.is_cuda`, a flag named `mps` or
   * `use_cpu`, or a name assigned one of these.
   */
  /** True for a test that holds only under TorchScript or while a graph is traced, false for its negation. */
  private tracingTest(raw: SyntaxNode): boolean | undefined {
    const node = unparenthesized(raw);
    if (node.type === "not_operator") {
      const argument = childByField(node, "argument") ?? node.children[0];
      const inner = argument ? this.tracingTest(argument) : undefined;
      return inner === undefined ? undefined : !inner;
    }
    if (node.type !== "call") return undefined;
    const callee = childByField(node, "function");
    const name = callee ? this.env.evidence.qualifiedName(callee) : undefined;
    return name && TRACING_TEST.test(name) ? true : undefined;
  }

  deviceTest(raw: SyntaxNode): "cuda" | "other" | undefined {
    const node = unparenthesized(raw);
    const flip = (kind: "cuda" | "other" | undefined) => (kind === "cuda" ? "other" : kind === "other" ? "cuda" : undefined);
    switch (node.type) {
      case "not_operator": {
        const argument = childByField(node, "argument") ?? node.children[0];
        return argument ? flip(this.deviceTest(argument)) : undefined;
      }
      case "call": {
        const callee = childByField(node, "function");
        const name = callee ? this.env.evidence.qualifiedName(callee) : undefined;
        if (name === "torch.cuda.is_available") return "cuda";
        if (name === "torch.backends.mps.is_available") return "other";
        // `torch.xpu.is_available()`, accelerate's `is_xpu_available()`, `is_torch_npu_available()`: another accelerator.
        if (name && /(^|\.)(is_(torch_)?(xpu|npu|mlu|hpu|mps|tpu|xla)_available|(xpu|npu|mlu|hpu)\.is_available)$/.test(name)) return "other";
        return undefined;
      }
      case "attribute":
      case "identifier": {
        const name = lastName(this.text(node));
        if (name === "is_cuda" || CUDA_FLAG_NAME.test(name)) return "cuda";
        // `mps`, `use_cpu`, `x_is_dml` (DirectML, `privateuseone`): another device.
        if (/^(\w*_?is_|use_|on_)?(mps|cpu|xla|tpu|dml|directml)$/i.test(name)) return "other";
        if (node.type !== "identifier") return undefined;
        let kind: "cuda" | "other" | undefined;
        this.assignedTest(node, raw, (value) => (kind = this.deviceTest(value)) !== undefined);
        return kind;
      }
      case "comparison_operator": {
        if (node.tokens.length !== 1 || node.children.length !== 2) return undefined;
        const [left, right] = node.children;
        // `args.n_gpu > 0`, `cfg.NUM_GPUS >= 1` (CUDA only); `num_gpus == 0` (never beside one). Only a test of
        // "any GPU at all" says what its other branch runs on: `if num_gpus > 1:` (several GPUs) leaves one GPU to
        // the `else:`.
        if (right.type === "integer" && CUDA_FLAG_NAME.test(lastName(this.text(left)))) {
          const bound = Number(this.text(right));
          const holds = { ">": bound === 0, ">=": bound === 1, "!=": bound === 0 }[node.tokens[0]];
          const fails = { "==": bound === 0, "<": bound === 1, "<=": bound === 0 }[node.tokens[0]];
          return holds ? "cuda" : fails ? "other" : undefined;
        }
        // `masked_tokens.device == torch.device("cpu")` (fairseq's masked LM loss) compares with the device named.
        const named = (side: SyntaxNode) => {
          const [name] = side.type === "call" && this.env.evidence.qualifiedName(childByField(side, "function")!) === "torch.device" ? positionalArguments(side) : [];
          return name?.type === "string" ? name : side;
        };
        const literal = [left, right].map(named).map((side) => (side.type === "string" ? this.text(side).replace(/^[rbuf]*["']|["']$/gi, "") : undefined));
        const other = literal[0] !== undefined ? right : literal[1] !== undefined ? left : undefined;
        const value = literal[0] ?? literal[1];
        // Only a device's type or name is compared: `device.type`, `str(device)`, `args.device`.
        if (!other || value === undefined || !/device|\.type$|^dev$/i.test(this.text(other))) return undefined;
        const kind = value === "cuda" ? "cuda" : /^(cpu|mps|xla|tpu|xpu|npu|hpu|mlu|musa|neuron|ipu|privateuseone|dml)$/.test(value) ? "other" : undefined;
        switch (node.tokens[0]) {
          case "==":
            return kind;
          case "!=":
            return flip(kind);
          case "in":
            // `"mps" in device.type`
            return literal[0] !== undefined ? kind : undefined;
          case "not in":
            return literal[0] !== undefined ? flip(kind) : undefined;
          default:
            return undefined;
        }
      }
      default:
        return undefined;
    }
  }

  /**
   * `break` or `return` at the end of `branch` straight out of a step loop (`if done: save(); break`): the branch
   * ends that loop's run. Out of any other loop it may end one pass of it, which a step may run every time.
   */
  private leavesStepLoop(statement: SyntaxNode, branch: SyntaxNode): boolean {
    if (statement.type !== "break_statement" && statement.type !== "return_statement") return false;
    const loop = loopStatementAround(branch);
    return !!loop && this.loopKind(loop) === "step";
  }

  /** `raise ...`, `sys.exit(...)`, `exit()`, `os._exit(...)`: a statement after which this run does not go on. */
  private endsRun(statement: SyntaxNode): boolean {
    if (statement.type === "raise_statement") return true;
    if (statement.type !== "expression_statement" || statement.children.length !== 1 || statement.children[0].type !== "call") return false;
    const callee = childByField(statement.children[0], "function");
    return !!callee && /^(sys\.exit|exit|quit|os\._exit)$/.test(this.text(callee));
  }

  loopKind(loop: SyntaxNode): LoopKind {
    const cached = this.loopKinds.get(loop);
    if (cached) return cached;
    // A guard inside the loop may ask what the loop counts (`if step >= stop_at:` in a loop whose nested loop is
    // under that guard): while the loop's kind is being decided, it is no step loop.
    if (this.loopsInProgress.has(loop)) return "other";
    this.loopsInProgress.add(loop);
    try {
      const kind = this.decideLoopKind(loop);
      this.loopKinds.set(loop, kind);
      return kind;
    } finally {
      this.loopsInProgress.delete(loop);
    }
  }

  private decideLoopKind(loop: SyntaxNode): LoopKind {
    // Each batch of a sampler or an evaluation that runs a whole loop of model steps (`diffusion.p_sample_loop(model, ...)`)
    // is no step: what the outer loop does per batch is spread over that loop's steps.
    if (this.iteratesData(loop)) return this.runsLoopThroughCall(loop) ? "epoch" : this.collectsExamples(loop) || this.trainsAfter(loop) ? "other" : "step";
    // `while not done: action = agent.select_action(state); ... env.step(action)`: each pass is one step of the
    // environment, where the agent acts, even when it also runs a nested loop of updates.
    if (this.stepsEnvironment(loop)) return "step";
    // A validation forward pass in the epoch loop's own body does not make it a step loop; a backward does.
    const nestedStepLoop = this.containsStepLoop(loop);
    // A callee that trains makes each iteration a step, unless the loop also runs a step loop (an epoch's).
    const trainsThroughCall = !nestedStepLoop && this.trainsThroughCall(loop);
    if ((this.isEpochLoop(loop) || nestedStepLoop) && !this.doesStepWork(loop, true, false) && !trainsThroughCall) return "epoch";
    // Counting steps while an object is built fills a per-step table (a schedule): set-up, not training.
    // A model run in a nested loop makes that loop the step loop (`for model in models: for x in inputs: model(x)`).
    const stepWork = this.doesStepWork(loop, false, false) || this.doesStepWork(loop, true, true);
    if ((this.iteratesStepRange(loop) && !this.runsAtConstruction(enclosingFunctionOf(loop))) || stepWork || trainsThroughCall) return "step";
    return "other";
  }

  /** `env.step(action)`, `envs.step(...)` in the loop's own body, outside nested loops. */
  private stepsEnvironment(loop: SyntaxNode): boolean {
    return this.someDirectNode(loop, (node) => node.type === "call" && isEnvironmentStep(node, this.env.text), true);
  }

  /** A function of this file that only its `test_*` functions call. */
  private calledOnlyByTests(fn: SyntaxNode): boolean {
    return this.calledOnlyFrom(fn, (name) => name.startsWith("test_"));
  }

  /** `__init__`, or a function of this file that only `__init__` methods call: it runs while an object is built. */
  private runsAtConstruction(fn: SyntaxNode | undefined): boolean {
    if (!fn) return false;
    return this.text(childByField(fn, "name")!) === "__init__" || this.calledOnlyFrom(fn, (name) => name === "__init__");
  }

  /** Some function of this file calls `fn`, and every call is in a function whose name `callerName` accepts. */
  private calledOnlyFrom(fn: SyntaxNode, callerName: (name: string) => boolean): boolean {
    const calls = this.callsFromOutside(fn);
    return calls.length > 0 && calls.every((call) => {
      const caller = enclosingFunctionOf(call);
      return !!caller && callerName(this.text(childByField(caller, "name")!));
    });
  }

  private stepLoopEvidence(loop: SyntaxNode): string {
    if (this.iteratesData(loop)) return "iterates over batches of data";
    if (this.iteratesStepRange(loop)) return "counts training steps";
    return "runs a forward/backward pass or an optimizer step on each iteration";
  }

  /**
   * A loop over batches that only gathers examples until it has enough (`if len(images) >= n: break` at the end
   * of its body) and runs no model: a few batches drawn to show or to sample from, not a step loop.
   */
  private collectsExamples(loop: SyntaxNode): boolean {
    const [counted] = this.finalBreakComparison(loop)?.children.map(unparenthesized) ?? [];
    if (counted?.type === "call" && this.text(childByField(counted, "function")!) === "len") return !this.doesStepWork(loop, false, true);
    // `if i == args.n_test_samples - 1: break` over `enumerate(test_loader)`: a few batches (8 by default) run
    // through a model to save or show before training; not steps, unless it trains on them.
    return (this.countedPasses(loop) ?? Infinity) <= FEW_ITERATIONS && !this.doesStepWork(loop, false, false);
  }

  /**
   * How many items the loop goes over when its iterable is a name for a tuple, list or set written out: bound to
   * it once (`splits = ("train", "val")`), or a parameter that every call in this file leaves at such a default
   * (`def min_dcf(scores, p_targets=(0.01, 0.001))`).
   */
  private writtenOutLength(loop: SyntaxNode): number | undefined {
    const iterable = loopIterable(loop);
    const name = iterable && unparenthesized(iterable);
    if (name?.type !== "identifier") return undefined;
    const bindings = scopeOf(name, this.env.scopes).bindings.get(this.text(name)) ?? [];
    if (bindings.length !== 1) return undefined;
    const [binding] = bindings;
    const written = binding.kind === "parameter" ? (this.callsLeaveDefault(binding) ? binding.defaultValue : undefined) : binding.kind === "assign" && binding.unpackPath.length === 0 ? binding.value : undefined;
    const items = written && unparenthesized(written);
    return items && WRITTEN_OUT.has(items.type) ? writtenOutCount(items) : undefined;
  }

  /** The loop makes at most FEW_ITERATIONS passes: `range(8)`, or `if i == n_samples - 1: break` with `n_samples` 8. */
  makesFewPasses(loop: SyntaxNode): boolean {
    return (literalRangeLength(loop, this.env.text) ?? this.countedPasses(loop) ?? Infinity) <= FEW_ITERATIONS;
  }

  /** `a >= b`, `a > b` or `a == b` of an `if` that ends the loop's body with a bare `break`. */
  private finalBreakComparison(loop: SyntaxNode): SyntaxNode | undefined {
    const body = childByField(loop, "body");
    const last = body?.children[body.children.length - 1];
    if (last?.type !== "if_statement" || childByField(last, "alternative")) return undefined;
    const consequence = childByField(last, "consequence");
    if (consequence?.children.length !== 1 || consequence.children[0].type !== "break_statement") return undefined;
    const condition = unparenthesized(childByField(last, "condition")!);
    return condition.type === "comparison_operator" && condition.children.length === 2 && /^(>=|>|==)$/.test(condition.tokens[0]) ? condition : undefined;
  }

  /**
   * How many passes a loop `for i, x in enumerate(...)` makes that ends with `if i == n - 1: break` (or `i >= n`),
   * where `n` is an integer or an option of this file that defaults to one; undefined for any other loop.
   */
  private countedPasses(loop: SyntaxNode): number | undefined {
    const condition = this.finalBreakComparison(loop);
    if (!condition) return undefined;
    const [counted, bound] = condition.children.map(unparenthesized);
    const left = childByField(loop, "left");
    const right = childByField(loop, "right");
    const counter = left && (left.type === "pattern_list" || left.type === "tuple_pattern") ? left.children.find((child) => child.type === "identifier") : undefined;
    if (counted.type !== "identifier" || !counter || this.text(counter) !== this.text(counted)) return undefined;
    if (right?.type !== "call" || this.text(childByField(right, "function")!) !== "enumerate") return undefined;
    const limit = this.integerValue(bound);
    // `i == n - 1` and `i >= n - 1` stop after n passes; `i > n - 1` one later: "a few" either way.
    return limit === undefined ? undefined : limit + (condition.tokens[0] === ">" ? 2 : 1);
  }

  /** `8`, `n - 1` of such, or `args.n_samples` of an option of this file that defaults to an integer. */
  private integerValue(raw: SyntaxNode): number | undefined {
    const node = unparenthesized(raw);
    if (node.type === "integer") return Number(this.text(node));
    if (node.type === "binary_operator" && node.tokens[0] === "-") {
      const [left, right] = [this.integerValue(childByField(node, "left")!), this.integerValue(childByField(node, "right")!)];
      return left !== undefined && right !== undefined ? left - right : undefined;
    }
    const object = node.type === "attribute" ? childByField(node, "object") : undefined;
    const option = object && this.namesOptions(object) ? this.optionDefaults().get(this.text(childByField(node, "attribute")!)) : undefined;
    return option && /^\d+$/.test(option.value) ? Number(option.value) : undefined;
  }

  private iteratesData(loop: SyntaxNode): boolean {
    if (loop.type === "for_statement") {
      const iterable = childByField(loop, "right");
      if (iterable && this.yieldsBatches(iterable, 0)) return true;
    }
    return this.drawsBatches(loop);
  }

  /**
   * `batch = next(train_iter)` in the loop's own body: each pass takes a batch, also in `for update in
   * range(num_updates):` around nested loops over that batch's minibatches (TRL's PPO).
   */
  private drawsBatches(loop: SyntaxNode): boolean {
    return this.someDirectNode(loop, (node) => {
      if (node.type !== "call") return false;
      const callee = childByField(node, "function");
      if (callee?.type !== "identifier" || this.text(callee) !== "next") return false;
      const [source] = positionalArguments(node);
      if (!source) return false;
      const kind = this.env.evidence.of(source).kind;
      return kind === "loader" || kind === "device-loader" || DATA_ITERABLE_NAME.test(this.text(source)) || /iter|loader|prefetch/i.test(this.text(source));
    }, true);
  }

  /** `loader`, `enumerate(loader)`, `tqdm(loader)`, `zip(loader, other)`: an iterable of batches. */
  private yieldsBatches(iterable: SyntaxNode, depth: number): boolean {
    const node = unparenthesized(iterable);
    if (depth < 4 && node.type === "call") {
      const callee = childByField(node, "function");
      const name = callee ? this.env.evidence.qualifiedName(callee) : undefined;
      const args = positionalArguments(node);
      if (name === "zip") return args.some((arg) => this.yieldsBatches(arg, depth + 1));
      if (name && /^(enumerate|iter|(\w+\.)*tqdm|trange|islice|itertools\.islice|progress_bar|track|cycle|itertools\.cycle)$/i.test(name) && args[0])
        return this.yieldsBatches(args[0], depth + 1);
    }
    // `pbar = tqdm(enumerate(loader))` before the loop, then `for i, batch in pbar:`.
    if (depth < 4 && node.type === "identifier") {
      const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
      if (binding?.kind === "assign" && binding.unpackPath.length === 0 && binding.value && unparenthesized(binding.value).type === "call" && this.yieldsBatches(binding.value, depth + 1)) return true;
    }
    // A loader that puts its batches on the device (accelerate, Fabric) yields GPU tensors, still batches. A batch
    // itself (`for s in sample_input:` with `sample_input = list(batch)`) yields its fields, within one step.
    const whole = this.env.evidence.of(node).kind;
    return whole === "device-loader" || (whole !== "batch" && this.env.evidence.elementOf(node, []).kind === "batch");
  }

  private iteratesStepRange(loop: SyntaxNode): boolean {
    const bound = loopBound(loop);
    if (!bound) return false;
    if (loop.type === "for_statement") {
      const call = unparenthesized(bound);
      if (call.type !== "call") return false;
      const callee = childByField(call, "function");
      if (!callee || !/^(range|trange|tqdm)$/.test(this.text(callee))) return false;
    }
    return identifiersIn(bound, this.env.text).some((name) => STEP_COUNT_NAME.test(name) && !EPOCH_NAME.test(name) && !SOLVER_ITERATION_NAME.test(name));
  }

  private isEpochLoop(loop: SyntaxNode): boolean {
    if (loop.type !== "for_statement") return loop.type === "while_statement" && identifiersIn(childByField(loop, "condition")!, this.env.text).some((n) => EPOCH_NAME.test(n));
    const target = childByField(loop, "left");
    const iterable = childByField(loop, "right");
    if (target && EPOCH_NAME.test(this.text(target))) return true;
    // `for step in range(args.epoch):` counts steps, whatever the bound is called (MAML's training loop).
    if (target?.type === "identifier" && STEP_COUNT_NAME.test(this.text(target))) return false;
    return !!iterable && identifiersIn(iterable, this.env.text).some((n) => EPOCH_NAME.test(n));
  }

  /**
   * A nested loop that trains (over batches of data, or calling `.backward()` or an optimizer's `.step()`), or a
   * call to a function of this file with a step loop, outside any periodic guard: this loop runs its own body
   * once per run of that loop (an epoch, a benchmark's stage), unless it trains in its own body too. A loop over
   * gradient-accumulation micro-batches is part of a step, not a step loop of its own.
   */
  private containsStepLoop(loop: SyntaxNode): boolean {
    const body = childByField(loop, "body");
    if (!body) return false;
    return someNode(body, (node) => {
      if (node.type === "for_statement" || node.type === "while_statement") {
        const trains = (this.iteratesData(node) && !this.trainsAfter(node)) || (this.doesStepWork(node, false, false) && !this.countsMicroBatches(node));
        return trains && !this.underPeriodicGuard(node, loop);
      }
      if (node.type === "call") {
        const fn = this.localFunction(node);
        return !!fn && fn !== enclosingFunctionOf(loop) && this.hasStepLoop(fn) && !this.underPeriodicGuard(node, loop);
      }
      return false;
    });
  }

  /**
   * `for size in size_list` with `size_list = [torch.zeros(1, device=d) for _ in range(world_size)]`, or a `zip`
   * with such a list: one item per process of a distributed group, gathered once (detectron2's `all_gather`).
   */
  private iteratesRanks(iterable: SyntaxNode | undefined, depth: number): boolean {
    const node = iterable && unparenthesized(iterable);
    if (!node || depth > 3) return false;
    if (node.type === "call") {
      const callee = childByField(node, "function");
      const name = callee ? this.text(callee) : "";
      if (name === "zip") return positionalArguments(node).some((argument) => this.iteratesRanks(argument, depth + 1));
      const [bound] = positionalArguments(node);
      return name === "range" && !!bound && WORLD_SIZE.test(this.text(bound));
    }
    if (node.type !== "identifier") return false;
    const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
    const value = binding?.kind === "assign" && binding.unpackPath.length === 0 && binding.value ? unparenthesized(binding.value) : undefined;
    return value?.type === "list_comprehension" && this.iteratesRanks(loopIterable(value), depth + 1);
  }

  /**
   * `model.named_parameters()`, `model.state_dict().items()`, `optimizer.param_groups`, through `enumerate`,
   * `list`, `sorted` or a variable: a model's weights or an optimizer's groups, which code outside the step
   * loop goes over to save, export, convert or set them up.
   */
  private iteratesWeights(iterable: SyntaxNode | undefined, depth: number): boolean {
    if (!iterable || depth > 3) return false;
    const node = unparenthesized(iterable);
    if (node.type === "attribute") return this.text(childByField(node, "attribute")!) === "param_groups";
    if (node.type === "identifier") {
      const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
      return binding?.kind === "assign" && binding.unpackPath.length === 0 && this.iteratesWeights(binding.value, depth + 1);
    }
    if (node.type !== "call") return false;
    const callee = childByField(node, "function");
    if (callee?.type === "identifier") {
      const [first] = positionalArguments(node);
      return /^(enumerate|list|sorted|reversed|tuple)$/.test(this.text(callee)) && this.iteratesWeights(first, depth + 1);
    }
    if (callee?.type !== "attribute") return false;
    const method = this.text(childByField(callee, "attribute")!);
    if (WEIGHT_ITERATORS.test(method)) return true;
    return /^(items|values|keys)$/.test(method) && this.iteratesWeights(childByField(callee, "object"), depth + 1);
  }

  /** `for micro_step in range(grad_accum_steps)`: the micro-batches of one optimizer step. */
  private countsMicroBatches(loop: SyntaxNode): boolean {
    const bound = loopBound(loop);
    return (!!bound && identifiersIn(bound, this.env.text).some((name) => ACCUMULATION_NAME.test(name))) || this.accumulatesForOuterStep(loop) || this.trainsAfter(loop);
  }

  /**
   * The loop runs backward passes but steps no optimizer, and a loop around it steps one in its own body
   * (`for example_step in ...: for pass_idx in ...: loss.backward()`, then `optimizer.step()`; nanochat's RL):
   * its iterations accumulate the gradients of one step.
   */
  private accumulatesForOuterStep(loop: SyntaxNode): boolean {
    let cached = this.accumulating.get(loop);
    if (cached === undefined) {
      cached = false;
      if (this.someDirectNode(loop, (node) => this.isMethodCall(node, "backward"), false) && !this.someDirectNode(loop, (node) => this.stepsOptimizer(node), false)) {
        for (let outer = loopStatementAround(loop); outer && !cached; outer = loopStatementAround(outer)) cached = this.someDirectNode(outer, (node) => this.stepsOptimizer(node), true);
      }
      this.accumulating.set(loop, cached);
    }
    return cached;
  }
  private readonly accumulating = new Map<SyntaxNode, boolean>();

  private isMethodCall(node: SyntaxNode, method: string): boolean {
    const callee = node.type === "call" ? childByField(node, "function") : undefined;
    return callee?.type === "attribute" && this.text(childByField(callee, "attribute")!) === method;
  }

  /** `optimizer.step()`, `scaler.step(optimizer)`. */
  private stepsOptimizer(node: SyntaxNode): boolean {
    const callee = node.type === "call" ? childByField(node, "function") : undefined;
    return callee?.type === "attribute" && this.text(childByField(callee, "attribute")!) === "step" && OPTIMIZER_NAME.test(lastName(this.text(childByField(callee, "object")!)));
  }

  /** Whether a periodic guard between `node` and the enclosing `loop` makes `node` run on some iterations only. */
  private underPeriodicGuard(node: SyntaxNode, loop: SyntaxNode): boolean {
    for (let child = node, ancestor = node.parent; ancestor && ancestor !== loop; child = ancestor, ancestor = ancestor.parent) {
      if (this.periodicGuardAbove(ancestor, child, node)) return true;
    }
    return false;
  }

  /**
   * The loop's own body calls a function of this file that runs a backward pass once per call, outside any loop
   * of its own (`loss = train()` of full-batch training): each iteration is an optimizer step, whatever the
   * loop's name.
   */
  private trainsThroughCall(loop: SyntaxNode): boolean {
    return this.someDirectNode(loop, (node) => {
      if (node.type !== "call") return false;
      const fn = this.localFunction(node);
      return !!fn && fn !== enclosingFunctionOf(loop) && !this.hasStepLoop(fn) && this.callsBackward(fn);
    }, true);
  }

  /**
   * The loop's body (not a nested loop of it, nor a periodic branch) calls a loop by name (`p_sample_loop`,
   * `calc_bpd_loop`). Not a function of the file with a step loop of its own: a training loop calls its
   * validation so, every N steps or on a condition the analysis may not see.
   */
  private runsLoopThroughCall(loop: SyntaxNode): boolean {
    return this.someDirectNode(loop, (node) => {
      const callee = node.type === "call" ? childByField(node, "function") : undefined;
      return !!callee && LOOP_FUNCTION_NAME.test(lastName(this.text(callee))) && !this.underPeriodicGuard(node, loop);
    }, true);
  }

  /** `fn` calls `.backward()` in its own body (nested loops and functions skipped). */
  private callsBackward(fn: SyntaxNode): boolean {
    return this.someDirectNode(fn, (node) => {
      if (node.type !== "call") return false;
      const callee = childByField(node, "function");
      return callee?.type === "attribute" && this.text(childByField(callee, "attribute")!) === "backward";
    }, true);
  }

  /** The expression of a function whose body is one `return` (after a docstring). */
  private soleReturnOf(fn: SyntaxNode | undefined): SyntaxNode | undefined {
    const body = fn && childByField(fn, "body");
    const statements = body?.children.filter((statement) => statement.type !== "comment" && !(statement.type === "expression_statement" && statement.children[0]?.type === "string"));
    if (statements?.length !== 1 || statements[0].type !== "return_statement") return undefined;
    return statements[0].children[0];
  }

  /** The function of this file that `call` calls (`f(...)`, or `self.f(...)` in `f`'s class), if one is. */
  localFunction(call: SyntaxNode): SyntaxNode | undefined {
    const callee = childByField(call, "function");
    if (!callee) return undefined;
    if (callee.type === "identifier") {
      const binding = resolveBinding(this.text(callee), callee.start, scopeOf(callee, this.env.scopes));
      return binding?.kind === "function" ? binding.value : undefined;
    }
    if (isSelfAttribute(callee, this.env.text)) {
      // A method of the class, or one it inherits from a class of this file (`EDMSampler.sampler_step`).
      const cls = enclosingClassOf(call);
      return cls ? this.env.evidence.inheritedMethod(cls, this.text(childByField(callee, "attribute")!)) : undefined;
    }
    return undefined;
  }

  /**
   * `fn` runs a step loop: its own, or that of a function of this file it calls outside any loop
   * (`run_chat_eval()` dispatches to `run_categorical_eval()`, whose loop goes over the batches): once per call,
   * so the rest of its body, and its callers' loops, run once per pass over the steps.
   */
  private hasStepLoop(fn: SyntaxNode): boolean {
    const cached = this.functionHasStepLoop.get(fn);
    if (cached !== undefined) return cached;
    this.functionHasStepLoop.set(fn, false);
    const body = childByField(fn, "body");
    // A loop over the micro-batches of one step is part of that step: the function still runs once per step.
    const result = !!body && someNode(body, (node) => {
      if (node.type === "for_statement" || node.type === "while_statement") return !this.countsMicroBatches(node) && (this.iteratesData(node) || this.doesStepWork(node, false, true));
      if (node.type !== "call" || loopStatementAround(node)) return false;
      const callee = this.localFunction(node);
      return !!callee && callee !== fn && this.hasStepLoop(callee);
    });
    this.functionHasStepLoop.set(fn, result);
    return result;
  }

  /** The loop body calls `.backward()`, an optimizer's `.step()`, `.zero_grad()` (or, if asked, a model). */
  private doesStepWork(loop: SyntaxNode, directOnly: boolean, modelCalls: boolean): boolean {
    return this.someDirectNode(loop, (node) => {
      if (node.type !== "call") return false;
      const callee = childByField(node, "function");
      if (!callee) return false;
      if (modelCalls && this.runsModelPassed(node, enclosingFunctionOf(loop), 0)) return true;
      // `dec = self._model_decode(seq, enc)`: a function of this file that runs a model once per call (a decoder step).
      if (modelCalls && this.callsModelRunner(node)) return true;
      if (callee.type === "attribute") {
        const method = this.text(childByField(callee, "attribute")!);
        const receiver = childByField(callee, "object")!;
        // `loss.backward()`, or a trainer's own step (`self.backward_pass(...)`, `trainer.train_step(batch)`).
        if (method === "backward" || TRAINING_STEP_METHOD.test(method)) return true;
        // `optimizer.zero_grad()` once before the batches is epoch work; in a loop without nested loops it marks steps.
        if (method === "zero_grad") return !directOnly;
        if (method === "step") return OPTIMIZER_NAME.test(lastName(this.text(receiver)));
        return modelCalls && (this.runsModel(node) || this.callsOwnForward(node));
      }
      // Not the layers of a container module (`for block in self.blocks: x = block(x)`): one forward pass, not a step each.
      // `for module in self.input_blocks: h = module(h, emb)`: the entry's kind decides, not its model-like name.
      if (callee.type === "identifier" && modelCalls) {
        const evidence = this.env.evidence.of(callee);
        if (evidence.kind === "module" && isContainerEntry(evidence)) return false;
        return evidence.kind === "module" || movedToGpu(evidence) || MODULE_NAME.test(this.text(callee)) || this.callsOwnForward(node);
      }
      return false;
    }, directOnly);
  }

  /** `self(idx)` or `self.forward(idx)` in a method of an `nn.Module` (a model's `generate`): a forward pass of the module. */
  private callsOwnForward(call: SyntaxNode): boolean {
    const callee = childByField(call, "function");
    const cls = callee && /^self(\.forward)?$/.test(this.text(callee)) ? enclosingClassOf(call) : undefined;
    return !!cls && this.env.evidence.isModuleClass(cls);
  }

  /**
   * A test that holds only when a value is NaN or infinite: `math.isnan(x)`, `np.isinf(x)`, `torch.isnan(x).any()`,
   * `not torch.isfinite(x).all()`, `not math.isfinite(x)`; through `or` (each side such a test) and `and` (one side).
   */
  private nonFiniteTest(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type === "boolean_operator") {
      const [left, right] = [childByField(node, "left"), childByField(node, "right")];
      if (!left || !right) return false;
      return node.tokens[0] === "or" ? this.nonFiniteTest(left) && this.nonFiniteTest(right) : this.nonFiniteTest(left) || this.nonFiniteTest(right);
    }
    const checks = (call: SyntaxNode, test: RegExp): boolean => {
      const target = unparenthesized(call);
      const callee = target.type === "call" ? childByField(target, "function") : undefined;
      if (!callee) return false;
      const name = lastName(this.text(callee));
      // `torch.isnan(x).any()`, `x.isinf().any()`: the reduction of an elementwise test.
      if ((name === "any" || name === "all") && callee.type === "attribute") return checks(childByField(callee, "object")!, test);
      return test.test(name);
    };
    if (node.type === "not_operator") {
      const argument = childByField(node, "argument") ?? node.children[0];
      return !!argument && checks(argument, /^isfinite$/);
    }
    return checks(node, /^(isnan|isinf)$/);
  }

  /** `torch.min(y) < -1.`, `y.max() > 1`: the least or greatest value of a tensor against a number. */
  private rangeTest(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type !== "comparison_operator" || node.children.length !== 2 || !/^[<>]=?$/.test(node.tokens[0] ?? "")) return false;
    const [left, right] = node.children.map(unparenthesized);
    const extreme = (operand: SyntaxNode): boolean => {
      const callee = operand.type === "call" ? childByField(operand, "function") : undefined;
      return !!callee && /^(torch\.)?(min|max|amin|amax)$|\.(min|max|amin|amax)$/.test(this.text(callee));
    };
    const number = (operand: SyntaxNode) => operand.type === "integer" || operand.type === "float" || (operand.type === "unary_operator" && /^-?\s*[\d.]+$/.test(this.text(operand)));
    return (extreme(left) && number(right)) || (number(left) && extreme(right));
  }

  /** The block only prints, logs, warns or raises. */
  private onlyReports(block: SyntaxNode | undefined): boolean {
    if (!block || block.children.length === 0) return false;
    return block.children.every((statement) => {
      if (statement.type === "raise_statement") return true;
      const call = statement.type === "expression_statement" ? unparenthesized(statement.children[0]) : undefined;
      const callee = call?.type === "call" ? childByField(call, "function") : undefined;
      return !!callee && /^(print|warnings\.warn|(logging|logger|log|_logger|LOGGER)\.\w+)$/.test(this.text(callee));
    });
  }

  /** `x.numel() == 0`, `len(x) == 0`, `x.shape[0] == 0`, `not x.numel()`, or a sum or count compared with 0 (`sum_masks == 0`). */
  private emptinessTest(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    const measuresSize = (side: SyntaxNode): boolean => {
      const value = unparenthesized(side);
      if (value.type === "subscript") return /\.shape$/.test(this.text(childByField(value, "value")!));
      if (value.type === "identifier") {
        const assigned = assignedValue(value, this.env.text, this.env.scopes);
        return !!assigned && this.countsElements(assigned);
      }
      return this.countsElements(value);
    };
    if (node.type === "not_operator") {
      const argument = childByField(node, "argument") ?? node.children[0];
      return !!argument && unparenthesized(argument).type === "call" && measuresSize(argument);
    }
    if (node.type !== "comparison_operator" || node.children.length !== 2 || node.tokens[0] !== "==") return false;
    const [left, right] = node.children.map(unparenthesized);
    const zero = (side: SyntaxNode) => side.type === "integer" && this.text(side) === "0";
    return (zero(right) && measuresSize(left)) || (zero(left) && measuresSize(right));
  }

  /** `x.numel()`, `x.size(0)`, `len(x)`, `x.sum()`, `torch.sum(mask)`, `mask.count_nonzero()`. */
  private countsElements(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type !== "call") return false;
    const callee = childByField(node, "function")!;
    const name = callee.type === "attribute" ? this.text(childByField(callee, "attribute")!) : this.text(callee);
    return /^(numel|nelement|size|len|sum|count_nonzero)$/.test(name);
  }

  /** `block` runs a backward pass or an optimizer step (`loss.backward()`, `optimizer.step()`, `scaler.step(optimizer)`), in nested loops too. */
  private trains(block: SyntaxNode): boolean {
    return someNode(block, (node) => this.isTrainingCall(node));
  }

  /**
   * `for x, y in minibatches: losses.append(...)`, then `loss.backward(); optimizer.step()` after the loop: the
   * batches of one step (one per domain in DomainBed's algorithms, micro-batches), not steps of their own. The
   * loop takes no optimizer step itself; the statements after it, up to the loop around it, train, outside loops.
   */
  private trainsAfter(loop: SyntaxNode): boolean {
    let cached = this.trainingAfter.get(loop);
    if (cached === undefined) {
      cached = false;
      const body = childByField(loop, "body");
      // Training in a loop of its own after this one (the next loader's steps) is not this loop's step.
      const trainsOnce = (statement: SyntaxNode) => !LOOP_TYPES.has(statement.type) && someNode(statement, (node) => this.isTrainingCall(node), true);
      if (body && !someNode(body, (node) => this.stepsOptimizer(node))) {
        for (let child = loop, block = loop.parent; block && block.type !== "function_definition" && block.type !== "module"; child = block, block = block.parent) {
          if (block.type === "block" && block.children.slice(block.children.indexOf(child) + 1).some(trainsOnce)) {
            cached = true;
            break;
          }
          if (LOOP_TYPES.has(block.type)) break;
        }
      }
      this.trainingAfter.set(loop, cached);
    }
    return cached;
  }
  private readonly trainingAfter = new Map<SyntaxNode, boolean>();

  /** The loop around `guard` trains outside `guard`, too. */
  private trainsBeside(guard: SyntaxNode): boolean {
    const loop = loopStatementAround(guard);
    const body = loop && childByField(loop, "body");
    return !!body && someNode(body, (node) => !contains(guard, node) && this.isTrainingCall(node));
  }

  private isTrainingCall(node: SyntaxNode): boolean {
    if (node.type !== "call") return false;
    const callee = childByField(node, "function");
    if (callee?.type !== "attribute") return false;
    const method = this.text(childByField(callee, "attribute")!);
    if (method === "backward") return true;
    if (method !== "step") return false;
    const receiver = lastName(this.text(childByField(callee, "object")!));
    return OPTIMIZER_NAME.test(receiver) || (/scaler$/i.test(receiver) && positionalArguments(node).length === 1);
  }

  /**
   * `token = next_token(model, x)`, `self.p_sample(model, img, t)`: a call that passes a model to a function of
   * this file that runs it once per call (itself or through another such function), outside a loop of its own.
   */
  private runsModelPassed(call: SyntaxNode, caller: SyntaxNode | undefined, depth: number): boolean {
    if (depth > 3) return false;
    const args = childByField(call, "arguments");
    const passesModel = args?.children.some((argument) => {
      const value = argument.type === "keyword_argument" ? childByField(argument, "value") : argument;
      return !!value && value.type === "identifier" && this.env.evidence.of(value).kind === "module";
    });
    const fn = passesModel ? this.localFunction(call) : undefined;
    if (!fn || fn === caller || this.hasStepLoop(fn)) return false;
    return this.someDirectNode(fn, (node) => node.type === "call" && (this.runsModel(node) || this.runsModelPassed(node, fn, depth + 1)), true);
  }

  /**
   * `model(x)`, or a method of a model that runs it on inputs (`model.generate(ids)`, `model.encode(x)`; not
   * `model.eval()`, nor `model.rope_cache_length()`, which is given nothing to compute on).
   */
  private runsModel(call: SyntaxNode): boolean {
    const callee = childByField(call, "function");
    if (callee?.type === "identifier") {
      const evidence = this.env.evidence.of(callee);
      return evidence.kind === "module" || movedToGpu(evidence);
    }
    if (callee?.type !== "attribute") return false;
    // `self.model(x)`: a module the object keeps.
    if (isSelfAttribute(callee, this.env.text)) return MODULE_NAME.test(this.text(childByField(callee, "attribute")!)) && this.env.evidence.of(callee).kind === "module";
    const receiver = childByField(callee, "object")!;
    // Named like a model too: an item of a state dict or of a `Sequential` may also read as a module.
    const named = receiver.type === "identifier" ? this.text(receiver) : isSelfAttribute(receiver, this.env.text) ? this.text(childByField(receiver, "attribute")!) : undefined;
    if (!named || !MODULE_NAME.test(named) || MODULE_SETUP_METHOD.test(this.text(childByField(callee, "attribute")!))) return false;
    // `model.generate(input_ids=ids)` runs it; `model.rope_cache_length()` reads a setting.
    if ((childByField(call, "arguments")?.children.length ?? 0) === 0) return false;
    return this.env.evidence.of(receiver).kind === "module";
  }

  /**
   * `call` calls a function of this file that runs a model (`self.model.decoder(...)`) in its own body, outside
   * loops, and has no step loop of its own (`transcribe(model, path)` decodes a whole file: once per file).
   */
  private callsModelRunner(call: SyntaxNode): boolean {
    const fn = this.localFunction(call);
    if (!fn || fn === enclosingFunctionOf(call) || this.hasStepLoop(fn)) return false;
    let runs = this.modelRunners.get(fn);
    if (runs === undefined) {
      const body = childByField(fn, "body");
      this.modelRunners.set(fn, (runs = !!body && someNode(body, (node) => node.type === "call" && this.runsModel(node), true)));
    }
    return runs;
  }

  /** Searches the loop's body, skipping nested functions, and nested loops too when `directOnly`. */
  /**
   * The call by which the loop's body waits for the user on every iteration, under no branch, if it does: it
   * reads a line (`input()`: a chat or a menu, `while True: prompt = input("> ")`, in a `try` for `EOFError`
   * too), or a key press (`cv2.waitKey(0)`: a viewer showing one image per key), or until a plot's window is
   * closed (`plt.show()`).
   */
  private waitsForUser(loop: SyntaxNode): SyntaxNode | undefined {
    if (!(this.mayWaitForUser ??= USER_WAIT_TEXT.test(this.env.text))) return undefined;
    let wait = this.interactiveLoops.get(loop);
    if (wait === undefined) {
      const body = childByField(loop, "body");
      const everyIteration = (call: SyntaxNode) => {
        for (let node = call.parent; node && node !== body; node = node.parent) {
          // An inner `while True:` reading lines until a blank one runs at least once.
          const always = node.type === "while_statement" && /^(True|1)$/.test(this.text(childByField(node, "condition") ?? node));
          if (CONDITIONAL_PART.has(node.type) && !always) return false;
        }
        return true;
      };
      let found: SyntaxNode | null = null;
      this.someDirectNode(
        loop,
        (node) => {
          if (node.type !== "call" || !this.waitsForUserCall(node) || !everyIteration(node)) return false;
          found = node;
          return true;
        },
        false,
      );
      this.interactiveLoops.set(loop, (wait = found));
    }
    return wait ?? undefined;
  }

  /** `input()` (not a function of the file so named), `cv2.waitKey(0)` or `cv2.waitKey()`, `plt.show()`, `plt.waitforbuttonpress()`. */
  private waitsForUserCall(call: SyntaxNode): boolean {
    const callee = childByField(call, "function")!;
    if (callee.type === "identifier") return /^(raw_)?input$/.test(this.text(callee)) && !resolveBinding(this.text(callee), callee.start, scopeOf(callee, this.env.scopes));
    const name = this.env.evidence.qualifiedName(callee) ?? "";
    const [delay] = positionalArguments(call);
    // `cv2.waitKey(1)` waits a millisecond: a video's display loop, paced by the frames.
    if (/^cv2\.waitKey$/.test(name)) return !delay || this.text(delay) === "0";
    return /^matplotlib\.pyplot\.(show|waitforbuttonpress)$/.test(name) && !keywordArgument(call, "block", this.env.text);
  }
  private readonly interactiveLoops = new Map<SyntaxNode, SyntaxNode | null>();
  private mayWaitForUser: boolean | undefined;

  private someDirectNode(loop: SyntaxNode, predicate: (node: SyntaxNode) => boolean, directOnly: boolean): boolean {
    const body = childByField(loop, "body");
    return !!body && someNode(body, predicate, directOnly);
  }


  /** If `ancestor` is a periodic guard and `child` the branch that runs only on guarded steps, the guard. */
  private periodicGuardAbove(ancestor: SyntaxNode, child: SyntaxNode, site: SyntaxNode): SyntaxNode | undefined {
    switch (ancestor.type) {
      case "if_statement":
      case "elif_clause": {
        const condition = childByField(ancestor, "condition");
        // `if global_step % train_frequency == 0:` around the backward pass and the optimizer step is the training
        // step itself (an off-policy update, an accumulation boundary), not a report every N steps; unless the loop
        // trains outside it too (a GAN's generator, updated every `n_critic` discriminator steps).
        if (condition && child.type === "else_clause" && this.rebuildsCache(condition, childByField(child, "body"))) return ancestor;
        return child.field === "consequence" && condition && this.isPeriodic(condition) && !(this.trains(child) && !this.trainsBeside(ancestor)) ? ancestor : undefined;
      }
      case "conditional_expression": {
        const [consequence, condition] = ancestor.children;
        return child === consequence && condition && this.isPeriodic(condition) ? ancestor : undefined;
      }
      case "boolean_operator": {
        const left = childByField(ancestor, "left");
        return ancestor.tokens[0] === "and" && child.field === "right" && left && this.isPeriodic(left) ? ancestor : undefined;
      }
      case "block":
        return this.continueGuardBefore(ancestor, child, site);
      default:
        return undefined;
    }
  }

  /** `if step % N != 0: continue` (or `if not should_log: return`) makes the rest of the body periodic. */
  private continueGuardBefore(block: SyntaxNode, child: SyntaxNode, site: SyntaxNode): SyntaxNode | undefined {
    for (const statement of block.children) {
      if (statement.start >= child.start || statement.start >= site.start) break;
      if (statement.type !== "if_statement" || statement.children.some((c) => c.field === "alternative")) continue;
      const consequence = childByField(statement, "consequence");
      const condition = childByField(statement, "condition");
      const exit = consequence?.children.length === 1 ? consequence.children[0].type : "";
      const leavesEarly = exit === "continue_statement" || (exit === "return_statement" && block.parent?.type === "function_definition");
      if (!consequence || !condition || !leavesEarly) continue;
      if (this.isComplementOfPeriodic(condition)) return statement;
    }
    return undefined;
  }

  /** `frames % period`, or its `abs(...)`: a remainder, which comes round once a period. */
  private isRemainder(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type === "binary_operator") return node.tokens[0] === "%" && !isStringNode(unparenthesized(node.children[0]));
    if (node.type !== "call" || this.text(childByField(node, "function")!) !== "abs") return false;
    const [argument] = positionalArguments(node);
    return !!argument && positionalArguments(node).length === 1 && this.isRemainder(argument);
  }

  /**
   * `if "step" not in state: state["step"] = 0` fills what it tests, once; `if "loss_ota" not in hyp or
   * hyp["loss_ota"] == 1:` reads a setting with its default, on every pass. Other initialisation tests hold as is.
   */
  private fillsTestedKey(test: SyntaxNode): boolean {
    const node = unparenthesized(test);
    if (node.type !== "comparison_operator" || node.tokens.join(" ") !== "not in") return true;
    let statement: SyntaxNode | null = node.parent;
    while (statement && (statement.type === "boolean_operator" || statement.type === "parenthesized_expression" || statement.type === "not_operator")) statement = statement.parent;
    const body = statement?.type === "if_statement" || statement?.type === "elif_clause" ? childByField(statement, "consequence") : undefined;
    if (!body) return true;
    const [key, container] = node.children;
    const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`${escape(this.text(container))}\\s*\\[\\s*${escape(this.text(key))}\\s*\\]\\s*=(?!=)|${escape(this.text(container))}\\.(setdefault|update)\\(`).test(this.text(body));
  }

  /** `step % N == 0`, `(i + 1) % N == 0`, `... and it % k == 0`, `i == len(loader) - 1`, `is_last_step`. */
  isPeriodic(raw: SyntaxNode): boolean {
    if (this.rebuildsCache(raw)) return true;
    const node = unparenthesized(raw);
    switch (node.type) {
      case "boolean_operator": {
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        if (!left || !right) return false;
        if (node.tokens[0] === "and") return this.isPeriodic(left) || this.isPeriodic(right);
        // `if self.cache is None or self.cache.size(0) != n:` fills a cache once.
        return (this.isPeriodic(left) && this.isPeriodic(right)) || (isInitialisationTest(left, this.env.text) && this.fillsTestedKey(left));
      }
      case "not_operator": {
        const argument = childByField(node, "argument") ?? node.children[0];
        return isModuloTest(node, this.env.text, this.env.scopes) || (!!argument && (this.isComplementOfPeriodic(argument) || this.setsWhatItTests(node, argument)));
      }
      case "comparison_operator": {
        if (node.tokens.length !== 1 || node.children.length !== 2) return false;
        const [left, right] = node.children;
        if (isInitialisationTest(node, this.env.text) && this.fillsTestedKey(node)) return true;
        // `if step in self.log_steps:`, `if epoch in milestones:`, `if i in ret_samples_ids:`: on the steps listed
        // (not `if k in state_dict:`).
        if (node.tokens[0] === "in") return this.isCounter(left) && /(steps|epochs|iters|iterations|milestones|_ids|_indices)$/i.test(lastName(this.text(right)));
        if (node.tokens[0] === "==") {
          if (isModuloTest(node, this.env.text, this.env.scopes)) return true;
          return (this.isCounter(left) && this.isSingleStep(right) && !this.countsOuterLoop(left, node)) || (this.isCounter(right) && this.isSingleStep(left) && !this.countsOuterLoop(right, node));
        }
        // `if collected_frames % eval_iter < frames_per_batch:` (torchrl): a window of each period.
        if ((node.tokens[0] === "<" || node.tokens[0] === "<=") && this.isRemainder(left)) return true;
        // `if step < 3:` runs on the first few steps of the whole run only.
        if (node.tokens[0] === "<" || node.tokens[0] === "<=")
          return (this.countsSteps(left, node) && isFewSteps(right, this.env.text)) || this.isElapsedTime(right) || this.isTimeInterval(left) || (isFewSteps(right, this.env.text) && (this.countsUpInBranch(left, node) || this.countsIterations(left, node)));
        if (node.tokens[0] === ">" || node.tokens[0] === ">=") return (this.countsSteps(right, node) && isFewSteps(left, this.env.text)) || this.isElapsedTime(left) || this.isTimeInterval(right) || this.passedMark(left, right, node);
        return false;
      }
      case "identifier": {
        if (PERIODIC_FLAG_NAME.test(this.text(node))) return true;
        if (this.clearsOwnFlag(node)) return true;
        // `report = step % 50 == 0` ... `if report:`
        return this.assignedTest(node, raw, (value) => this.isPeriodic(value));
      }
      case "attribute":
        return PERIODIC_FLAG_NAME.test(lastName(this.text(node)));
      case "call": {
        const callee = childByField(node, "function");
        if (!callee) return false;
        if (PERIODIC_FLAG_NAME.test(lastName(this.text(callee)))) return true;
        // `divisible_by(step, every)` with `def divisible_by(n, d): return n % d == 0` (only a modulo: what else a
        // helper returns, `self.atol is None or ...`, says nothing of how often its caller's branch runs).
        const local = this.localFunction(node);
        const returned = this.soleReturnOf(local);
        if (returned) return isModuloTest(returned, this.env.text, this.env.scopes);
        return !!local && this.truePeriodically(local);
      }
      default:
        return false;
    }
  }

  private periodicDepth = 0;

  /**
   * A predicate that returns `True` only in branches of periodic tests, and otherwise `False` or nothing:
   * `def check_frequency(self, idx): if idx % self.batch_freq == 0 or idx in self.log_steps: ... return True`
   * then `return False` (generative-models' image logger).
   */
  private truePeriodically(fn: SyntaxNode): boolean {
    if (this.periodicDepth > 4) return false;
    const returns = returnStatementsOf(fn);
    const truthy = returns.filter((statement) => statement.children[0]?.type === "true");
    if (truthy.length === 0 || returns.some((statement) => statement.children[0] && statement.children[0].type !== "true" && statement.children[0].type !== "false")) return false;
    this.periodicDepth++;
    try {
      return truthy.every((statement) => {
        for (let child = statement, ancestor = statement.parent; ancestor && ancestor !== fn; child = ancestor, ancestor = ancestor.parent) {
          const branch = branchOf(ancestor, child);
          if (branch?.taken && this.isPeriodic(branch.condition)) return true;
        }
        return false;
      });
    } finally {
      this.periodicDepth--;
    }
  }

  /** The test last assigned to the name `node`, judged by `judge` (bounded, so `a = b; b = a` cannot loop). */
  private assignedTest(node: SyntaxNode, raw: SyntaxNode, judge: (value: SyntaxNode) => boolean): boolean {
    const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
    if (binding?.kind !== "assign" || !binding.value || binding.unpackPath.length > 0 || binding.value === raw || this.periodicDepth > 4) return false;
    this.periodicDepth++;
    try {
      return judge(binding.value);
    } finally {
      this.periodicDepth--;
    }
  }

  /** A test that holds on all but a few steps: `if <it>: return` (or `continue`) makes the rest of the body periodic. */
  private isComplementOfPeriodic(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    switch (node.type) {
      case "binary_operator":
        return isModulo(node, this.env.text, this.env.scopes);
      case "comparison_operator": {
        if (node.tokens.length !== 1 || node.children.length !== 2) return false;
        const [left, right] = node.children;
        if (node.tokens[0] === "!=") {
          if (isModulo(left, this.env.text, this.env.scopes) || isModulo(right, this.env.text, this.env.scopes)) return true;
          // `cur_tick != 0`: every step but one.
          return (this.isCounter(left) && this.isSingleStep(right) && !this.countsOuterLoop(left, node)) || (this.isCounter(right) && this.isSingleStep(left) && !this.countsOuterLoop(right, node));
        }
        // `time.time() - last_log < interval`: most steps come before the interval has passed; so do most before
        // a count passes its last mark by an interval (`cur_nimg < tick_start_nimg + kimg_per_tick * 1000`).
        if (node.tokens[0] === "<" || node.tokens[0] === "<=") return this.isElapsedTime(left) || this.passedMark(left, right, node);
        if (node.tokens[0] === ">" || node.tokens[0] === ">=") return this.isElapsedTime(right);
        return false;
      }
      case "not_operator": {
        const argument = childByField(node, "argument") ?? node.children[0];
        return !!argument && this.isPeriodic(argument);
      }
      case "boolean_operator": {
        // The rest runs when the test fails: for `a or b` when both fail, for `a and b` when either does.
        const left = childByField(node, "left");
        const right = childByField(node, "right");
        if (!left || !right) return false;
        if (node.tokens[0] === "or") return this.isComplementOfPeriodic(left) || this.isComplementOfPeriodic(right);
        return this.isComplementOfPeriodic(left) && this.isComplementOfPeriodic(right);
      }
      case "identifier":
        // `skip = step % n != 0` ... `if skip: return`
        return this.assignedTest(node, raw, (value) => this.isComplementOfPeriodic(value));
      default:
        return false;
    }
  }

  /**
   * `shown < 5` guarding a branch that counts `shown += 1`: the branch runs at most that many times, however
   * often the test is made (`if bad and shown < 5: shown += 1; print(x)`).
   */
  private countsUpInBranch(raw: SyntaxNode, test: SyntaxNode): boolean {
    const counter = unparenthesized(raw);
    if (counter.type !== "identifier" && counter.type !== "attribute") return false;
    let statement = test.parent;
    while (statement && (statement.type === "boolean_operator" || statement.type === "parenthesized_expression" || statement.type === "not_operator")) {
      if (statement.type === "not_operator" || (statement.type === "boolean_operator" && statement.tokens[0] === "or")) return false;
      statement = statement.parent;
    }
    if (statement?.type !== "if_statement" && statement?.type !== "elif_clause") return false;
    const branch = childByField(statement, "consequence");
    if (!branch) return false;
    const name = this.text(counter);
    // Once per run of the branch: not inside a loop of its own, which may run no times.
    return someNode(branch, (node) => {
      if (node.type !== "augmented_assignment" || node.tokens[0] !== "+=") return false;
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      return !!left && !!right && this.text(left) === name && unparenthesized(right).type === "integer";
    }, true);
  }

  /**
   * `if self.grid.shape[2:4] != x.shape[2:4]: self.grid = make_grid(...)`: a branch that tests an attribute of
   * `self` (or `hasattr(self, "grid")`) and sets it anew runs when the cached value must change (the first step, a
   * new shape), not every step; so does the `else` of a test that the cache is still good (`if channel ==
   * self.channel: window = self.window` `else: ...; self.window = window`, KAIR's SSIM loss).
   */
  private rebuildsCache(condition: SyntaxNode, branch = consequenceOf(condition)): boolean {
    if (!branch) return false;
    const tested = new Set<string>();
    someNode(condition, (node) => {
      const value = node.type === "subscript" ? childByField(node, "value") : undefined;
      if (isSelfAttribute(node, this.env.text) || (value && isSelfAttribute(value, this.env.text))) tested.add(this.text(node));
      // `if not hasattr(self, "queue_lr"): self.queue_lr = torch.zeros(...).cuda()`
      const [owner, attribute] = node.type === "call" && this.text(childByField(node, "function")!) === "hasattr" ? positionalArguments(node) : [];
      if (owner && attribute && this.text(owner) === "self" && isStringNode(attribute)) tested.add(`self.${stringValue(this.text(attribute))}`);
      return false;
    });
    // `self.grid = ...`; `self.grid[i] = ...` where `self.grid[i]` is tested (one cache per level), not any
    // element written into a tested buffer; `self.grid[i], self.anchor_grid[i] = ...`.
    const setsTested = (target: SyntaxNode): boolean => {
      if (target.type === "pattern_list" || target.type === "tuple_pattern") return target.children.some(setsTested);
      return (target.type === "attribute" || target.type === "subscript") && tested.has(this.text(target));
    };
    if (tested.size === 0) return false;
    // `self.register_buffer("_lora_ind", torch.tensor(...))` (litgpt's LoRA), `setattr(self, "grid", ...)`.
    const registersTested = (node: SyntaxNode): boolean => {
      if (node.type !== "call") return false;
      const callee = this.text(childByField(node, "function")!);
      const [first, second] = positionalArguments(node);
      const name = callee === "setattr" ? (first && this.text(first) === "self" ? second : undefined) : /^self\.register_(buffer|parameter)$/.test(callee) ? first : undefined;
      return !!name && isStringNode(name) && tested.has(`self.${stringValue(this.text(name))}`);
    };
    return assignsInBlock(branch, setsTested) || someNode(branch, registersTested);
  }

  /**
   * `if not device: device = p.device; scaler = scaler.to(device)`: a branch on a name that is not set yet, which
   * sets it, runs the first time only (like `if x is None:`).
   */
  private setsWhatItTests(condition: SyntaxNode, raw: SyntaxNode): boolean {
    const name = unparenthesized(raw);
    const branch = consequenceOf(condition);
    if (name.type !== "identifier" || !branch) return false;
    return assignsInBlock(branch, (left, right) => left.type === "identifier" && this.text(left) === this.text(name) && !!right && !["none", "false", "integer"].includes(unparenthesized(right).type));
  }

  /**
   * `if prefill: prefill = False; ...`: a branch that clears its own flag, which nothing in the loop around it
   * sets again, runs on the first iteration only.
   */
  private clearsOwnFlag(flag: SyntaxNode): boolean {
    const branch = consequenceOf(flag);
    if (!branch) return false;
    const name = this.text(flag);
    const clears = (left: SyntaxNode, right: SyntaxNode | undefined) => left.type === "identifier" && this.text(left) === name && right?.type === "false";
    const loop = loopStatementAround(flag);
    if (!loop || !assignsInBlock(branch, clears)) return false;
    return !someNode(loop, (node) => {
      if (node.type !== "assignment") return false;
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      return left?.type === "identifier" && this.text(left) === name && !clears(left, right);
    });
  }

  /**
   * A count of the iterations of the loop around `test`: every iteration adds to it (`num_total += 1` in the
   * loop's own body, not in a branch) and nothing in the loop sets it back, so `if num_total < 10:` holds on
   * the first few iterations only.
   */
  private countsIterations(raw: SyntaxNode, test: SyntaxNode): boolean {
    const counter = unparenthesized(raw);
    const loop = loopStatementAround(test);
    const body = loop && childByField(loop, "body");
    if (counter.type !== "identifier" || !body) return false;
    const name = this.text(counter);
    const named = (node: SyntaxNode | undefined) => node?.type === "identifier" && this.text(node) === name;
    const countsUp = body.children.some((statement) => {
      const change = statement.type === "expression_statement" ? statement.children[0] : undefined;
      const amount = change?.type === "augmented_assignment" && change.tokens[0] === "+=" ? childByField(change, "right") : undefined;
      return !!amount && named(childByField(change!, "left")) && unparenthesized(amount).type === "integer" && Number(this.text(amount)) > 0;
    });
    return countsUp && !someNode(loop, (node) => node.type === "assignment" && named(childByField(node, "left")));
  }

  /**
   * `count >= mark + interval` (or `count - mark >= interval`) where the loop around `test` sets `mark = count`: the
   * count has moved an interval past the mark that the loop sets each time it gets there, a periodic test.
   */
  private passedMark(countSide: SyntaxNode, boundSide: SyntaxNode, test: SyntaxNode): boolean {
    let count = unparenthesized(countSide);
    let mark: SyntaxNode | undefined;
    const bound = unparenthesized(boundSide);
    if (count.type === "binary_operator" && count.tokens[0] === "-") [count, mark] = [childByField(count, "left")!, childByField(count, "right")!];
    else if (bound.type === "binary_operator" && bound.tokens[0] === "+") mark = childByField(bound, "left") ?? undefined;
    if (!count || !mark || (count.type !== "identifier" && count.type !== "attribute") || (mark.type !== "identifier" && mark.type !== "attribute")) return false;
    const [countText, markText] = [this.text(count), this.text(mark)];
    const loop = loopStatementAround(test);
    return !!loop && someNode(loop, (node) => {
      if (node.type !== "assignment") return false;
      const left = childByField(node, "left");
      const right = childByField(node, "right");
      return !!left && !!right && this.text(left) === markText && this.text(unparenthesized(right)) === countText;
    });
  }

  /** Seconds since a time the code keeps: `time.time() - last_log`, `now - self.start`, `elapsed`. */
  private isElapsedTime(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type === "identifier" || node.type === "attribute") return ELAPSED_TIME_NAME.test(lastName(this.text(node)));
    if (node.type !== "binary_operator" || node.tokens[0] !== "-") return false;
    const left = childByField(node, "left");
    return !!left && this.isClockRead(left);
  }

  /** A span of time by its name, which only elapsed time is compared with: `config.eval_every_seconds`, `log_interval_secs`. */
  private isTimeInterval(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    return (node.type === "identifier" || node.type === "attribute") && TIME_INTERVAL_NAME.test(lastName(this.text(node)));
  }

  private isClockRead(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type === "identifier" || node.type === "attribute") return CLOCK_READING_NAME.test(lastName(this.text(node)));
    if (node.type !== "call") return false;
    const callee = childByField(node, "function");
    return !!callee && CLOCK_FUNCTION.test(this.text(callee));
  }

  /**
   * A count of the run's steps at `test`: a global step counter by name, or the counter the enclosing step loop
   * binds (`for step, batch in enumerate(loader)`). Not an epoch, and not the index of a loop nested in the step.
   */
  private countsSteps(raw: SyntaxNode, test: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type !== "identifier" && node.type !== "attribute") return false;
    const name = lastName(this.text(node));
    if (STEP_COUNT_NAME.test(name)) return true;
    if (node.type !== "identifier") return false;
    const binding = resolveBinding(name, node.start, scopeOf(node, this.env.scopes));
    // A per-step hook's number argument (`def on_train_batch_end(self, model, ni, ...)`: `if ni < 3:`).
    if (binding?.kind === "parameter") {
      const fn = enclosingFunctionOf(node);
      const fnName = fn && childByField(fn, "name");
      return !!fnName && (/(^|_)step$/.test(this.text(fnName)) || STEP_HOOK.test(this.text(fnName)));
    }
    // A number computed from the step counter: `ni = i + nb * epoch`, then `if ni < 3:`.
    const computed = (value: SyntaxNode) => unparenthesized(value).type === "binary_operator" && someNode(value, (part) => part.type === "identifier" && this.countsSteps(part, test));
    if (binding?.kind === "assign" && this.assignedTest(node, raw, computed)) return true;
    let loop = test.parent;
    while (loop && !LOOP_TYPES.has(loop.type) && loop.type !== "function_definition") loop = loop.parent;
    if (loop?.type !== "for_statement" || this.loopKind(loop) !== "step") return false;
    const target = childByField(loop, "left");
    const iterable = childByField(loop, "right");
    if (!target || !iterable) return false;
    // `for step in range(n)`, or the first name of `for step, batch in enumerate(loader)`.
    const counter = target.type === "identifier" ? target : target.children[0];
    const path = target.type === "identifier" ? [] : [0];
    if (counter?.type !== "identifier" || this.text(counter) !== name) return false;
    // Through a progress bar of its own (`pbar = TQDM(enumerate(loader))`) the count is unknown; its name tells.
    const kind = this.env.evidence.elementOf(iterable, path).kind;
    return kind === "scalar" || (kind === "unknown" && path.length > 0 && COUNTER_NAME.test(name));
  }

  /**
   * `fold == 0` in a loop over batches nested in the loop that binds `fold`: true on every step of that pass.
   * (Asked of the loops' iterables only: the loops' kinds depend on their guards.)
   */
  private countsOuterLoop(raw: SyntaxNode, test: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type !== "identifier") return false;
    const binding = resolveBinding(this.text(node), node.start, scopeOf(node, this.env.scopes));
    if (binding?.kind !== "for" || !binding.loop || this.iteratesData(binding.loop)) return false;
    for (let loop = test.parent; loop && loop !== binding.loop && loop.type !== "function_definition"; loop = loop.parent) {
      if ((loop.type === "for_statement" || loop.type === "while_statement") && this.iteratesData(loop)) return true;
    }
    return false;
  }

  /**
   * The exception handler that sets the flag `raw` tests (`has_oom = True` in `except RuntimeError:`), when every
   * other assignment in its function sets it false (`has_oom = False`).
   */
  private setOnlyOnError(raw: SyntaxNode): SyntaxNode | undefined {
    const flag = unparenthesized(raw);
    const fn = flag.type === "identifier" ? enclosingFunctionOf(flag) : undefined;
    if (!fn) return undefined;
    let handler: SyntaxNode | undefined;
    for (const use of identifiersNamed(this.env.text, this.text(flag), fn)) {
      const assignment = use.parent;
      if (assignment?.type !== "assignment" || use.field !== "left") continue;
      const value = this.text(childByField(assignment, "right") ?? assignment);
      const inHandler = this.enclosingHandler(assignment, fn);
      if (value === "True" && inHandler) handler ??= inHandler;
      else if (!/^(False|None|0)$/.test(value)) return undefined;
    }
    return handler;
  }

  private enclosingHandler(node: SyntaxNode, fn: SyntaxNode): SyntaxNode | undefined {
    for (let ancestor = node.parent; ancestor && ancestor !== fn; ancestor = ancestor.parent) {
      if (ancestor.type === "except_clause" || ancestor.type === "except_group_clause") return ancestor;
    }
    return undefined;
  }

  private isCounter(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    // `self.get_num_updates()`, `trainer.global_step()`: a counter's getter (fairseq's trainer).
    if (node.type === "call" && positionalArguments(node).length === 0 && childByField(node, "arguments")?.children.length === 0) {
      const callee = childByField(node, "function")!;
      return (callee.type === "identifier" || callee.type === "attribute") && COUNTER_NAME.test(lastName(this.text(callee)).replace(/^_*get_/, ""));
    }
    if (node.type !== "identifier" && node.type !== "attribute") return false;
    return COUNTER_NAME.test(lastName(this.text(node)));
  }

  /** A value a counter equals on one step only: a literal, `len(x) - 1`, `max_steps`, `num_batches - 1`. */
  private isSingleStep(raw: SyntaxNode): boolean {
    const node = unparenthesized(raw);
    if (node.type === "integer") return true;
    const text = this.text(node);
    return /\blen\(|last|max|total|num_|n_|steps|iters|(^|\W)(-|\+)\s*1\b/.test(text);
  }
}

/** Names of debugging switches: `debug`, `debug_percentile`, `_debug`. */
const DEBUG_NAME = /^_*debug(_|$)/i;

/** A branch of an `if`: its test, and whether the branch is taken when the test holds (`else` when it fails). */
interface Branch {
  condition: SyntaxNode;
  taken: boolean;
}

/** The operands of a chain of `and` (`a and (b and c)` gives a, b, c); the test itself when it is no such chain. */
function conjuncts(raw: SyntaxNode): SyntaxNode[] {
  const node = unparenthesized(raw);
  if (node.type !== "boolean_operator" || node.tokens[0] !== "and") return [raw];
  const [left, right] = [childByField(node, "left"), childByField(node, "right")];
  return left && right ? [...conjuncts(left), ...conjuncts(right)] : [raw];
}

/** The branch `child` is of `ancestor`: an `if`'s or `elif`'s consequence, or the `else` of an `if` without `elif`. */
function branchOf(ancestor: SyntaxNode, child: SyntaxNode): Branch | undefined {
  if ((ancestor.type === "if_statement" || ancestor.type === "elif_clause") && child.field === "consequence") {
    const condition = childByField(ancestor, "condition");
    return condition && { condition, taken: true };
  }
  // An `elif` has a test of its own: the `else` after one is taken on more than the `if`'s failing.
  const statement = ancestor.parent;
  if (ancestor.type !== "else_clause" || statement?.type !== "if_statement" || statement.children.some((c) => c.type === "elif_clause")) return undefined;
  const condition = childByField(statement, "condition");
  return condition && { condition, taken: false };
}

function isTruthyLiteral(literal: string): boolean {
  return !/^(False|None|0|0\.0*|[rbuf]*""|[rbuf]*''|\(\s*\)|\[\s*\]|\{\s*\})$/i.test(literal);
}

/** `()`, `[]`, `{}`. */
function isEmptyContainer(node: SyntaxNode): boolean {
  return (node.type === "tuple" || node.type === "list" || node.type === "dictionary") && node.children.length === 0;
}

/** The parameters a call can pass by position, in order (`self` first for a method); keyword-only ones are not. */
function positionalParameters(fn: SyntaxNode): SyntaxNode[] {
  const parameters: SyntaxNode[] = [];
  for (const node of childByField(fn, "parameters")?.children ?? []) {
    if (node.type === "list_splat_pattern" || node.type === "keyword_separator" || node.type === "dictionary_splat_pattern") break;
    if (node.type !== "positional_separator") parameters.push(node);
  }
  return parameters;
}

/** The call passes `*args` or `**kwargs`: its positions say nothing certain. */
function passesSplat(call: SyntaxNode): boolean {
  return !!childByField(call, "arguments")?.children.some((argument) => argument.type === "list_splat" || argument.type === "dictionary_splat");
}

/** `f(*args)`: the positions after it are unknown (`**kwargs` shifts no position). */
function passesListSplat(call: SyntaxNode): boolean {
  return !!childByField(call, "arguments")?.children.some((argument) => argument.type === "list_splat");
}

/** `n % d == 0`, `0 == n % d`, `not n % d`. */
function isModuloTest(raw: SyntaxNode, text: string, scopes: Scopes): boolean {
  const node = unparenthesized(raw);
  if (node.type === "not_operator") return !!node.children[0] && isModulo(node.children[0], text, scopes);
  return node.type === "comparison_operator" && node.tokens.length === 1 && node.tokens[0] === "==" && node.children.some((child) => isModulo(child, text, scopes));
}

/** The block of an `if`, `elif` or `else` branch. */
function isBranch(block: SyntaxNode): boolean {
  const parent = block.parent;
  return !!parent && (parent.type === "if_statement" || parent.type === "elif_clause" || parent.type === "else_clause") && (block.field === "consequence" || block.field === "body");
}

/** An integer literal up to 100: a bound on a step counter that only the first few steps pass. */
function isFewSteps(raw: SyntaxNode, text: string): boolean {
  const node = unparenthesized(raw);
  return node.type === "integer" && /^\d+$/.test(text.slice(node.start, node.end)) && Number(text.slice(node.start, node.end)) <= 100;
}

/** How often a loop runs inside code that runs `outer` often: "several times per step", not "on every iteration, every step". */
function nestedFrequency(outer: string): string {
  if (outer.startsWith("on every iteration") || outer.startsWith("several times")) return outer;
  if (outer === "every step") return "several times per step";
  if (outer === "on every forward pass") return "several times per forward pass";
  if (outer === "on every call") return "several times per call";
  return `on every iteration, ${outer}`;
}

/** `x is None` or `not x`-style emptiness (`len(x) == 0`): a guard that runs once, to initialise state or a cache. */
function isInitialisationTest(raw: SyntaxNode, text: string): boolean {
  const node = unparenthesized(raw);
  if (node.type !== "comparison_operator" || node.children.length !== 2) return false;
  const [left, right] = node.children.map(unparenthesized);
  if (node.tokens.join(" ") === "is" && right.type === "none" && (left.type === "attribute" || left.type === "identifier")) return true;
  // `if "step" not in state:` fills an optimizer's state on its first step; `if key not in mel_basis:` a cache,
  // once per distinct key, as `@lru_cache` does (`fillsTestedKey` tells that the branch fills what it tests).
  if (node.tokens.join(" ") === "not in" && (left.type === "string" || left.type === "identifier" || left.type === "attribute")) return true;
  if (node.tokens[0] !== "==" || right.type !== "integer" || text.slice(right.start, right.end) !== "0" || left.type !== "call") return false;
  const callee = childByField(left, "function");
  return !!callee && text.slice(callee.start, callee.end) === "len";
}

/** The block an `if`/`elif` runs when `condition`, its test, holds. */
/** The one binding of a name, when it is a plain assignment (`USE_FP8 = False`, `do_test = False`): a setting. */
function soleAssignment(bindings: Binding[] | undefined): Binding | undefined {
  return bindings?.length === 1 && bindings[0].kind === "assign" && bindings[0].unpackPath.length === 0 ? bindings[0] : undefined;
}

function consequenceOf(condition: SyntaxNode): SyntaxNode | undefined {
  const statement = condition.parent;
  return condition.field === "condition" && (statement?.type === "if_statement" || statement?.type === "elif_clause") ? childByField(statement, "consequence") : undefined;
}

/** The assignments `left = right` that are statements of `block` itself (not nested). */
function assignmentsInBlock(block: SyntaxNode): Array<{ left: SyntaxNode; right: SyntaxNode | undefined }> {
  return block.children.flatMap((statement) => {
    const assignment = statement.type === "expression_statement" ? statement.children[0] : undefined;
    const left = assignment?.type === "assignment" ? childByField(assignment, "left") : undefined;
    return left ? [{ left, right: childByField(assignment!, "right") }] : [];
  });
}

/** A statement of `block` itself (not nested) is an assignment `left = right` that `matches`. */
function assignsInBlock(block: SyntaxNode, matches: (left: SyntaxNode, right: SyntaxNode | undefined) => boolean): boolean {
  return assignmentsInBlock(block).some(({ left, right }) => matches(left, right));
}

/**
 * The class whose method binds the `self` that `node` reads: its own method's, or, in a function nested in a
 * method (`def compute_pred(...): return self.compute_nce(...)` in HuBERT's `forward`), the method's.
 */
function classOfSelf(node: SyntaxNode, text: string): SyntaxNode | undefined {
  for (let fn = enclosingFunctionOf(node); fn; fn = enclosingFunctionOf(fn)) {
    const cls = enclosingClassOf(fn);
    if (cls) return cls;
    const bindsSelf = (childByField(fn, "parameters")?.children ?? []).some((parameter) => {
      const name = parameterName(parameter);
      return !!name && text.slice(name.start, name.end) === "self";
    });
    if (bindsSelf) return undefined;
  }
  return undefined;
}

/** `self.name`. */
function isSelfAttribute(node: SyntaxNode, text: string): boolean {
  const object = node.type === "attribute" ? childByField(node, "object") : undefined;
  return object?.type === "identifier" && text.slice(object.start, object.end) === "self";
}

/** `node` runs only when an exception is handled: it is in an `except` clause's block, in its function. */
function inExceptionHandler(node: SyntaxNode): boolean {
  for (let child = node, current = node.parent; current && current.type !== "function_definition" && current.type !== "class_definition"; child = current, current = current.parent) {
    if ((current.type === "except_clause" || current.type === "except_group_clause") && child.type === "block") return true;
  }
  return false;
}

/** The innermost `for` or `while` statement around `node` in its function, if any. */
export function loopStatementAround(node: SyntaxNode): SyntaxNode | undefined {
  for (let current = node.parent; current && current.type !== "function_definition" && current.type !== "class_definition"; current = current.parent) {
    if (current.type === "for_statement" || current.type === "while_statement") return current;
  }
  return undefined;
}

/** How many iterations of loops outside per-step code are too few to report: a self-check's `range(4)`. */
const FEW_ITERATIONS = 10;
const WRITTEN_OUT = new Set(["tuple", "list", "set", "expression_list"]);
/** How many items a tuple, list or set written out holds; undefined when one is unpacked into it (`*rest`). */
function writtenOutCount(items: SyntaxNode): number | undefined {
  return items.children.some((item) => item.type === "list_splat") ? undefined : items.children.length;
}

/**
 * How many times `for _ in range(N)` or `range(a, b)` with integer literals runs, or a loop over the items of a
 * tuple, list or set written out (`for split in ("train", "val")`); undefined for any other loop.
 */
function literalRangeLength(loop: SyntaxNode, text: string): number | undefined {
  const iterable = loopIterable(loop);
  const call = iterable && unparenthesized(iterable);
  if (call && WRITTEN_OUT.has(call.type)) return writtenOutCount(call);
  const callee = call?.type === "call" ? childByField(call, "function") : undefined;
  if (!call || !callee || text.slice(callee.start, callee.end) !== "range") return undefined;
  const bounds = positionalArguments(call).map((bound) => unparenthesized(bound));
  if (bounds.length === 0 || bounds.length > 2 || !bounds.every((bound) => bound.type === "integer")) return undefined;
  const [start, end] = bounds.length === 1 ? [0, Number(text.slice(bounds[0].start, bounds[0].end))] : bounds.map((bound) => Number(text.slice(bound.start, bound.end)));
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : undefined;
}

/** How many processes a distributed group has: `world_size`, `dist.get_world_size()`, `num_replicas`. */
const WORLD_SIZE = /world_size|num_replicas|\bn_?procs\b|num_processes/i;

/** `env.step(action)`, `envs.step(...)`: a step of a reinforcement-learning environment. */
export function isEnvironmentStep(call: SyntaxNode, text: string): boolean {
  const callee = childByField(call, "function");
  const [object, method] = callee?.type === "attribute" ? [childByField(callee, "object")!, childByField(callee, "attribute")!] : [];
  return !!method && text.slice(method.start, method.end) === "step" && ENVIRONMENT_NAME.test(lastName(text.slice(object!.start, object!.end)));
}

/** What a `for` loop or a comprehension iterates over. */
export function loopIterable(loop: SyntaxNode): SyntaxNode | undefined {
  if (loop.type === "for_statement") return childByField(loop, "right");
  const clause = loop.children.find((child) => child.type === "for_in_clause");
  return clause ? childByField(clause, "right") : undefined;
}

/** What bounds a loop's iterations: a `for`'s iterable, a `while`'s condition. */
function loopBound(loop: SyntaxNode): SyntaxNode | undefined {
  if (loop.type === "for_statement") return childByField(loop, "right");
  return loop.type === "while_statement" ? childByField(loop, "condition") : undefined;
}

/**
 * `step % N`, the test of a periodic guard; not string formatting (`"%d" % n`), and not a count of
 * gradient-accumulation micro-batches (`(i + 1) % accum_steps == 0` holds on every optimizer step).
 */
function isModulo(raw: SyntaxNode, text: string, scopes: Scopes): boolean {
  const node = unparenthesized(raw);
  if (node.type !== "binary_operator" || node.tokens[0] !== "%") return false;
  const left = childByField(node, "left");
  const right = childByField(node, "right");
  if (!left || unparenthesized(left).type === "string" || unparenthesized(left).type === "concatenated_string") return false;
  // Only a divisor that is the count itself: `% (accum_steps * log_every)` is a periodic guard.
  const divisor = right && unparenthesized(right);
  const countsMicroBatches = (divisor?.type === "identifier" || divisor?.type === "attribute") && ACCUMULATION_NAME.test(lastName(text.slice(divisor.start, divisor.end)));
  return !countsMicroBatches && !(divisor && isOne(divisor, text, scopes));
}

/** `1`, or a name bound once in its scope, to `1` (`log_interval = 1`): `step % log_interval == 0` holds on every step. */
function isOne(divisor: SyntaxNode, text: string, scopes: Scopes): boolean {
  if (divisor.type === "integer") return text.slice(divisor.start, divisor.end) === "1";
  if (divisor.type !== "identifier") return false;
  const name = text.slice(divisor.start, divisor.end);
  const binding = resolveBinding(name, divisor.start, scopeOf(divisor, scopes));
  const value = binding?.kind === "assign" && binding.unpackPath.length === 0 ? binding.value && unparenthesized(binding.value) : undefined;
  if (value?.type !== "integer" || text.slice(value.start, value.end) !== "1") return false;
  // Bound nowhere else in its scope (no `log_interval = args.log_interval` after it, no `+=`).
  const scope = scopes.module.bindings.get(name)?.includes(binding!) ? scopes.module : scopeOf(divisor, scopes);
  return (scope.bindings.get(name) ?? []).length === 1;
}


function identifiersIn(root: SyntaxNode, text: string): string[] {
  const names: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "identifier") names.push(text.slice(node.start, node.end));
    stack.push(...node.children);
  }
  return names;
}

/** The calls of one top-level statement that the file's indexes need; reused while the statement is unchanged. */
interface StatementCalls {
  functionCalls: Map<string, SyntaxNode[]>;
  methodCalls: Map<SyntaxNode, Map<string, SyntaxNode[]>>;
  /** Decorated definitions, which `@torch.compile` may compile. */
  decorated: SyntaxNode[];
  /** Calls whose callee may name `torch.compile` or `torch.jit.script` (resolved per analysis). */
  compileCalls: SyntaxNode[];
}
const callsByStatement = new WeakMap<SyntaxNode, StatementCalls>();
const NO_CALLS: SyntaxNode[] = [];
const NO_STATEMENTS: ReadonlySet<SyntaxNode> = new Set();

function statementCalls(statement: SyntaxNode, text: string): StatementCalls {
  const cached = callsByStatement.get(statement);
  if (cached) return cached;
  const calls: StatementCalls = { functionCalls: new Map(), methodCalls: new Map(), decorated: [], compileCalls: [] };
  const textOf = (node: SyntaxNode) => ownString(text.slice(node.start, node.end));
  const add = (map: Map<string, SyntaxNode[]>, name: string, call: SyntaxNode) => {
    const list = map.get(name);
    if (list) list.push(call);
    else map.set(name, [call]);
  };
  // `self.f(...)`, or `self.f` in a dispatch table: a call of method `f` of the enclosing class.
  const addMethodCall = (call: SyntaxNode, method: SyntaxNode) => {
    const cls = classOfSelf(call, text);
    if (!cls) return;
    let byName = calls.methodCalls.get(cls);
    if (!byName) calls.methodCalls.set(cls, (byName = new Map()));
    add(byName, textOf(childByField(method, "attribute")!), call);
  };
  const stack = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let i = 0; i < node.children.length; i++) stack.push(node.children[i]);
    if (node.type === "decorated_definition") {
      calls.decorated.push(node);
      continue;
    }
    if (node.type !== "call") continue;
    const callee = childByField(node, "function");
    if (!callee) continue;
    if (callee.type === "identifier") add(calls.functionCalls, textOf(callee), node);
    else if (callee.type === "attribute") {
      if (isSelfAttribute(callee, text)) addMethodCall(node, callee);
    } else if (callee.type === "subscript") {
      // `loss_map[loss](outputs, targets)` with `loss_map = {"labels": self.loss_labels, ...}`: a call of each.
      for (const target of dispatchTable(callee, text)) {
        if (target.type === "identifier") add(calls.functionCalls, textOf(target), node);
        else addMethodCall(node, target);
      }
    }
    // Cheap text test first: resolving every callee's qualified name is the expensive part.
    if (text.endsWith("compile", callee.end) || text.endsWith("script", callee.end)) calls.compileCalls.push(node);
  }
  callsByStatement.set(statement, calls);
  return calls;
}

/**
 * The functions (`f`) and methods (`self.f`) a dict literal of the enclosing function maps keys to, when `callee`
 * (`table[key]`) subscripts the name it is assigned to: a dispatch table.
 */
function dispatchTable(callee: SyntaxNode, text: string): SyntaxNode[] {
  const table = childByField(callee, "value");
  const fn = enclosingFunctionOf(callee);
  if (table?.type !== "identifier" || !fn) return [];
  const name = text.slice(table.start, table.end);
  const body = childByField(fn, "body");
  const dictionary = body && assignmentsInBlock(body).find(({ left, right }) => left.type === "identifier" && text.slice(left.start, left.end) === name && right?.type === "dictionary")?.right;
  return (dictionary?.children ?? []).flatMap((pair) => {
    const value = pair.type === "pair" ? childByField(pair, "value") : undefined;
    return value && (value.type === "identifier" || isSelfAttribute(value, text)) ? [value] : [];
  });
}

export function methodOf(cls: SyntaxNode, name: string, text: string): SyntaxNode | undefined {
  const body = childByField(cls, "body");
  for (const statement of body?.children ?? []) {
    const fn = statement.type === "decorated_definition" ? childByField(statement, "definition") : statement;
    if (fn?.type !== "function_definition") continue;
    const nameNode = childByField(fn, "name");
    if (nameNode && text.slice(nameNode.start, nameNode.end) === name) return fn;
  }
  return undefined;
}

/** `node` is inside `with torch.no_grad():` / `torch.inference_mode()`, or a function decorated with either. */
function runsWithoutGrad(node: SyntaxNode, text: string): boolean {
  for (let current = node.parent; current; current = current.parent) {
    const heading =
      current.type === "with_statement" ? current.children.find((child) => child.type === "with_clause") : current.type === "decorated_definition" ? current : undefined;
    if (!heading) continue;
    const items = heading.type === "with_clause" ? heading.children : heading.children.filter((child) => child.type === "decorator");
    if (items.some((item) => WITHOUT_GRAD.test(text.slice(item.start, item.end)))) return true;
  }
  return false;
}
const WITHOUT_GRAD = /^@?\s*(torch\.)?(no_grad|inference_mode)\s*\(/;
