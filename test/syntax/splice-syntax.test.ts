import * as assert from "assert";
import fc from "fast-check";
import { initParser, parseSyntaxTree, spliceSyntaxTree } from "synclint-rules";
import type { SyntaxNode, SyntaxTree } from "synclint-rules";
import { OpenDocument } from "synclint-server/out/documents";

/**
 * Where a comment hangs: its parent's type and range, and whether that parent is in the tree (each node up to
 * the root is among its parent's children). A splice must leave no comment pointing at an older tree's node.
 */
function commentPlace(comment: SyntaxNode, root: SyntaxNode): unknown {
  const parent = comment.parent;
  let inTree = !!parent;
  for (let node = parent; node && node !== root; node = node.parent) if (!node.parent?.children.includes(node)) inTree = false;
  return [comment.start, comment.end, parent?.type, parent?.start, parent?.end, inTree];
}

/** A structural dump of a syntax tree: every node's type, range, field and tokens, plus comments (and where they hang) and problems. */
function dump(tree: SyntaxTree): unknown {
  const node = (n: SyntaxNode): unknown => [n.type, n.start, n.end, n.field, n.tokens.join(" "), n.children.map(node), n.children.every((c) => c.parent === n)];
  return { root: node(tree.root), comments: tree.comments.map((c) => commentPlace(c, tree.root)), problems: tree.problems };
}

const fresh = parseSyntaxTree;

const BASE = [
  "import torch  # top comment",
  "",
  "def train(model, loader, optimizer, device):",
  "    for step, (x, y) in enumerate(loader):  # the step loop",
  "        loss = model(x.to(device)).mean()",
  "        loss.backward()",
  "        if step % 10 == 0:",
  "            print(loss.item())",
  "",
  "class Net(torch.nn.Module):",
  "    def forward(self, x):",
  "        # why",
  "        return x[x > 0].sum()",
  "",
  "x = [1, 2, 3]",
  "@decorator",
  "def helper():",
  '    """doc',
  '    string"""',
  "    return (1,",
  "        2)",
  "# trailing comment",
  "",
].join("\n");

/** A model class whose methods have several statements each: edits inside them re-parse a few statements, not the class. */
const MODEL = [
  "import torch",
  "",
  "class Net(torch.nn.Module):",
  '    """A model."""',
  "",
  "    def __init__(self, width):",
  "        super().__init__()",
  "        self.norm = torch.nn.LayerNorm(width)  # normalise",
  "        self.proj = torch.nn.Linear(width, width)",
  "",
  "    def forward(self, x, mask=None):",
  "        h = self.norm(x)",
  "        h = self.proj(h)",
  "        if mask is not None:",
  "            h = h[mask]",
  "        else:",
  "            h = h.relu()",
  "        # a comment between statements",
  "        for layer in self.layers:",
  "            h = layer(h)",
  "            print(h.sum().item())",
  "        try:",
  "            h = h * 2",
  "        except ValueError:",
  "            pass",
  "        return h",
  "",
  "    @torch.no_grad()",
  "    def predict(self, x):",
  "        y = self(x)",
  "        return y.argmax(-1)",
  "",
  "model = Net(8)",
  "",
].join("\n");

/** Tables written over many lines, as timm's model files have them: edits inside an entry re-parse that entry. */
const TABLES = [
  "import torch",
  "",
  "default_cfgs = generate_default_cfgs({",
  "    'vit_tiny_patch16_224.augreg_in21k_ft_in1k': _cfg(",
  "        hf_hub_id='timm/',",
  "        custom_load=True),  # the tiny one",
  "    'vit_small_patch16_224.augreg_in21k': _cfg(",
  "        hf_hub_id='timm/', num_classes=21843),",
  "    **extra_cfgs,",
  "    'vit_base_patch16_224': _cfg(mean=(0.5, 0.5, 0.5), std=[0.5, 0.5, 0.5], tags={'a', 'b'}),",
  "})",
  "",
  "model = create_model(",
  "    'vit_base_patch16_224',",
  "    pretrained=True,",
  "    *args,",
  "    drop_rate=f(0.1, scale),",
  ")",
  "",
].join("\n");

