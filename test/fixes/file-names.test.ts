/**
 * The names of a file that fixes ask about (bound, used, declared `global` anywhere) are kept across edits and
 * brought up to date from the statements an edit replaced: after any sequence of spliced edits they must be
 * those of a fresh parse of the same text.
 */
import * as assert from "assert";
import fc from "fast-check";
import { initParser, parseSyntaxTree, spliceSyntaxTree } from "synclint-rules";
import type { SyntaxNode, SyntaxTree } from "synclint-rules";
import { boundInFile, declaredShared, usedInFile } from "synclint-rules/out/fixes/facts";

const FILE = [
  "import torch",
  "",
  "total = 0",
  "",
  "def step(batch):",
  "    global total",
  "    loss = batch.sum()",
  "    total += loss.item()",
  "    return loss",
  "",
  "def train(loader):",
  "    for i, batch in enumerate(loader):",
  "        step(batch)",
  "",
  "class Logger:",
  "    def log(self, value):",
  "        print(value)",
  "",
].join("\n");

const NAMES = ["torch", "total", "step", "batch", "loss", "train", "loader", "i", "enumerate", "Logger", "log", "self", "value", "print", "x", "y", "count"];
const SNIPPETS = ["x", "y = 1\n", "global count\n", "count += 1\n", "del total\n", "\n", "    ", "(", "#", "def f(y):\n    return y\n", "i"];

function answers(root: SyntaxNode, text: string): string[] {
  return NAMES.map((name) => `${name}:${boundInFile(root, name, text)}:${usedInFile(root, name, text)}:${declaredShared(root, name, text)}`);
}

describe("names of the file, kept across edits", () => {
  before(() => initParser());

  it("equal those of a fresh parse after every spliced edit", () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...SNIPPETS)), { minLength: 1, maxLength: 10 }), (edits) => {
        let text = FILE;
        let syntax: SyntaxTree = parseSyntaxTree(text);
        answers(syntax.root, text);
        for (const [at, length, inserted] of edits) {
          const start = at % (text.length + 1);
          const oldEnd = Math.min(text.length, start + length);
          const next = text.slice(0, start) + inserted + text.slice(oldEnd);
          syntax = spliceSyntaxTree(syntax, next, { start, oldEnd, newEnd: start + inserted.length }) ?? parseSyntaxTree(next);
          text = next;
          const fresh = parseSyntaxTree(text);
          // Asked of the spliced tree first (brought up to date from the last tree), then of a fresh parse, then of
          // the spliced tree again (joined from all its statements: the last tree asked about is another one).
          const updated = answers(syntax.root, text);
          const freshAnswers = answers(fresh.root, text);
          assert.deepStrictEqual(updated, answers(syntax.root, text), JSON.stringify(text));
          // A tree spliced from a region with errors may differ from a fresh parse (the server settles on the latter).
          if (syntax.problems.length === 0) assert.deepStrictEqual(updated, freshAnswers, JSON.stringify(text));
          compared++;
        }
      }),
      { numRuns: 400, seed: 20261130 },
    );
    assert.ok(compared > 1000, `compared ${compared}`);
  });

  it("a `global` added in one statement and removed again", () => {
    let text = FILE;
    let syntax = parseSyntaxTree(text);
    assert.strictEqual(declaredShared(syntax.root, "count", text), false);
    const at = text.indexOf("    print(value)");
    const edit = (start: number, oldEnd: number, inserted: string) => {
      const next = text.slice(0, start) + inserted + text.slice(oldEnd);
      syntax = spliceSyntaxTree(syntax, next, { start, oldEnd, newEnd: start + inserted.length }) ?? parseSyntaxTree(next);
      text = next;
    };
    edit(at, at, "        global count\n");
    assert.strictEqual(declaredShared(syntax.root, "count", text), true);
    assert.strictEqual(boundInFile(syntax.root, "count", text), false);
    edit(at, at + "        global count\n".length, "");
    assert.strictEqual(declaredShared(syntax.root, "count", text), false);
    assert.strictEqual(declaredShared(syntax.root, "total", text), true, "the other statement's `global total` stays");
  });
});
