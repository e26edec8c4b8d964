/**
 * The bridge to synclint's engine (the CommonJS package `synclint-rules`). Everything the plugin knows about
 * Python comes from here; no rule logic lives in the plugin.
 */
import synclint from "synclint-rules";
import docs from "synclint-rules/out/docs.js";
import configModule from "synclint-rules/out/config.js";

export const {
  initParser,
  isParserReady,
  parsePython,
  buildSyntaxTree,
  lintSyntaxTree,
  SourceText,
  ConfigResolver,
  resolveConfig,
  rules: synclintRules,
} = synclint;

export const { ruleDocsUrl } = docs;
export const { isExcluded } = configModule;

/**
 * A seam for tests: the function that lints one file. Tests of the `fix`/`suggest` mapping replace it to add
 * `fixes` to findings before the engine produces them itself.
 */
export const engine = {
  lint: (text, syntax, options) => lintSyntaxTree(text, syntax, options),
};
