/**
 * Scopes gathered on demand (as the incremental linter asks for them, with an index of which statements bind a
 * name) must be exactly the scopes of a pass over the whole file: the same bindings of every name, in the same
 * order, the same iteration order of the module's names, the same function scopes with the same parents.
 */
import * as assert from "assert";
import { initParser, parseSyntaxTree } from "synclint-rules";
import type { SyntaxNode } from "synclint-rules";
import { collectScopes, moduleNamesBoundBy, resolveBinding, scopeOf } from "synclint-rules/out/analysis/scopes";
import type { Binding, Scope, Scopes } from "synclint-rules/out/analysis/scopes";
import { allNodes, py } from "../helpers";

const FILE = py`
  import torch
  import torch.nn.functional as F
  from torch.utils.data import DataLoader as Loader

  NUM_CLASSES = 10
  device = torch.device("cuda")
  args.loader = Loader(dataset)


  def helper(t, scale=NUM_CLASSES):
      def inner(u):
          return u * scale
      return inner(t).sum().item()


  class Net(nn.Module):
      width = 4

      def forward(self, x):
          global device
          device = x.device
          return helper(x)

      @staticmethod
      def make():
          return Net()


  NUM_CLASSES = NUM_CLASSES + 1
  for step, (x, y) in enumerate(Loader(dataset)):
      helper(x)
  if (n := len(args)) > 1:
      device = "cpu"
  with torch.no_grad() as guard:
      pass
`;

/** Which statements bind each name, as the incremental linter's index knows it (and, to test a superset, all). */
function bindersIndex(root: SyntaxNode, text: string, superset: boolean): (name: string) => ReadonlySet<SyntaxNode> | undefined {
  const index = new Map<string, Set<SyntaxNode>>();
  for (const statement of root.children) {
    for (const name of moduleNamesBoundBy(statement, text)) {
      if (!index.has(name)) index.set(name, new Set());
      index.get(name)!.add(statement);
    }
  }
  // Sets in an order other than the file's: the lookup must sort.
  const reversed = (set: Set<SyntaxNode>) => new Set([...set].reverse());
  return (name) => (superset ? new Set([...root.children].reverse()) : index.has(name) ? reversed(index.get(name)!) : undefined);
}

function bindingKeys(list: Binding[] | undefined): string[] | undefined {
  return list?.map((binding) => `${binding.name}:${binding.kind}@${binding.effective}`);
}

function namesOfFile(root: SyntaxNode, text: string): string[] {
  const names = new Set<string>(["undefined_name", "self", "x"]);
  for (const node of allNodes(root)) if (node.type === "identifier") names.add(text.slice(node.start, node.end));
  return [...names];
}

