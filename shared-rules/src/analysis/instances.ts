/**
 * What is called on an object a call makes: `v = Cls()` then `v.m()`, `self.v = Cls()` then `self.v.m()`. The
 * hot-path analysis follows these into the same file's classes (`self.decoder.update(...)` in a decoding loop
 * runs `GreedyDecoder.update`), the project's links into other files' (`logger.update(loss=loss)`).
 */
import { SyntaxNode, childByField, enclosingClassOf } from "../syntax";
import { Binding, Scopes, identifiersNamed, resolveBinding, scopeOf } from "./scopes";
import { RETURNS_MODULE } from "./names";

/** What finding the calls on an instance needs to know of its file. */
export interface InstanceSource {
  text: string;
  scopes: Scopes;
  /** The function of this file that `call` calls, if one is (`HotPaths.localFunction`). */
  localFunction(call: SyntaxNode): SyntaxNode | undefined;
  /** The parameter of `fn` that `argument` of `call` is passed for (`HotPaths.parameterFor`). */
  parameterFor(fn: SyntaxNode, call: SyntaxNode, argument: SyntaxNode): Binding | undefined;
}

export interface InstanceCall {
  /** The call; for a read, the attribute (`meter.avg`), which runs the method if it is a `@property`. */
  call: SyntaxNode;
  name: string;
  read?: true;
}

/** `@property def avg(self)`: reading the attribute runs it. */
export function isProperty(fn: SyntaxNode, text: string): boolean {
  const decorated = fn.parent?.type === "decorated_definition" ? fn.parent : undefined;
  return !!decorated?.children.some((child) => child.type === "decorator" && /^@\s*property\s*$/.test(text.slice(child.start, child.end)));
}

/**
 * What is called on the object `call` returns, when it is assigned to a name (`v = Cls()`, then `v.m()` and
 * `v()` where `v` is that assignment's, also once passed to a function of this file) or to an attribute of
 * `self` (`self.v = Cls()`, then `self.v.m()` in the class).
 */
export function methodCallsOn(call: SyntaxNode, source: InstanceSource): InstanceCall[] {
  // `v = Cls()`, and `v = given or Cls()`, `v = Cls() if c else other`: `v` may be what the call made.
  let value = call;
  for (;;) {
    while (value.parent && (value.parent.type === "parenthesized_expression" || value.parent.type === "boolean_operator" || (value.parent.type === "conditional_expression" && value !== value.parent.children[1]))) value = value.parent;
    // `agent = Agent(envs).to(device)`: a module's `.to()`, `.cuda()`, `.eval()` return the module itself.
    const method = value.field === "object" && value.parent?.type === "attribute" ? childByField(value.parent, "attribute") : undefined;
    const chained = method && value.parent!.field === "function" && value.parent!.parent?.type === "call" ? value.parent!.parent : undefined;
    if (!chained || !RETURNS_MODULE.test(source.text.slice(method!.start, method!.end))) break;
    value = chained;
  }
  const { assignment, left } = assignedTo(value);
  if (!assignment) return [];
  const text = source.text;
  const found: InstanceCall[] = [];
  if (left?.type === "identifier") {
    const name = text.slice(left.start, left.end);
    for (const node of identifiersNamed(text, name, scopeOf(call, source.scopes).node)) {
      const reaching = resolveBinding(name, node.start, scopeOf(node, source.scopes))?.node;
      if (reaching && (reaching === assignment || inOtherBranches(reaching, assignment))) callsOnInstance(node, source, found, true);
    }
  } else if (left?.type === "attribute") {
    callsOnSelfAttribute(left, source, found);
  }
  return found;
}

/**
 * The assignment that binds `value`, and the target it binds it to: `v = value`, or the matching name of
 * `a, v = other, value` (the same number of names and values).
 */
function assignedTo(value: SyntaxNode): { assignment?: SyntaxNode; left?: SyntaxNode } {
  if (value.parent?.type === "assignment" && value.field === "right") return { assignment: value.parent, left: childByField(value.parent, "left") };
  const values = value.parent;
  const assignment = values?.parent;
  if ((values?.type !== "expression_list" && values?.type !== "tuple") || assignment?.type !== "assignment" || values.field !== "right") return {};
  const targets = childByField(assignment, "left");
  if ((targets?.type !== "pattern_list" && targets?.type !== "tuple_pattern") || targets.children.length !== values.children.length) return {};
  return { assignment, left: targets.children[values.children.indexOf(value)] };
}

/**
 * `if args.policy == "TD3": policy = TD3(...)` / `elif ...: policy = DDPG(...)`: two statements in different
 * branches of one `if`, so that a name read after it may be either's (the last one is what `resolveBinding` gives).
 */
