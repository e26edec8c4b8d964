import * as assert from "assert";
import fc from "fast-check";
import { initParser, parsePython, buildSyntaxTree, updateSyntaxTree } from "synclint-rules";
import type { SyntaxNode, SyntaxTree, Tree } from "synclint-rules";

/** A structural dump of a syntax tree: every node's type, range, field and tokens, plus comments and problems. */
function dump(tree: SyntaxTree): unknown {
  const node = (n: SyntaxNode): unknown => [n.type, n.start, n.end, n.field, n.tokens.join(" "), n.children.map(node), n.children.every((c) => c.parent === n)];
  return { root: node(tree.root), comments: tree.comments.map((c) => [c.start, c.end]), problems: tree.problems };
}

function point(text: string, offset: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

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
  "",
].join("\n");

const SNIPPETS = ["x", " ", "\n", "(", ")", ":", "\"", "#", "loss.item()", "\n    y = 1\n", "def f():\n    pass\n", "\t", "😀", "if a:\n", "\r\n", "\r"];

describe("incremental syntax tree", () => {
  before(() => initParser());

  it("equals a fresh copy of the tree after any sequence of edits", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.nat(8), fc.constantFrom(...SNIPPETS)), { minLength: 1, maxLength: 12 }),
        (edits) => {
          let text = BASE;
          let tree: Tree = parsePython(text);
          let syntax = buildSyntaxTree(tree);
          try {
            for (const [at, length, inserted] of edits) {
              const start = at % (text.length + 1);
              const oldEnd = Math.min(text.length, start + length);
              const next = text.slice(0, start) + inserted + text.slice(oldEnd);
              const newEnd = start + inserted.length;
              tree.edit({
                startIndex: start,
                oldEndIndex: oldEnd,
                newEndIndex: newEnd,
                startPosition: point(text, start),
                oldEndPosition: point(text, oldEnd),
                newEndPosition: point(next, newEnd),
              });
              const fresh = parsePython(next, tree);
              let dirtyStart = start;
              let dirtyEnd = newEnd;
              for (const range of fresh.getChangedRanges(tree)) {
                dirtyStart = Math.min(dirtyStart, range.startIndex);
                dirtyEnd = Math.max(dirtyEnd, range.endIndex);
              }
              tree.delete();
              tree = fresh;
              syntax = updateSyntaxTree(tree, syntax, { start: dirtyStart, end: dirtyEnd, delta: newEnd - oldEnd });
              text = next;
              const reference = parsePython(text);
              try {
                assert.deepStrictEqual(dump(syntax), dump(buildSyntaxTree(reference)));
              } finally {
                reference.delete();
              }
            }
          } finally {
            tree.delete();
          }
        },
      ),
      { numRuns: 150, seed: 20261129 },
    );
  });
});