describe("collectScopes", () => {
  before(() => initParser());

  for (const superset of [false, true]) {
    const which = superset ? "an index listing every statement for every name" : "an index of the statements binding each name";

    it(`gathers each module name's bindings on demand exactly as a pass over the file does (${which})`, () => {
      const tree = parseSyntaxTree(FILE);
      const eager = collectScopes(tree.root, FILE);
      const lazy = collectScopes(tree.root, FILE, bindersIndex(tree.root, FILE, superset));
      for (const name of namesOfFile(tree.root, FILE)) {
        const want = eager.module.bindings.get(name);
        const got = lazy.module.bindings.get(name);
        assert.deepStrictEqual(bindingKeys(got), bindingKeys(want), name);
        // The same binding objects (statements' bindings are collected once), so identity checks keep working.
        want?.forEach((binding, i) => assert.strictEqual(got![i], binding, name));
        assert.strictEqual(lazy.module.bindings.has(name), eager.module.bindings.has(name), name);
      }
      // Effective where each assignment ends: the second reads the first.
      const ends = ["NUM_CLASSES = 10", "NUM_CLASSES = NUM_CLASSES + 1"].map((line) => FILE.indexOf(line) + line.length);
      assert.deepStrictEqual(bindingKeys(lazy.module.bindings.get("NUM_CLASSES")), ends.map((end) => `NUM_CLASSES:assign@${end}`));
    });

    it(`iterates the module's names in the file's order, after some were asked for (${which})`, () => {
      const tree = parseSyntaxTree(FILE);
      const eager = collectScopes(tree.root, FILE);
      const lazy = collectScopes(tree.root, FILE, bindersIndex(tree.root, FILE, superset));
      // Asked for out of order first: iteration must not follow the order of the questions.
      for (const name of ["device", "missing", "helper", "F"]) lazy.module.bindings.get(name);
      const entries = (scopes: Scopes) => [...scopes.module.bindings].map(([name, list]) => [name, bindingKeys(list)]);
      assert.deepStrictEqual(entries(lazy), entries(eager));
      assert.deepStrictEqual([...lazy.module.bindings.keys()], [...eager.module.bindings.keys()]);
      assert.strictEqual(lazy.module.bindings.size, eager.module.bindings.size);
      const seen: string[] = [];
      lazy.module.bindings.forEach((_, name) => seen.push(name));
      assert.deepStrictEqual(seen, [...eager.module.bindings.keys()]);
      assert.deepStrictEqual(bindingKeys(lazy.module.bindings.get("missing")), undefined);
      assert.strictEqual(lazy.module.bindings.has("torch"), true);
    });
  }

  it("finds every function's scope, whose outermost parent is the module of the scopes asked", () => {
    const tree = parseSyntaxTree(FILE);
    const first = collectScopes(tree.root, FILE, bindersIndex(tree.root, FILE, false));
    const definitions = allNodes(tree.root).filter((node) => node.type === "function_definition");
    assert.strictEqual(definitions.length, 4);
    const second = collectScopes(tree.root, FILE);
    for (const scopes of [first, second]) {
      for (const definition of definitions) {
        const scope = scopes.get(definition)!;
        assert.strictEqual(scope.node, definition);
        let outermost: Scope = scope;
        while (outermost.parent) outermost = outermost.parent;
        assert.strictEqual(outermost, scopes.module, "a cached scope is re-parented to the module of the scopes asked");
      }
      assert.strictEqual(scopes.get(tree.root), scopes.module);
      assert.strictEqual(scopes.get(tree.root.children[0]), undefined, "not a function");
    }
    // `inner`'s scope sees `helper`'s parameters, then the module's names.
    const innerReturn = allNodes(tree.root).find((node) => node.type === "identifier" && FILE.slice(node.start, node.end) === "scale" && node.parent?.type === "binary_operator")!;
    const scope = scopeOf(innerReturn, first);
    assert.strictEqual(resolveBinding("scale", innerReturn.start, scope)?.kind, "parameter");
    const lastEnd = FILE.indexOf("NUM_CLASSES = NUM_CLASSES + 1") + "NUM_CLASSES = NUM_CLASSES + 1".length;
    assert.strictEqual(resolveBinding("NUM_CLASSES", innerReturn.start, scope)?.effective, lastEnd, "a name bound in the module resolves to its last binding there");
  });

  it("finds a node's scope the same however deep it is nested (climbs past 64 ancestors are memoised)", () => {
    for (const depth of [1, 63, 64, 65, 200]) {
      const nest = (name: string) => `${"(".repeat(depth)}${name}${")".repeat(depth)}`;
      const text = `c = 1\n\ndef f(a, b=${nest("c")}):\n    return ${nest("a")} + ${nest("b")}\n`;
      const tree = parseSyntaxTree(text);
      const scopes = collectScopes(tree.root, text);
      const definition = allNodes(tree.root).find((node) => node.type === "function_definition")!;
      const identifiers = (name: string) => allNodes(tree.root).filter((node) => node.type === "identifier" && text.slice(node.start, node.end) === name);
      for (const [name, scopeNode] of [["a", definition], ["b", definition], ["c", tree.root]] as const) {
        // The last occurrence is the deepest one: a read in the body, or the default value of `b`.
        const identifier = identifiers(name).at(-1)!;
        // Asked twice: the second answer may come from a memo.
        for (let ask = 0; ask < 2; ask++) assert.strictEqual(scopeOf(identifier, scopes).node, scopeNode, `${name} at depth ${depth}`);
      }
      // A default value is evaluated outside its function: `c` resolves to the module's binding.
      const c = identifiers("c").at(-1)!;
      assert.strictEqual(resolveBinding("c", c.start, scopeOf(c, scopes))?.kind, "assign");
    }
  });

  it("finds function scopes in a statement with many functions (a large class)", () => {
    const methods = Array.from({ length: 40 }, (_, i) => `    def method_${i}(self, x${i}):\n        return x${i}\n`).join("\n");
    const text = `class Big:\n${methods}`;
    const tree = parseSyntaxTree(text);
    const lazy = collectScopes(tree.root, text, bindersIndex(tree.root, text, false));
    const definitions = allNodes(tree.root).filter((node) => node.type === "function_definition");
    assert.strictEqual(definitions.length, 40);
    for (const [i, definition] of definitions.entries()) {
      const scope = lazy.get(definition)!;
      assert.strictEqual(scope.node, definition);
      assert.deepStrictEqual([...scope.bindings.keys()], ["self", `x${i}`]);
    }
  });
});
