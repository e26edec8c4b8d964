/**
 * Value selections that read a tensor on the host, rewritten to stay on the device:
 * `a if t > c else b` and `if t > c: y = a / else: y = b` → `torch.where(t > c, a, b)`, and
 * `max(t.item(), eps)` / `min(t, c)` → `t.clamp(min=eps)` / `t.clamp(max=c)`.
 *
 * All are suggestions: `torch.where` evaluates both branches and returns a new tensor of the broadcast shape and
 * promoted dtype, and `clamp` returns a tensor where Python returned a number. They are offered only where the
 * branches cannot raise or have side effects when the other one is selected, and are tensors or number literals.
 */
import type { Fix, RuleContext, TextEdit } from "../rule";
import { SyntaxNode, childByField, childrenByField, unparenthesized } from "../syntax";
import { isTensorKind } from "../analysis/tensor-evidence";
import { isNumberLiteral } from "./facts";
import { isBooleanTensor, isBuiltin, isKnownTensor, isSideEffectFree, isSimpleComparison, isTensorItem } from "./tensor-tests";
import { periodicCheckFix } from "./periodic-check";
import { replaceNode } from "./edits";
import { ensureTorchImport } from "./imports";
import { statementIndent } from "./indentation";

/** Expressions that can be the receiver of `.clamp(...)` without parentheses. */
const PRIMARY_TYPES = new Set(["identifier", "attribute", "call", "subscript", "parenthesized_expression"]);

/** `receiver.method` text, with parentheses around a receiver that needs them (`(a + b).clamp`). */
function asReceiver(node: SyntaxNode, context: RuleContext): string {
  const bare = unparenthesized(node);
  return PRIMARY_TYPES.has(bare.type) ? context.text(bare) : `(${context.text(bare)})`;
}

/** The tensor `t` of a branch `float(t)` or `t.item()` (a side-effect-free tensor read on the host), if it is one. */
function hostReadOf(raw: SyntaxNode, context: RuleContext): SyntaxNode | undefined {
  const node = unparenthesized(raw);
  if (node.type !== "call") return undefined;
  const callee = childByField(node, "function")!;
  const args = childByField(node, "arguments")?.children ?? [];
  const isFloat = isBuiltin(callee, "float", context) && args.length === 1 && !["keyword_argument", "list_splat", "dictionary_splat"].includes(args[0].type);
  const tensor = isFloat ? args[0] : isTensorItem(node, context) ? childByField(callee, "object") : undefined;
  return tensor && isKnownTensor(tensor, context) && isSideEffectFree(tensor, context) ? tensor : undefined;
}

/**
 * The text a branch has in `torch.where`: the branch itself when it is side-effect free and a tensor or a
 * number literal; `t.detach()` for `float(t)` / `t.item()` (detached, as the host read was).
 */
function branchText(branch: SyntaxNode, context: RuleContext): { text: string; tensor: boolean } | undefined {
  const read = hostReadOf(branch, context);
  if (read) return { text: `${asReceiver(read, context)}.detach()`, tensor: true };
  if (!isSideEffectFree(branch, context)) return undefined;
  if (isKnownTensor(branch, context)) return { text: context.text(branch), tensor: true };
  return isNumberLiteral(branch) ? { text: context.text(branch), tensor: false } : undefined;
}

/** Both branches' texts, when both are selectable and at least one is a tensor. */
function selectableBranches(a: SyntaxNode, b: SyntaxNode, context: RuleContext): [string, string] | undefined {
  const first = branchText(a, context);
  const second = branchText(b, context);
  if (!first || !second || !(first.tensor || second.tensor)) return undefined;
  return [first.text, second.text];
}

/** The node that holds `node` once the parentheses around it are climbed. */
function climbParentheses(node: SyntaxNode): SyntaxNode {
  let current = node;
  while (current.parent?.type === "parenthesized_expression" && current.parent.children.length === 1) current = current.parent;
  return current;
}

