import * as assert from "assert";
import fc from "fast-check";
import { initParser, parsePython, walkTree } from "synclint-rules";
import type { Tree } from "synclint-rules";

type Walk = ReturnType<typeof walkTree>;

/** Every node the cursor visits, in order, with what the syntax copy reads of it. */
function visit(cursor: Walk | ReturnType<Tree["walk"]>): string[] {
  const seen: string[] = [];
  const record = () => seen.push(`${cursor.nodeTypeId} ${cursor.startIndex}-${cursor.endIndex} f${cursor.currentFieldId}${cursor.nodeIsMissing ? " missing" : ""}`);
  record();
  let depth = 0;
  for (;;) {
    if (cursor.gotoFirstChild()) {
      depth++;
      record();
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (depth === 0 || !cursor.gotoParent()) return seen;
      depth--;
    }
    if (depth === 0) return seen;
    record();
  }
}

const PIECES = [
  "import torch\n",
  "def f(x):\n    return x.item()\n",
  "for i, (a, b) in enumerate(loader):\n    loss = (a - b) ** 2\n    if i % 10 == 0: print(f'{loss}')\n",
  "class M(nn.Module):\n    def forward(self, x):\n        return x[x > 0].sum()  # comment\n",
  "x = [1, 2,\n",
  "def broken(:\n",
  "y = 'é😀' + \"\\u00e9\"\n",
  "while not done and x.any():\n\tpass\n",
  "lambda: (yield)\n",
  "a[b:c, ...] = {k: v for k, v in d.items() if k}\n",
];

describe("walkTree: the fast cursor reads what web-tree-sitter's TreeCursor reads", () => {
  before(() => initParser());

  it("visits the same nodes with the same types, ranges, fields and MISSING flags on random programs", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }), fc.nat(40), (pieces, nesting) => {
        // Deep nesting grows (and reallocates) the cursor's stack during the walk.
        const text = pieces.join("") + "z = " + "(".repeat(nesting) + "1" + ")".repeat(nesting) + "\n";
        const tree = parsePython(text);
        try {
          const slow = tree.walk();
          const expected = visit(slow);
          slow.delete();
          const fast = walkTree(tree);
          const actual = visit(fast);
          fast.delete();
          fast.delete(); // deleting twice is harmless
          assert.deepStrictEqual(actual, expected);
        } finally {
          tree.delete();
        }
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });

  it("uses the runtime's own cursor functions (not the slower fallback)", () => {
    const tree = parsePython("x = 1\n");
    const cursor = walkTree(tree);
    try {
      assert.strictEqual(cursor.constructor.name, "Object", "walkTree fell back to TreeCursor: the runtime no longer exports its cursor functions");
    } finally {
      cursor.delete();
      tree.delete();
    }
  });

  it("survives a deep tree (the cursor's stack is reallocated while walking) and frees it", () => {
    const text = "x = " + "[".repeat(300) + "]".repeat(300) + "\n";
    for (let round = 0; round < 20; round++) {
      const tree = parsePython(text);
      const cursor = walkTree(tree);
      assert.ok(visit(cursor).length > 300);
      cursor.delete();
      tree.delete();
    }
  });
});
