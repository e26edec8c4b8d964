/**
 * `languages.python`: an ESLint `Language` over synclint's tree-sitter parser.
 *
 * `parse` is synchronous; the WASM parser is initialised once by top-level `await` in `index.js`, before ESLint
 * can call it. A file with a syntax error is a parse failure (`{ ok: false }`), reported by ESLint as a fatal
 * "Parsing error" (ruleId null) at the first error, as ESLint does for JavaScript: tree-sitter recovers from
 * errors, but findings computed from a recovered tree are not reported through ESLint.
 */
import { buildSyntaxTree, isParserReady, parsePython, SourceText } from "./engine.js";
import { PythonSourceCode } from "./source-code.js";

const PRESETS = new Set(["recommended", "strict"]);
const OPTION_KEYS = ["preset", "extraStepFunctions", "useConfigFile"];

/**
 * @typedef {object} PythonLanguageOptions
 * @property {"recommended"|"strict"} [preset] Overrides the preset of `pyproject.toml`/`synclint.toml`.
 * @property {string[]} [extraStepFunctions] Added to `extra-step-functions` of the synclint configuration.
 * @property {boolean} [useConfigFile] Read `[tool.synclint]`/`synclint.toml` above each file (default true).
 */

export const pythonLanguage = {
  fileType: "text",
  lineStart: 1,
  columnStart: 1,
  nodeTypeKey: "type",
  defaultLanguageOptions: {},

  /** @param {PythonLanguageOptions} options */
  validateLanguageOptions(options) {
    if (options === undefined || options === null) return;
    if (typeof options !== "object" || Array.isArray(options)) throw new TypeError("Expected languageOptions to be an object.");
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.includes(key)) throw new TypeError(`Unexpected key "${key}" in languageOptions; expected ${OPTION_KEYS.join(", ")}.`);
    }
    if (options.preset !== undefined && !PRESETS.has(options.preset)) throw new TypeError(`languageOptions.preset must be "recommended" or "strict", got ${JSON.stringify(options.preset)}.`);
    if (options.extraStepFunctions !== undefined && (!Array.isArray(options.extraStepFunctions) || options.extraStepFunctions.some((name) => typeof name !== "string")))
      throw new TypeError("languageOptions.extraStepFunctions must be an array of function names.");
    if (options.useConfigFile !== undefined && typeof options.useConfigFile !== "boolean") throw new TypeError("languageOptions.useConfigFile must be a boolean.");
  },

  parse(file) {
    if (!isParserReady()) throw new Error("eslint-plugin-synclint: the Python parser is not initialised (import the plugin's ESM entry).");
    const text = typeof file.body === "string" ? file.body : new TextDecoder().decode(file.body);
    const tree = parsePython(text);
    let syntax;
    try {
      syntax = buildSyntaxTree(tree, text);
    } finally {
      tree.delete();
    }
    if (syntax.problems.length > 0) {
      const source = new SourceText(text);
      const first = syntax.problems[0];
      const where = source.position(first.offset);
      const near = source.lineText(where.line).trim().slice(0, 40);
      const what = first.kind === "ERROR" ? "invalid syntax" : `expected \`${first.kind}\``;
      return { ok: false, errors: [{ message: `${what} near \`${near}\``, line: where.line + 1, column: where.character + 1 }] };
    }
    return { ok: true, ast: syntax.root, syntax, text };
  },

  createSourceCode(file, parseResult, context) {
    return new PythonSourceCode({ text: parseResult.text, syntax: parseResult.syntax, languageOptions: context?.languageOptions });
  },
};