function withTorchImport(edits: TextEdit[], context: RuleContext): TextEdit[] {
  const torchImport = ensureTorchImport(context.analysis.source.text, context.analysis.tree.root);
  return torchImport ? [...edits, torchImport] : edits;
}

function whereFix(target: SyntaxNode, condition: string, [a, b]: [string, string], prefix: string, context: RuleContext): Fix {
  const text = `${prefix}torch.where(${condition}, ${a}, ${b})`;
  return { title: "Select with `torch.where` on the device", safe: false, edits: withTorchImport([replaceNode(target, text)], context) };
}

/** `a if <condition> else b` → `torch.where(<condition>, a, b)`. */
function conditionalWhereFix(conditional: SyntaxNode, condition: string, context: RuleContext): Fix | undefined {
  const [a, , b] = conditional.children;
  const branches = conditional.children.length === 3 ? selectableBranches(a, b, context) : undefined;
  return branches && whereFix(conditional, condition, branches, "", context);
}

/** `name = value` alone in a block: the target name and the value, or undefined. */
function soleAssignment(block: SyntaxNode | undefined): { value: SyntaxNode; target: SyntaxNode } | undefined {
  if (block?.type !== "block" || block.children.length !== 1) return undefined;
  const statement = block.children[0];
  const assignment = statement.type === "expression_statement" && statement.children.length === 1 ? statement.children[0] : undefined;
  if (assignment?.type !== "assignment" || childByField(assignment, "type")) return undefined;
  const target = childByField(assignment, "left");
  const value = childByField(assignment, "right");
  if (target?.type !== "identifier" || !value || value.type === "assignment") return undefined;
  return { value, target };
}

/**
 * `if <condition>:` / `y = a` / `else:` / `y = b` → `y = torch.where(<condition>, a, b)`: one assignment to the
 * same name in each branch, no `elif`, no comment that the rewrite would drop.
 */
function ifElseWhereFix(statement: SyntaxNode, condition: string, context: RuleContext): Fix | undefined {
  const alternatives = childrenByField(statement, "alternative");
  if (alternatives.length !== 1 || alternatives[0].type !== "else_clause") return undefined;
  const then = soleAssignment(childByField(statement, "consequence"));
  const otherwise = soleAssignment(childByField(alternatives[0], "body"));
  if (!then || !otherwise || context.text(then.target) !== context.text(otherwise.target)) return undefined;
  if (statementIndent(context.analysis.source.text, statement) === undefined) return undefined;
  if (context.analysis.tree.comments.some((comment) => comment.start > statement.start && comment.start < statement.end)) return undefined;
  const branches = selectableBranches(then.value, otherwise.value, context);
  return branches && whereFix(statement, condition, branches, `${context.text(then.target)} = `, context);
}

/**
 * `torch.where` for the value selection that `conditionNode` decides, with `condition` (a bool-tensor
 * expression) as its condition: a conditional expression, or an `if`/`else` assigning one name.
 */
export function whereFixFor(conditionNode: SyntaxNode, condition: string, context: RuleContext): Fix | undefined {
  const held = climbParentheses(conditionNode);
  const parent = held.parent;
  if (parent?.type === "conditional_expression" && parent.children[1] === held) return conditionalWhereFix(parent, condition, context);
  if (parent?.type === "if_statement" && held.field === "condition") return ifElseWhereFix(parent, condition, context);
  return undefined;
}

/** `t.item() > c` with `c` side-effect free and no tensor: the comparison, and its text with `t` in place of `t.item()`. */
export function itemComparison(item: SyntaxNode, receiver: SyntaxNode, context: RuleContext): { node: SyntaxNode; tensorText: string } | undefined {
  const held = climbParentheses(item);
  const comparison = held.parent;
  if (!comparison || !isSimpleComparison(comparison) || !isKnownTensor(receiver, context)) return undefined;
  const other = comparison.children.find((child) => child !== held);
  if (!other || !isSideEffectFree(other, context) || isTensorKind(context.analysis.tensorEvidence(other).kind)) return undefined;
  const text = context.analysis.source.text;
  return { node: comparison, tensorText: text.slice(comparison.start, held.start) + context.text(receiver) + text.slice(held.end, comparison.end) };
}

