/**
 * eslint-plugin-synclint: synclint's PyTorch host-device sync rules inside ESLint (>= 9.7), on Python files.
 *
 *   import synclint from "eslint-plugin-synclint";
 *   export default [synclint.configs.recommended];
 */
import { createRequire } from "node:module";
import { initParser } from "./lib/engine.js";
import { pythonLanguage } from "./lib/language.js";
import { rules, defaultSeverities } from "./lib/rules.js";

// ESLint's `Language.parse` is synchronous; the WASM parser must be ready before it is called.
await initParser();

const { name, version } = createRequire(import.meta.url)("./package.json");

const plugin = {
  meta: { name, version, namespace: "synclint" },
  languages: { python: pythonLanguage },
  rules,
  configs: {},
};

plugin.configs.recommended = {
  name: "synclint/recommended",
  files: ["**/*.py"],
  plugins: { synclint: plugin },
  language: "synclint/python",
  rules: { ...defaultSeverities },
};

/** Every site, not only those that run per step (synclint's `strict` preset, `synclint --all`). */
plugin.configs.strict = {
  name: "synclint/strict",
  files: ["**/*.py"],
  plugins: { synclint: plugin },
  language: "synclint/python",
  languageOptions: { preset: "strict" },
  rules: { ...defaultSeverities },
};

export { pythonLanguage, rules };
export const configs = plugin.configs;
export default plugin;