function inOtherBranches(a: SyntaxNode, b: SyntaxNode): boolean {
  const branchOf = (node: SyntaxNode) => {
    const branches: SyntaxNode[] = [];
    for (let child = node, current = node.parent; current; child = current, current = current.parent) {
      if (current.type === "function_definition" || current.type === "class_definition") break;
      if (current.type === "if_statement") branches.push(child);
    }
    return branches;
  };
  const ofB = branchOf(b);
  for (const branch of branchOf(a)) {
    const other = ofB.find((candidate) => candidate.parent === branch.parent);
    if (other) return other !== branch && branch.field !== "condition" && other.field !== "condition";
  }
  return false;
}

/** `self.v = ...` in a class: the calls made on `self.v` in that class. */
function callsOnSelfAttribute(left: SyntaxNode, source: InstanceSource, found: InstanceCall[]): void {
  const text = source.text;
  const object = childByField(left, "object");
  const attribute = childByField(left, "attribute");
  const cls = enclosingClassOf(left);
  if (!cls || object?.type !== "identifier" || text.slice(object.start, object.end) !== "self" || !attribute) return;
  const name = text.slice(attribute.start, attribute.end);
  for (const node of identifiersNamed(text, "self", cls)) {
    if (node.field !== "object" || node.parent?.type !== "attribute" || node.parent === left) continue;
    const attributeName = childByField(node.parent, "attribute");
    if (attributeName && text.slice(attributeName.start, attributeName.end) === name) callsOnInstance(node.parent, source, found, false);
  }
}

/**
 * The calls made on the instance that `node` names: its methods (`v.m()`), itself (`v()` runs `__call__`), and,
 * when `followArguments`, the same on the parameter of a function of this file that it is passed to (one hop:
 * `loss_scaler = NativeScaler()`, `train_one_epoch(..., loss_scaler)`, then `loss_scaler(loss, optimizer)`).
 */
function callsOnInstance(node: SyntaxNode, source: InstanceSource, found: InstanceCall[], followArguments: boolean): void {
  const method = methodCalled(node, source.text);
  if (method) return void found.push(method);
  if (node.field === "function" && node.parent?.type === "call") return void found.push({ call: node.parent, name: "__call__" });
  const read = attributeRead(node, source.text);
  if (read) return void found.push(read);
  // `inputs = next(fetcher)`: the instance's `__next__` (stargan-v2's `InputFetcher`).
  const next = node.parent?.type === "argument_list" && node.parent.children.length === 1 ? node.parent.parent : undefined;
  const nextCallee = next?.type === "call" ? childByField(next, "function") : undefined;
  if (nextCallee?.type === "identifier" && source.text.slice(nextCallee.start, nextCallee.end) === "next") return void found.push({ call: next!, name: "__next__" });
  if (!followArguments || node.type !== "identifier") return;
  // `loss_evaluator = make_loss_evaluator(cfg)`, then `self.loss_evaluator = loss_evaluator`.
  const kept = node.field === "right" && node.parent?.type === "assignment" ? childByField(node.parent, "left") : undefined;
  if (kept?.type === "attribute") return callsOnSelfAttribute(kept, source, found);
  const call = node.parent?.type === "argument_list" ? node.parent.parent : node.parent?.type === "keyword_argument" && node.field === "value" ? node.parent.parent?.parent : undefined;
  const fn = call?.type === "call" ? source.localFunction(call) : undefined;
  const parameter = fn && source.parameterFor(fn, call!, node);
  if (!fn || !parameter) return;
  for (const use of identifiersNamed(source.text, parameter.name, fn)) {
    if (resolveBinding(parameter.name, use.start, scopeOf(use, source.scopes)) === parameter) callsOnInstance(use, source, found, false);
  }
}

/** `receiver.avg` read (not called, not assigned): the attribute and `avg`. */
function attributeRead(receiver: SyntaxNode, text: string): InstanceCall | undefined {
  const read = receiver.field === "object" && receiver.parent?.type === "attribute" ? receiver.parent : undefined;
  const attribute = read && childByField(read, "attribute");
  if (!read || !attribute || read.field === "function") return undefined;
  if ((read.parent?.type === "assignment" || read.parent?.type === "augmented_assignment") && read.field === "left") return undefined;
  return { call: read, name: text.slice(attribute.start, attribute.end), read: true };
}

/** `receiver.m(...)`: the call and `m`. */
function methodCalled(receiver: SyntaxNode, text: string): InstanceCall | undefined {
  if (receiver.field !== "object" || receiver.parent?.type !== "attribute") return undefined;
  const attribute = childByField(receiver.parent, "attribute");
  const call = receiver.parent.parent;
  if (!attribute || call?.type !== "call" || receiver.parent.field !== "function") return undefined;
  return { call, name: text.slice(attribute.start, attribute.end) };
}