/** `max(v, bound)` / `min(v, bound)` with the builtin and exactly two positional arguments, `v` first. */
function builtinMinMax(value: SyntaxNode, context: RuleContext): { call: SyntaxNode; bound: SyntaxNode; keyword: "min" | "max" } | undefined {
  const args = value.parent;
  const call = args?.parent;
  if (args?.type !== "argument_list" || call?.type !== "call" || args.children.length !== 2 || args.children[0] !== value) return undefined;
  const callee = childByField(call, "function")!;
  const name = isBuiltin(callee, "max", context) ? "max" : isBuiltin(callee, "min", context) ? "min" : undefined;
  if (!name) return undefined;
  const bound = args.children[1];
  if (bound.type === "keyword_argument" || bound.type === "list_splat" || bound.type === "dictionary_splat") return undefined;
  // `max(t, eps)` → `t.clamp(min=eps)`: Python's `max` returns the larger, so `eps` is the lower bound.
  return { call, bound, keyword: name === "max" ? "min" : "max" };
}

/** A number the bound may be: a literal, or a side-effect-free name known to hold a Python number. */
function isNumberBound(bound: SyntaxNode, context: RuleContext): boolean {
  if (isNumberLiteral(bound)) return true;
  return isSideEffectFree(bound, context) && context.analysis.tensorEvidence(bound).kind === "scalar";
}

/**
 * `max(t.item(), eps)` → `t.detach().clamp(min=eps)` (the detach keeps `.item()`'s cut of the autograd graph),
 * and `max(t, eps)` → `t.clamp(min=eps)`; `min` gives `clamp(max=...)`. Only with the tensor first: Python's
 * `max(nan, eps)` is nan, as `clamp` gives, but `max(eps, nan)` is `eps`.
 */
export function clampFix(value: SyntaxNode, tensor: SyntaxNode, detach: boolean, context: RuleContext): Fix | undefined {
  const site = builtinMinMax(value, context);
  if (!site || !isKnownTensor(tensor, context) || !isNumberBound(site.bound, context)) return undefined;
  const clamped = `${asReceiver(tensor, context)}${detach ? ".detach()" : ""}.clamp(${site.keyword}=${context.text(site.bound)})`;
  const name = context.text(childByField(site.call, "function")!);
  return { title: `Clamp on the device instead of Python \`${name}()\``, safe: false, edits: [replaceNode(site.call, clamped)] };
}

/**
 * The rewrites for `t.item()` (item-in-hot-path) read by a value selection: `max(t.item(), eps)` → clamp,
 * `a if t.item() > c else b` (or the `if`/`else` statement) → `torch.where`, `if t.item() > c: break` → a
 * periodic check.
 */
export function itemSelectFixes(item: SyntaxNode, receiver: SyntaxNode, context: RuleContext): Fix[] {
  const clamp = clampFix(item, receiver, true, context);
  if (clamp) return [clamp];
  const comparison = itemComparison(item, receiver, context);
  const where = comparison && whereFixFor(comparison.node, comparison.tensorText, context);
  if (where) return [where];
  const test = climbParentheses(item).parent;
  const periodic = test && isSimpleComparison(test) ? periodicCheckFix(test, context) : undefined;
  return periodic ? [periodic] : [];
}

/** The rewrites for a tensor read as a Python bool (implicit-host-read): `torch.where`, or a periodic check. */
export function conditionSelectFixes(read: SyntaxNode, context: RuleContext): Fix[] {
  const where = isBooleanTensor(read, context) ? whereFixFor(read, context.text(read), context) : undefined;
  if (where) return [where];
  const periodic = periodicCheckFix(read, context);
  return periodic ? [periodic] : [];
}