/**
 * Applies `edits` ([random place, length removed, text inserted]) to `base` one by one, splicing each into the
 * tree before it, and holds every spliced tree without syntax errors equal to a fresh parse; `clean` hears of
 * each such tree and the tree it was spliced into (whose own child lists a splice leaves as they were). Returns how
 * many spliced trees had errors (the server calls them provisional).
 */
function spliceEach(base: string, edits: Array<[number, number, string]>, placeOf: (text: string, at: number) => number, clean: (spliced: SyntaxTree, previous: SyntaxTree) => void): number {
  let text = base;
  let syntax = fresh(text);
  let provisional = 0;
  for (const [at, length, inserted] of edits) {
    const start = placeOf(text, at);
    const oldEnd = Math.min(text.length, start + length);
    const next = text.slice(0, start) + inserted + text.slice(oldEnd);
    const spliced = spliceSyntaxTree(syntax, next, { start, oldEnd, newEnd: start + inserted.length });
    text = next;
    if (!spliced) {
      syntax = fresh(text);
      continue;
    }
    assert.strictEqual(spliced.derivedFrom?.id, syntax.id);
    const before = syntax;
    syntax = spliced;
    if (spliced.problems.length > 0) {
      provisional++;
      continue;
    }
    clean(spliced, before);
    assert.deepStrictEqual(dump(spliced), dump(fresh(text)));
  }
  return provisional;
}

/** The entries (`pair`s) of the dictionary in a `name = f({...})` statement. */
function entriesOf(statement: SyntaxNode): SyntaxNode[] {
  let node = statement;
  while (node.type !== "dictionary") node = node.children.find((c) => c.type === "dictionary" || c.children.length > 0 && c.type !== "identifier" && c.type !== "string")!;
  return node.children.filter((c) => c.type === "pair");
}

function childBlock(node: SyntaxNode): SyntaxNode {
  const definition = node.type === "decorated_definition" ? node.children.find((c) => c.field === "definition")! : node;
  return definition.children.find((c) => c.type === "block")!;
}

const SNIPPETS = ["x", " ", "\n", "(", ")", ":", '"', '"""', "#", "\\", "[", "loss.item()", "\n    y = 1\n", "def f():\n    pass\n", "    ", "\t", "😀", "if a:\n", "\r\n", "\r", "# c\n"];

