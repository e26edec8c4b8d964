import * as assert from "assert";
import fc from "fast-check";
import { initParser, parsePython, walkTree } from "synclint-rules";
import { WALK_SAMPLES, treeWalkKind } from "synclint-rules/out/parser";
import { checkTreeWalk } from "../hardening/properties";

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
  // Aliased nodes (`as_pattern_target`, `dotted_name` as a module's name), fields through hidden nodes.
  "import a.b as c\nfrom . import (d as e)\n",
  "with g() as (h, i):\n    pass\n",
  "try:\n    pass\nexcept (E, F) as err:\n    raise\n",
  "match v:\n    case [1, *rest] if rest: pass\n    case {'k': q} as w: pass\n",
  "@dec\nasync def h(*a, b: int = 1, **k) -> None:\n    s = f'{x!r:>{w}}' + b'\\x00'\n",
  "z = x.item()y\n",
  "print(j\n",
];

describe("walkTree: the walk in the runtime's memory reads what web-tree-sitter's TreeCursor reads", () => {
  before(() => initParser());

  it("visits the same nodes with the same types, ranges, fields and MISSING flags on random programs", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }), fc.nat(40), (pieces, nesting) => {
        // Deep nesting makes deep stacks of entries.
        const text = pieces.join("") + "z = " + "(".repeat(nesting) + "1" + ")".repeat(nesting) + "\n";
        checkTreeWalk(text);
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });

  it("reads the tree in memory (the layout check at initialisation passed), not through the slower cursor", () => {
    assert.strictEqual(treeWalkKind(), "memory", "walkTree fell back to TreeCursor: the runtime's layout no longer matches what MemoryWalk reads");
    assert.strictEqual(walkTree(parsePython("x = 1\n")).constructor.name, "MemoryWalk");
  });

  it("reads MISSING tokens as the cursor does, kept inline and on the heap (after 200 spaces of padding)", () => {
    for (const text of WALK_SAMPLES.slice(1)) assert.ok(checkTreeWalk(text).some((entry) => entry.endsWith(" missing")), text);
  });

  it("reads an ERROR with hundreds of children as the cursor does", () => {
    // One ERROR with hundreds of children: `)` closes nothing.
    const text = "x = f(" + Array.from({ length: 400 }, (_, i) => `a${i}`).join(" ") + ")) = 1\n";
    assert.ok(checkTreeWalk(text).length > 400);
  });

  it("reads a deep tree as the cursor does", () => {
    const text = "x = " + "[".repeat(300) + "]".repeat(300) + "\n";
    assert.ok(checkTreeWalk(text).length > 300);
  });
});
