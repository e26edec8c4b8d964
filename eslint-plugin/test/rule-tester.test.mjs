/** ESLint's RuleTester, configured with the plugin's language, on every rule; and the SourceCode/Language pieces. */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { ESLint, RuleTester } from "eslint";
import plugin from "../index.js";
import { engine } from "../lib/engine.js";
import { pythonLanguage } from "../lib/language.js";

const HEAD = "import torch\n\n\ndef train(model, loader, optimizer, device):\n    for step, (batch, mask) in enumerate(loader):\n        loss = model(batch).mean()\n        loss.backward()\n        optimizer.step()\n";
/** A training loop whose step loop starts at line 5; `body` lines are indented into it from line 9 on. */
const loop = (...body) => HEAD + body.map((line) => `        ${line}\n`).join("");
const py = (code) => ({ code, filename: "train.py" });
const synclint = createRequire(import.meta.url)("synclint-rules");

function applyFix(text, fix) {
  const edits = [...fix.edits].sort((a, b) => b.start - a.start);
  for (const edit of edits) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

/**
 * What RuleTester must see once the engine offers fixes: `output` (one pass of the rule's first safe fixes,
 * or null: no fix) and, per error, the unsafe fixes as suggestions (none: `[]`).
 */
function withFixes(name, item) {
  const findings = synclint.lintSource(item.code, { filePath: "train.py", config: synclint.resolveConfig({}, process.cwd()) }).findings.filter((f) => f.rule === name);
  assert.equal(findings.length, item.errors.length, `${name}: the engine reports ${findings.length} findings`);
  // ESLint applies fixes in order of their (merged) range, skipping one that touches or overlaps the previous.
  const safe = findings
    .map((f) => (f.fixes ?? []).find((fix) => fix.safe))
    .filter(Boolean)
    .map((fix) => ({ fix, start: Math.min(...fix.edits.map((e) => e.start)), end: Math.max(...fix.edits.map((e) => e.end)) }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const chosen = [];
  let last = -Infinity;
  for (const entry of safe) {
    if (last >= entry.start) continue;
    chosen.push(entry.fix);
    last = entry.end;
  }
  const output = applyFix(item.code, { edits: chosen.flatMap((fix) => fix.edits) });
  const errors = item.errors.map((error, index) => ({
    ...error,
    suggestions: (findings[index].fixes ?? []).filter((fix) => !fix.safe).map((fix) => ({ desc: fix.title, output: applyFix(item.code, fix) })),
  }));
  return { ...py(item.code), output: chosen.length > 0 ? output : null, errors };
}
const err = (line, column, message) => ({ line, column, message });

const cases = {
  "item-in-hot-path": {
    valid: [loop("if step % 100 == 0:", "    print(loss.item())"), loop("value = loss.detach()"), loop("print(loss)"), "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    return x.sum().item()\n"],
    invalid: [{ code: loop("value = loss.item()"), errors: [err(9, 22, /^`loss\.item\(\)` in the step loop of `train\(\)` \(line 5\) waits for the GPU every step\.$/)] }],
  },
  "host-transfer-in-hot-path": {
    valid: [loop("host = loss.detach()"), "import torch\n\n\ndef f(x: torch.Tensor):\n    return x.cpu()\n"],
    invalid: [{ code: loop("host = loss.cpu()"), errors: [err(9, 21, /copies a GPU tensor to host memory/)] }],
  },
  "implicit-host-read": {
    valid: [loop("if step > 10:", "    break")],
    invalid: [{ code: loop("if loss > 10:", "    break"), errors: [err(9, 12, /reads the GPU tensor `loss > 10` as a Python bool/)] }],
  },
  "tensor-formatting": {
    valid: [loop("print(step)")],
    invalid: [{ code: loop("print(loss)"), errors: [err(9, 15, /formats a GPU tensor as text/)] }],
  },
  "data-dependent-shape": {
    valid: [loop("kept = torch.where(mask.to(device, non_blocking=True), loss, 0).sum()")],
    invalid: [{ code: loop("idx = torch.nonzero(mask.to(device, non_blocking=True))"), errors: [err(9, 15, /output size that depends on GPU data/)] }],
  },
  "explicit-synchronize": {
    valid: ["import torch\n\n\ndef setup():\n    torch.cuda.synchronize()\n"],
    invalid: [{ code: loop("torch.cuda.synchronize()"), errors: [err(9, 9, /blocks until every stream on the device is idle/)] }],
  },
  "blocking-host-to-device": {
    valid: [loop("batch = batch.to(device, non_blocking=True)")],
    invalid: [{ code: loop("batch = batch.to(device)"), errors: [err(9, 23, /pass `non_blocking=True`/)] }],
  },
  "dataloader-pin-memory": {
    valid: ["from torch.utils.data import DataLoader\n\n\ndef run(ds, device):\n    loader = DataLoader(ds, pin_memory=True)\n    for x in loader:\n        x = x.to(device, non_blocking=True)\n"],
    invalid: [{ code: "from torch.utils.data import DataLoader\n\n\ndef run(ds, device):\n    loader = DataLoader(ds)\n    for x in loader:\n        x = x.to(device, non_blocking=True)\n", errors: [err(5, 14, /^`DataLoader` without `pin_memory=True`: its batches are moved to the GPU at line 7/)] }],
  },
  "host-index": {
    valid: [loop("first = loss[torch.zeros(1, dtype=torch.long, device=device)]")],
    invalid: [{ code: loop("first = loss[[0, 2]]"), errors: [err(9, 17, /indexes a GPU tensor with a Python list, which is copied to the GPU with a blocking copy first/)] }],
  },
  "sync-in-compiled-region": {
    valid: [loop("value = loss.item()"), "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    return torch.where(x.norm() > 1, x / x.norm(), x)\n"],
    invalid: [{ code: "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    return x.sum().item()\n", errors: [err(6, 20, /^`x\.sum\(\)\.item\(\)` \(item-in-hot-path\) in the compiled function `f\(\)` is a graph break/)] }],
  },
};

describe("eslint-plugin-synclint: RuleTester", function () {
  this.timeout(60000);
  const ruleTester = new RuleTester({ plugins: { synclint: plugin }, language: "synclint/python" });

  it("has a case for every rule", () => {
    assert.deepEqual(Object.keys(cases).sort(), Object.keys(plugin.rules).sort());
  });

  for (const [name, { valid, invalid }] of Object.entries(cases)) {
    describe(name, () => {
      ruleTester.run(name, plugin.rules[name], {
        valid: valid.map(py),
        invalid: invalid.map((item) => withFixes(name, item)),
      });
    });
  }
});

describe("eslint-plugin-synclint: rule metadata", () => {
  it("is generated from synclint's rule metadata", () => {
    const rule = plugin.rules["item-in-hot-path"];
    assert.equal(rule.meta.type, "suggestion");
    assert.equal(plugin.rules["sync-in-compiled-region"].meta.type, "problem");
    assert.match(rule.meta.docs.description, /`\.item\(\)`/);
    assert.match(rule.meta.docs.url, /docs\/rules\.md#syn101-item-in-hot-path$/);
    assert.equal(rule.meta.fixable, "code");
    assert.equal(rule.meta.hasSuggestions, true);
    assert.match(rule.meta.messages.item, /\{\{expression\}\}\.item\(\)/);
  });

  it("configs mirror synclint's presets", () => {
    for (const [name, config] of Object.entries(plugin.configs)) {
      assert.deepEqual(config.files, ["**/*.py"]);
      assert.equal(config.language, "synclint/python");
      assert.equal(config.plugins.synclint, plugin);
      assert.equal(Object.keys(config.rules).length, 10, name);
    }
    assert.equal(plugin.configs.recommended.rules["synclint/sync-in-compiled-region"], "error");
    assert.equal(plugin.configs.recommended.rules["synclint/item-in-hot-path"], "warn");
    assert.deepEqual(plugin.configs.strict.languageOptions, { preset: "strict" });
    assert.equal(plugin.meta.namespace, "synclint");
  });
});

describe("eslint-plugin-synclint: languages.python", () => {
  const parse = (text) => pythonLanguage.parse({ body: text, path: "x.py", physicalPath: "x.py", bom: false }, { languageOptions: {} });

  it("parses synchronously and builds a SourceCode over the synclint tree", () => {
    const text = "# header\r\nimport torch\r\n\r\nx = torch.ones(2)\r\n";
    const result = parse(text);
    assert.equal(result.ok, true);
    const sourceCode = pythonLanguage.createSourceCode({ body: text }, result, { languageOptions: {} });
    assert.equal(sourceCode.ast.type, "module");
    assert.deepEqual(sourceCode.lines, ["# header", "import torch", "", "x = torch.ones(2)", ""]);
    assert.deepEqual(sourceCode.getRange(sourceCode.ast), [0, text.length]);
    assert.deepEqual(sourceCode.getLoc(sourceCode.ast).start, { line: 1, column: 1 });
    const steps = [...sourceCode.traverse()];
    assert.equal(steps[0].target, sourceCode.ast);
    assert.equal(steps.at(-1).target, sourceCode.ast);
    assert.equal(steps.filter((step) => step.phase === 1).length, steps.filter((step) => step.phase === 2).length);
    const call = steps.find((step) => step.phase === 1 && step.target.type === "call").target;
    assert.deepEqual(sourceCode.getLoc(call), { start: { line: 4, column: 5 }, end: { line: 4, column: 18 } });
    assert.equal(sourceCode.getText(call), "torch.ones(2)");
    assert.equal(sourceCode.getParent(call).type, "assignment");
    assert.deepEqual(sourceCode.getAncestors(call).map((node) => node.type), ["module", "expression_statement", "assignment"]);
    assert.deepEqual(sourceCode.getLocFromIndex(text.indexOf("torch.ones")), { line: 4, column: 5 });
  });

  it("returns { ok: false } with a 1-based location for a syntax error", () => {
    const result = parse("x = 1\ny = (\n");
    assert.equal(result.ok, false);
    assert.equal(result.errors.length, 1);
    assert.match(result.errors[0].message, /near/);
    assert.ok(result.errors[0].line >= 1 && result.errors[0].column >= 1);
  });

  it("reads eslint directives from # comments only", () => {
    const text = 'import torch\n# eslint-disable-next-line synclint/item-in-hot-path -- why\nx = "# eslint-disable"\n# eslint-disable\n# eslint-enable synclint/a, synclint/b\n# eslint-disable-line\n';
    const sourceCode = pythonLanguage.createSourceCode({ body: text }, parse(text), { languageOptions: {} });
    const { directives, problems } = sourceCode.getDisableDirectives();
    assert.deepEqual(problems, []);
    assert.deepEqual(directives.map((d) => [d.type, d.value, d.justification]), [
      ["disable-next-line", "synclint/item-in-hot-path", "why"],
      ["disable", "", ""],
      ["enable", "synclint/a, synclint/b", ""],
      ["disable-line", "", ""],
    ]);
  });

  it("validates language options", () => {
    pythonLanguage.validateLanguageOptions({});
    pythonLanguage.validateLanguageOptions({ preset: "strict", extraStepFunctions: ["fit"], useConfigFile: false });
    assert.throws(() => pythonLanguage.validateLanguageOptions({ preset: "all" }), /preset/);
    assert.throws(() => pythonLanguage.validateLanguageOptions({ ecmaVersion: 2022 }), /Unexpected key "ecmaVersion"/);
    assert.throws(() => pythonLanguage.validateLanguageOptions({ extraStepFunctions: "fit" }), /extraStepFunctions/);
  });

  it("languageOptions.extraStepFunctions makes a function a hot path", async () => {
    const code = "import torch\n\n\ndef fit_batch(model, batch):\n    loss = model(batch).mean()\n    return loss.item()\n";
    const lint = async (languageOptions) => {
      const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [plugin.configs.recommended, { files: ["**/*.py"], languageOptions }] });
      const [result] = await eslint.lintText(code, { filePath: "model.py" });
      return result.messages.map((m) => m.ruleId);
    };
    assert.deepEqual(await lint({}), []);
    assert.deepEqual(await lint({ extraStepFunctions: ["fit_batch"] }), ["synclint/item-in-hot-path"]);
  });
});

describe("eslint-plugin-synclint: fixes", () => {
  // The engine's safe fixes are ESLint's `fix` (applied by --fix); its suggestions are ESLint suggestions.
  it("maps safe fixes to `fix` and suggestions to `suggest`, exactly as synclint offers them", async () => {
    const code = [
      "import torch",
      "from torch.utils.data import DataLoader",
      "",
      "",
      "def train(model, dataset, optimizer, device):",
      "    running_loss = 0.0",
      "    loader = DataLoader(dataset, batch_size=32, pin_memory=True)",
      "    for x, y in loader:",
      "        x = x.to(device)",
      "        loss = model(x, y.to(device, non_blocking=True)).mean()",
      "        loss.backward()",
      "        optimizer.step()",
      "        running_loss += loss.item()",
      "    return running_loss",
      "",
    ].join("\n");
    const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [plugin.configs.recommended], fix: true });
    const [result] = await eslint.lintText(code, { filePath: "train.py" });
    assert.equal(result.output, code.replace("x = x.to(device)", "x = x.to(device, non_blocking=True)"));
    assert.deepEqual(result.messages.map((m) => m.ruleId), ["synclint/item-in-hot-path"]);
    const [suggestion] = result.messages[0].suggestions;
    assert.match(suggestion.desc, /running_loss/);
    assert.ok(suggestion.fix.text.includes("loss.detach()"), suggestion.fix.text);
  });
});
