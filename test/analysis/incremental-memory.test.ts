/**
 * A long editing session holds what its document needs, not what every keystroke computed: the linter and the
 * syntax tree kept across edits (as the server keeps them) must not keep each edit's text and analysis alive
 * through the caches on statements that the edits did not touch.
 */
import * as assert from "assert";
import * as v8 from "v8";
import * as vm from "vm";
import { IncrementalLinter, initParser, parseSyntaxTree, resolveConfig, spliceSyntaxTree } from "synclint-rules";
import type { SyntaxTree } from "synclint-rules";

const MB = 1024 * 1024;

/**
 * 2,000 lines: training functions with comments and long names, and classes of such methods. Each keystroke
 * re-lints one statement; the comments and the long names are where older texts and trees could be kept.
 */
function trainingFile(): string {
  const lines = ["import torch", "", "# Training helpers.", ""];
  const body = (indent: string) => [
    `${indent}    # one pass over the loader`,
    `${indent}    for step, (inputs, targets) in enumerate(training_loader):`,
    `${indent}        loss = model(inputs.cuda(non_blocking=True)).mean()  # forward`,
    `${indent}        loss.backward()`,
    `${indent}        if step % 100 == 0:`,
    `${indent}            print(loss.item())`,
  ];
  for (let n = 0; lines.length < 2000; n++) {
    if (n % 5 === 0) {
      lines.push(`class Trainer${n}:`, "    # Methods of one trainer.");
      for (let m = 0; m < 4; m++) lines.push(`    def train_epoch_number_${m}(self, model, training_loader):`, ...body("    "), "");
    } else {
      lines.push(`def train_one_epoch_${n}(model, training_loader, optimizer):`, ...body(""), "");
    }
  }
  return lines.join("\n") + "\n";
}

describe("incremental linting: memory over a long editing session", function () {
  this.timeout(120000);
  before(async () => {
    await initParser();
  });

  it("keeps the heap flat from the 150th keystroke to the 450th (a character typed and deleted again, at seeded places)", () => {
    v8.setFlagsFromString("--expose-gc");
    const collect = vm.runInNewContext("gc") as () => void;
    const options = { config: resolveConfig({}, "/proj"), filePath: "/proj/train.py" };
    let text = trainingFile();
    let syntax: SyntaxTree = parseSyntaxTree(text);
    const linter = new IncrementalLinter();
    linter.lint(text, syntax, options);
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let place = 0;
    const heapAfter: number[] = [];
    for (let edit = 1; edit <= 450; edit++) {
      // Inside a function's body (not in `import torch`, which re-lints the whole file by design).
      if (edit % 2 === 1) place = 20 + Math.floor(random() * (text.length - 20));
      const [start, oldEnd, inserted] = edit % 2 === 1 ? [place, place, "x"] : [place, place + 1, ""];
      text = text.slice(0, start) + inserted + text.slice(oldEnd);
      syntax = spliceSyntaxTree(syntax, text, { start, oldEnd, newEnd: start + inserted.length }) ?? parseSyntaxTree(text);
      linter.lint(text, syntax, options);
      // By the 150th the caches of the statements edited so far have filled: the heap then varies by about 1 MB.
      if (edit === 150 || edit === 450) {
        collect();
        heapAfter.push(v8.getHeapStatistics().used_heap_size);
      }
    }
    const grown = (heapAfter[1] - heapAfter[0]) / MB;
    // Each keystroke used to keep its text and module scope alive through the function scopes cached on the
    // statements it did not touch, its text through the long names cached on them, and older copies of the
    // statements it re-parsed through the comments' parents: 100 KB a keystroke in this file, without end.
    assert.ok(grown < 4, `the heap grew by ${grown.toFixed(1)} MB over 300 keystrokes`);
  });
});
