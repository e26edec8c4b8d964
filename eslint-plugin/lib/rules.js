/**
 * Every synclint rule as an ESLint rule. The engine runs once per file (the first rule to ask runs it; the
 * others read the cached result, keyed by the SourceCode object) and each ESLint rule reports the findings
 * that carry its name. Rule logic stays in the engine.
 */
import * as path from "node:path";
import { ConfigResolver, engine, isExcluded, resolveConfig, ruleDocsUrl, synclintRules } from "./engine.js";

/** @type {WeakMap<object, {findings: object[], problems: object[]}>} */
const results = new WeakMap();

function lintOnce(context) {
  const sourceCode = context.sourceCode;
  let result = results.get(sourceCode);
  if (result) return result;
  const options = sourceCode.languageOptions ?? {};
  const filename = context.physicalFilename ?? context.filename;
  const absolute = path.isAbsolute(filename) ? filename : path.resolve(context.cwd, filename);
  const overrides = options.preset ? { preset: options.preset } : {};
  const config = options.useConfigFile === false ? resolveConfig({}, context.cwd, overrides) : new ConfigResolver(overrides, undefined, context.cwd).forFile(absolute);
  if (options.extraStepFunctions?.length) config.extraStepFunctions = [...config.extraStepFunctions, ...options.extraStepFunctions];
  // The engine treats `tests/`, `test_*.py`, ... as run-once code; give it the path as the CLI sees it
  // (relative to the working directory) so that a parent folder named `test` does not count.
  const relative = path.relative(process.cwd(), absolute);
  const filePath = relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : absolute;
  if (isExcluded(absolute, config)) {
    result = { findings: [], problems: [] };
    results.set(sourceCode, result);
    return result;
  }
  const { findings, problems } = engine.lint(sourceCode.text, sourceCode.syntax, { filePath, config });
  result = { findings, problems };
  results.set(sourceCode, result);
  return result;
}

function editsFix(fix) {
  return (fixer) => fix.edits.map((edit) => fixer.replaceTextRange([edit.start, edit.end], edit.text));
}

function createRule(rule) {
  const meta = rule.meta;
  const name = meta.name;
  // Until rule metadata says which rules fix, every rule may: a report with `fix` from a rule without
  // `meta.fixable` is an error in ESLint.
  const fixable = meta.fixable !== false;
  const hasSuggestions = meta.hasSuggestions !== false;
  return {
    meta: {
      type: meta.defaultSeverity === "error" ? "problem" : "suggestion",
      docs: {
        description: meta.description,
        url: ruleDocsUrl(meta),
        recommended: true,
      },
      ...(fixable ? { fixable: "code" } : {}),
      hasSuggestions,
      messages: { ...meta.messages },
      schema: [],
    },
    create(context) {
      const sourceCode = context.sourceCode;
      return {
        [sourceCode.ast.type](node) {
          if (node !== sourceCode.ast) return;
          const { findings, problems } = lintOnce(context);
          for (const finding of findings) {
            if (finding.rule !== name) continue;
            const descriptor = {
              message: finding.message,
              loc: { start: { line: finding.line, column: finding.column }, end: { line: finding.endLine, column: finding.endColumn } },
            };
            const fixes = finding.fixes ?? [];
            const safe = fixes.find((fix) => fix.safe);
            if (safe && fixable) descriptor.fix = editsFix(safe);
            const suggestions = fixes.filter((fix) => !fix.safe);
            if (suggestions.length > 0 && hasSuggestions) descriptor.suggest = suggestions.map((fix) => ({ desc: fix.title, fix: editsFix(fix) }));
            context.report(descriptor);
          }
          for (const problem of problems) {
            if (problem.kind !== "rule-error" || problem.rule !== name) continue;
            context.report({ message: problem.message, loc: { start: { line: problem.line, column: problem.column }, end: { line: problem.endLine, column: problem.endColumn } } });
          }
        },
      };
    },
  };
}

export const rules = Object.fromEntries(synclintRules.map((rule) => [rule.meta.name, createRule(rule)]));

/** ESLint severities for synclint's default severities ("info" has no ESLint counterpart: it is a warning). */
export const defaultSeverities = Object.fromEntries(synclintRules.map((rule) => [`synclint/${rule.meta.name}`, rule.meta.defaultSeverity === "error" ? "error" : "warn"]));