describe("spliced syntax tree", () => {
  before(() => initParser());

  it("equals a fresh parse whenever it has no syntax errors, whatever the edits before", () => {
    let compared = 0;
    let provisional = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(8), fc.constantFrom(...SNIPPETS)), { minLength: 1, maxLength: 15 }), (edits) => {
        provisional += spliceEach(BASE, edits, (text, at) => at % (text.length + 1), () => compared++);
      }),
      { numRuns: 1000, seed: 20261129 },
    );
    assert.ok(compared > 300 && provisional > 100, `compared ${compared}, provisional ${provisional}`);
  });

  it("re-parses only the statements around the edit and keeps the others' nodes", () => {
    const before = fresh(BASE);
    const kept = [...before.root.children];
    const at = BASE.indexOf("x = [1, 2, 3]");
    const text = BASE.slice(0, at) + "y" + BASE.slice(at + 1);
    const spliced = spliceSyntaxTree(before, text, { start: at, oldEnd: at + 1, newEnd: at + 1 })!;
    const statements = spliced.root.children;
    // import, train, class, `y = ...`, helper: the class, the assignment and the decorated helper are parsed again.
    assert.strictEqual(statements.length, 5);
    assert.strictEqual(statements[0], kept[0]);
    assert.strictEqual(statements[1], kept[1]);
    assert.notStrictEqual(statements[2], kept[2]);
    assert.notStrictEqual(statements[3], kept[3]);
    assert.deepStrictEqual(spliced.derivedFrom?.change, { start: kept[2].start, oldEnd: BASE.length, newEnd: text.length });
    assert.deepStrictEqual(dump(spliced), dump(fresh(text)));
  });

  it("shifts the statements after the edit and keeps them", () => {
    const before = fresh(BASE);
    const helper = before.root.children[4];
    const helperStart = helper.start;
    const at = BASE.indexOf("import torch");
    const text = "import numpy\n" + BASE;
    const spliced = spliceSyntaxTree(before, text, { start: at, oldEnd: at, newEnd: at + 13 })!;
    assert.strictEqual(spliced.root.children[5], helper);
    assert.strictEqual(helper.start, helperStart + 13);
    assert.deepStrictEqual(dump(spliced), dump(fresh(text)));
  });

  it("keeps the problems of a region that does not parse cleanly, and those elsewhere", () => {
    const before = fresh(BASE);
    const at = BASE.indexOf("loss.backward()");
    const text = BASE.slice(0, at) + "loss.backward(" + BASE.slice(at + "loss.backward()".length);
    const spliced = spliceSyntaxTree(before, text, { start: at + 14, oldEnd: at + 15, newEnd: at + 14 })!;
    assert.ok(spliced.problems.length > 0);
    // Closing the parenthesis again gives a clean tree, equal to a fresh parse.
    const repaired = spliceSyntaxTree(spliced, BASE, { start: at + 14, oldEnd: at + 14, newEnd: at + 15 })!;
    assert.deepStrictEqual(repaired.problems, []);
    assert.deepStrictEqual(dump(repaired), dump(fresh(BASE)));
  });
  it("re-parses only the statements around an edit inside a class's method, and keeps the class's other nodes", () => {
    const before = fresh(MODEL);
    const [imports, cls, tail] = before.root.children;
    const tailStart = tail.start;
    const methods = childBlock(cls).children;
    // The docstring, `__init__`, `forward`, `predict`.
    const forward = methods[2];
    const body = childBlock(forward).children;
    const at = MODEL.indexOf("h = self.proj(h)") + "h = self.".length;
    const text = MODEL.slice(0, at) + "pre_" + MODEL.slice(at);
    const spliced = spliceSyntaxTree(before, text, { start: at, oldEnd: at, newEnd: at + 4 })!;
    assert.deepStrictEqual(dump(spliced), dump(fresh(text)));
    const [newImports, newClass, newTail] = spliced.root.children;
    // The top-level statement, its block and the method on the way down are new nodes; the incremental linter sees the class as changed.
    assert.strictEqual(newImports, imports);
    assert.notStrictEqual(newClass, cls);
    assert.strictEqual(newTail, tail);
    const newMethods = childBlock(newClass).children;
    assert.strictEqual(newMethods[1], methods[1]);
    assert.notStrictEqual(newMethods[2], forward);
    assert.strictEqual(newMethods[3], methods[3]);
    // In the method: the edited statement and the one before it are parsed again; the ones after are kept, moved.
    const newBody = childBlock(newMethods[2]).children;
    assert.notStrictEqual(newBody[0], body[0]);
    assert.notStrictEqual(newBody[1], body[1]);
    assert.strictEqual(newBody[2], body[2]);
    assert.strictEqual(newBody[2].parent, childBlock(newMethods[2]));
    assert.deepStrictEqual(spliced.derivedFrom?.change, { start: cls.start, oldEnd: tailStart, newEnd: tailStart + 4 });
  });

  it("inside a class, equals a fresh parse whenever it has no syntax errors, and re-parses less than the class for most edits", () => {
    let compared = 0;
    let insideClass = 0;
    const methods = (tree: SyntaxTree) => tree.root.children.flatMap((statement) => (statement.type === "class_definition" ? childBlock(statement).children : []));
    // Edits inside the class's body, where the nested re-parse applies.
    const inClassBody = (text: string, at: number) => {
      const bodyStart = text.indexOf("    def ");
      return bodyStart < 0 ? at % (text.length + 1) : bodyStart + (at % Math.max(1, text.length - bodyStart));
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.constantFrom(...SNIPPETS)), { minLength: 1, maxLength: 8 }), (edits) => {
        spliceEach(MODEL, edits, inClassBody, (spliced, previous) => {
          compared++;
          const before = methods(previous);
          if (methods(spliced).some((method) => before.includes(method))) insideClass++;
        });
      }),
      { numRuns: 600, seed: 20261130 },
    );
    assert.ok(compared > 200 && insideClass > 100, `compared ${compared}, kept methods in ${insideClass}`);
  });

  it("inside an entry of a table written over lines, equals a fresh parse whenever it has no syntax errors, and keeps the other entries", () => {
    let compared = 0;
    let entriesKept = 0;
    const entries = (tree: SyntaxTree) => {
      const found: SyntaxNode[] = [];
      const stack = [...tree.root.children];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (node.type === "pair" || node.type === "keyword_argument") found.push(node);
        stack.push(...node.children);
      }
      return found;
    };
    const tableSnippets = [...SNIPPETS, ",", "}", "{", "'", "**x", " for a in b", "=", "1", "x=1,", "lambda: 0", "*", ")"];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...tableSnippets)), { minLength: 1, maxLength: 8 }), (edits) => {
        spliceEach(TABLES, edits, (text, at) => at % (text.length + 1), (spliced, previous) => {
          compared++;
          const before = new Set(entries(previous));
          if (entries(spliced).some((entry) => before.has(entry)) && spliced.root.children.some((statement) => !previous.root.children.includes(statement))) entriesKept++;
        });
      }),
      { numRuns: 1500, seed: 20261130 },
    );
    assert.ok(compared > 500 && entriesKept > 200, `compared ${compared}, kept entries of a re-parsed statement in ${entriesKept}`);
  });

  it("re-parses only the entry an edit is in, and keeps the other entries' nodes", () => {
    const before = fresh(TABLES);
    const table = before.root.children[1];
    const pairs = entriesOf(table);
    assert.strictEqual(pairs.length, 3);
    const at = TABLES.indexOf("num_classes=21843") + "num_classes=2".length;
    const text = TABLES.slice(0, at) + "1" + TABLES.slice(at);
    const spliced = spliceSyntaxTree(before, text, { start: at, oldEnd: at, newEnd: at + 1 })!;
    assert.deepStrictEqual(dump(spliced), dump(fresh(text)));
    const after = entriesOf(spliced.root.children[1]);
    assert.strictEqual(after[0], pairs[0], "the entry before is kept");
    assert.notStrictEqual(after[1], pairs[1], "the edited entry is new");
    assert.strictEqual(after[2], pairs[2], "the entry after is kept, moved");
    assert.strictEqual(after[2].start, pairs[2].start);
    assert.strictEqual(spliced.root.children[2], before.root.children[2], "the next statement is kept");
  });

  it("re-parses only the two entries around an edit between them (a comment, an indentation), and keeps the others", () => {
    const base = fresh(TABLES);
    const pairs = entriesOf(base.root.children[1]);
    // Typing inside the comment between the first and the second entry.
    const inComment = TABLES.indexOf("the tiny one") + 4;
    const commented = TABLES.slice(0, inComment) + "x" + TABLES.slice(inComment);
    const spliced = spliceSyntaxTree(base, commented, { start: inComment, oldEnd: inComment, newEnd: inComment + 1 })!;
    assert.deepStrictEqual(dump(spliced), dump(fresh(commented)));
    assert.deepStrictEqual(spliced.comments.map((c) => commented.slice(c.start, c.end)), fresh(commented).comments.map((c) => commented.slice(c.start, c.end)));
    const after = entriesOf(spliced.root.children[1]);
    assert.notStrictEqual(after[0], pairs[0], "the entry before the comment is parsed again");
    assert.notStrictEqual(after[1], pairs[1], "the entry after the comment is parsed again");
    assert.strictEqual(after[2], pairs[2], "the next entry is kept");
    assert.strictEqual(spliced.root.children[2], base.root.children[2], "the next statement is kept");

    // An `x` typed into the indentation before the third entry: a provisional tree with the problem between the
    // two entries; deleting it gives back a fresh parse's tree, the first entry kept throughout.
    const base2 = fresh(TABLES);
    const pairs2 = entriesOf(base2.root.children[1]);
    const indentation = TABLES.indexOf("    **extra_cfgs") + 2;
    const broken = TABLES.slice(0, indentation) + "x" + TABLES.slice(indentation);
    const provisional = spliceSyntaxTree(base2, broken, { start: indentation, oldEnd: indentation, newEnd: indentation + 1 })!;
    assert.ok(provisional.problems.length > 0);
    assert.ok(provisional.problems.every((p) => p.offset > pairs2[1].start && p.offset < pairs2[2].end + 1), JSON.stringify(provisional.problems));
    assert.strictEqual(entriesOf(provisional.root.children[1])[0], pairs2[0], "the first entry is kept");
    const repaired = spliceSyntaxTree(provisional, TABLES, { start: indentation, oldEnd: indentation + 1, newEnd: indentation })!;
    assert.deepStrictEqual(dump(repaired), dump(fresh(TABLES)));
    assert.strictEqual(repaired.problems.length, 0);
    assert.strictEqual(entriesOf(repaired.root.children[1])[0], pairs2[0], "the first entry is kept");

    // Deleting the comma between two arguments joins them (`pretrained=True * args`): one argument where there
    // were two, still a fresh parse's tree; typing it again splits them.
    const comma = TABLES.indexOf("pretrained=True,") + "pretrained=True".length;
    const joined = TABLES.slice(0, comma) + TABLES.slice(comma + 1);
    const base3 = fresh(TABLES);
    const argumentsOf = (statement: SyntaxNode) => statement.children[0].children[1].children[1].children;
    const before = argumentsOf(base3.root.children[2]);
    const spliced3 = spliceSyntaxTree(base3, joined, { start: comma, oldEnd: comma + 1, newEnd: comma })!;
    assert.deepStrictEqual(dump(spliced3), dump(fresh(joined)));
    assert.strictEqual(argumentsOf(spliced3.root.children[2]).length, before.length - 1);
    assert.strictEqual(argumentsOf(spliced3.root.children[2])[0], before[0], "the first argument is kept");
    const split = spliceSyntaxTree(spliced3, TABLES, { start: comma, oldEnd: comma, newEnd: comma + 1 })!;
    assert.deepStrictEqual(dump(split), dump(fresh(TABLES)));
    assert.strictEqual(split.root.children[1], base3.root.children[1], "the table statement is kept");
  });

  it("re-parses alone an entry that no longer parses: a provisional tree, and the next keystroke gives a fresh parse's", () => {
    // A splice consumes the tree it is given (kept nodes move): each case starts from a fresh parse.
    const base = fresh(TABLES);
    const pairs = entriesOf(base.root.children[1]);
    const at = TABLES.indexOf("hf_hub_id='timm/', num") + "hf_hub_id='timm/'".length;
    const broken = TABLES.slice(0, at) + "x" + TABLES.slice(at);
    const provisional = spliceSyntaxTree(base, broken, { start: at, oldEnd: at, newEnd: at + 1 })!;
    assert.ok(provisional.problems.length > 0, "the tree has the entry's problem");
    assert.ok(provisional.problems.every((p) => p.offset > pairs[1].start && p.offset < pairs[2].start), "inside the edited entry");
    assert.strictEqual(entriesOf(provisional.root.children[1])[2], pairs[2], "the next entry is kept");
    const repaired = spliceSyntaxTree(provisional, TABLES, { start: at, oldEnd: at + 1, newEnd: at })!;
    assert.deepStrictEqual(dump(repaired), dump(fresh(TABLES)));
    assert.strictEqual(entriesOf(repaired.root.children[1])[0], pairs[0]);
    // An edit that closes the dictionary early is no entry's: the statement is parsed again as a whole.
    const closing = TABLES.indexOf("custom_load=True") + 3;
    const closed = TABLES.slice(0, closing) + "})" + TABLES.slice(closing);
    const whole = spliceSyntaxTree(fresh(TABLES), closed, { start: closing, oldEnd: closing, newEnd: closing + 2 })!;
    assert.ok(whole.problems.length > 0);
    assert.ok(!entriesOf(whole.root.children[1]).includes(pairs[2]), "no entry kept");
  });

  it("a region with errors is only provisional: the tree the server settles on equals a fresh parse (was known bug 4)", () => {
    // Found by the fuzz run (seed 424242) when the server re-parsed with tree-sitter's incremental parse.
    const text = 'for step, (x, y) in enumerate(loader):\n    pass\nloss = loss\nloss = (v for v in x if v)\n.add_scalar("loss", loss, step)\nfor step, (x, y) in enumerate(loader):\n  else:\n    pass\nloss = loss';
    const document = new OpenDocument("file:///tmp/bug4.py", 1, text);
    void document.syntax;
    document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } }, text: "" }], 2, "utf-16");
    assert.strictEqual(document.text, text.slice(text.indexOf("loss = loss")));
    const spliced = document.syntax;
    if (spliced.problems.length === 0) assert.deepStrictEqual(dump(spliced), dump(fresh(document.text)));
    else assert.ok(document.provisionalTree);
    document.reparseAfresh();
    assert.deepStrictEqual(dump(document.syntax), dump(fresh(document.text)));
  });

  it("a region where a line break is missing between two statements is not clean (found by fuzzing)", () => {
    // `x.item()orch` alone parses as two statements with a hidden MISSING line break; in the file, `orch` is an ERROR.
    const before = fresh(".item()orch\nif loss: pass");
    const text = "x.item()orch\nif loss: pass";
    const spliced = spliceSyntaxTree(before, text, { start: 0, oldEnd: 0, newEnd: 1 });
    assert.ok(fresh(text).problems.length > 0);
    assert.ok(!spliced || spliced.problems.length > 0, "a region with a missing line break must not count as clean");
  });

  it("a missing half of a two-word operator (`not in`) is a located problem, the same in a splice and a fresh parse (found by fuzzing)", () => {
    // `ssert not x` parses as `ssert not in x` with the `in` missing inside the one `not in` token.
    const text = "\n\n\nimport torch\nssert not x";
    assert.deepStrictEqual(fresh(text).problems, [{ offset: text.length - 2, kind: "in" }]);
    assert.deepStrictEqual(fresh("y = a is b").problems, []);
    const before = "import torch\nssert not x";
    const spliced = spliceSyntaxTree(fresh(before), text, { start: 0, oldEnd: 0, newEnd: 3 });
    if (spliced) assert.deepStrictEqual(dump(spliced), dump(fresh(text)));
  });

  it("never cuts the region after a backslash that joins two lines", () => {
    // Found by fuzzing: `xx\` + newline + `loss.backward()` is one logical line, an error as a whole.
    const text = "xx\\\nloss.backward()x";
    const spliced = spliceSyntaxTree(fresh("x\\\nloss.backward()x"), text, { start: 0, oldEnd: 0, newEnd: 1 });
    assert.ok(fresh(text).problems.length > 0);
    assert.ok(!spliced || spliced.problems.length > 0, "the region must not end at the joined line");
    const joined = "total = 1 + \\\n2\ny = 3\n";
    const edited = joined.replace("2", "22");
    const again = spliceSyntaxTree(fresh(joined), edited, { start: joined.indexOf("2"), oldEnd: joined.indexOf("2"), newEnd: joined.indexOf("2") + 1 });
    if (again) assert.deepStrictEqual(dump(again), dump(fresh(edited)));
  });
});
