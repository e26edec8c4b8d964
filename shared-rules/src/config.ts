/**
 * Configuration: `[tool.synclint]` in `pyproject.toml`, or `synclint.toml`, found by walking up from each
 * file. Configuration is data only: TOML values are validated against the schema below and never executed.
 */
import * as fs from "fs";
import * as path from "path";
import { parse as parseToml, TomlError } from "smol-toml";
import picomatch from "picomatch";
import { rules, findRule } from "./rules";
import type { Severity } from "./rule";

export type Preset = "recommended" | "strict";

export interface UserConfig {
  select?: string[];
  ignore?: string[];
  severity?: Record<string, Severity | "off">;
  "per-file-ignores"?: Record<string, string[]>;
  exclude?: string[];
  preset?: Preset;
  "extra-step-functions"?: string[];
}

export interface ResolvedConfig {
  /** Enabled rules and their severity. */
  severities: Map<string, Severity>;
  preset: Preset;
  extraStepFunctions: string[];
  /** Globs relative to `root`. */
  exclude: string[];
  perFileIgnores: Array<{ glob: string; rules: string[] }>;
  /** The folder of the configuration file (or the working directory). */
  root: string;
  file?: string;
}

export class ConfigError extends Error {
  constructor(readonly file: string, readonly key: string | undefined, readonly detail: string) {
    super(`${file}: ${key ? `[tool.synclint] "${key}": ` : ""}${detail}`);
    this.name = "ConfigError";
  }
}

const KEYS: Record<keyof UserConfig, string> = {
  select: "an array of rule names or codes",
  ignore: "an array of rule names or codes",
  severity: 'a table of rule = "error" | "warning" | "info" | "off"',
  "per-file-ignores": "a table of glob = [rule names or codes]",
  exclude: "an array of glob strings",
  preset: '"recommended" or "strict"',
  "extra-step-functions": "an array of function names",
};

/** Rules named by a selector: a name, a code, or a code prefix (`SYN1`). */
export function resolveSelector(selector: string): string[] {
  const rule = findRule(selector);
  if (rule) return [rule.meta.name];
  const prefix = selector.toUpperCase();
  if (/^SYN\d*$/.test(prefix)) return rules.filter((r) => r.meta.code.startsWith(prefix)).map((r) => r.meta.name);
  return [];
}

function expectStringArray(value: unknown, file: string, key: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
    throw new ConfigError(file, key, `expected ${KEYS[key as keyof UserConfig] ?? "an array of strings"}, got ${describe(value)}`);
  return value as string[];
}

function expectRules(value: unknown, file: string, key: string): string[] {
  const names: string[] = [];
  for (const selector of expectStringArray(value, file, key)) {
    const resolved = resolveSelector(selector);
    if (resolved.length === 0) throw new ConfigError(file, key, `unknown rule "${selector}"; expected one of ${rules.map((r) => r.meta.name).join(", ")} (or their SYN codes)`);
    names.push(...resolved);
  }
  return names;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (value instanceof Date) return "a date";
  return typeof value === "object" ? "a table" : `a ${typeof value} (${JSON.stringify(value)})`;
}

/** Checks a parsed `[tool.synclint]` table; throws ConfigError naming the file, the key and what is expected. */
export function validateConfig(raw: unknown, file: string): UserConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ConfigError(file, undefined, `[tool.synclint] must be a table, got ${describe(raw)}`);
  const table = raw as Record<string, unknown>;
  const config: UserConfig = {};
  for (const [key, value] of Object.entries(table)) {
    switch (key) {
      case "select":
      case "ignore":
        config[key] = expectRules(value, file, key);
        break;
      case "exclude":
      case "extra-step-functions":
        config[key] = expectStringArray(value, file, key);
        break;
      case "preset":
        if (value !== "recommended" && value !== "strict") throw new ConfigError(file, key, `expected ${KEYS.preset}, got ${describe(value)}`);
        config.preset = value;
        break;
      case "severity": {
        if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ConfigError(file, key, `expected ${KEYS.severity}, got ${describe(value)}`);
        const severities: Record<string, Severity | "off"> = {};
        for (const [selector, level] of Object.entries(value)) {
          const names = resolveSelector(selector);
          if (names.length === 0) throw new ConfigError(file, `severity.${selector}`, `unknown rule "${selector}"`);
          if (level !== "error" && level !== "warning" && level !== "info" && level !== "off")
            throw new ConfigError(file, `severity.${selector}`, `expected "error", "warning", "info" or "off", got ${describe(level)}`);
          for (const name of names) severities[name] = level;
        }
        config.severity = severities;
        break;
      }
      case "per-file-ignores": {
        if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ConfigError(file, key, `expected ${KEYS["per-file-ignores"]}, got ${describe(value)}`);
        const table: Record<string, string[]> = {};
        for (const [glob, list] of Object.entries(value)) table[glob] = expectRules(list, file, `per-file-ignores."${glob}"`);
        config["per-file-ignores"] = table;
        break;
      }
      default:
        throw new ConfigError(file, key, `unknown key; expected one of ${Object.keys(KEYS).join(", ")}`);
    }
  }
  return config;
}

/** Reads one configuration file; returns undefined for a `pyproject.toml` without `[tool.synclint]`. */
export function readConfigFile(file: string): UserConfig | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(file, undefined, `cannot read: ${(error as Error).message}`);
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const detail = error instanceof TomlError ? `invalid TOML at line ${error.line}, column ${error.column}: ${error.message.split("\n")[0]}` : (error as Error).message;
    throw new ConfigError(file, undefined, detail);
  }
  if (path.basename(file) === "pyproject.toml") {
    const tool = parsed.tool as Record<string, unknown> | undefined;
    if (!tool || typeof tool !== "object" || !("synclint" in tool)) return undefined;
    return validateConfig(tool.synclint, file);
  }
  return validateConfig(parsed, file);
}

export interface CommandLineOverrides {
  select?: string[];
  ignore?: string[];
  preset?: Preset;
}

/** Applies defaults, a user configuration and command-line overrides. */
export function resolveConfig(user: UserConfig, root: string, overrides: CommandLineOverrides = {}, file?: string): ResolvedConfig {
  const selected = new Set(overrides.select ?? user.select ?? rules.map((r) => r.meta.name));
  for (const name of [...(user.ignore ?? []), ...(overrides.ignore ?? [])]) selected.delete(name);
  const severities = new Map<string, Severity>();
  for (const rule of rules) {
    if (!selected.has(rule.meta.name)) continue;
    const level = user.severity?.[rule.meta.name] ?? rule.meta.defaultSeverity;
    if (level !== "off") severities.set(rule.meta.name, level);
  }
  return {
    severities,
    preset: overrides.preset ?? user.preset ?? "recommended",
    extraStepFunctions: user["extra-step-functions"] ?? [],
    exclude: user.exclude ?? [],
    perFileIgnores: Object.entries(user["per-file-ignores"] ?? {}).map(([glob, list]) => ({ glob, rules: list })),
    root,
    file,
  };
}

/** Finds and caches the configuration that applies to each folder. */
export class ConfigResolver {
  private readonly byDirectory = new Map<string, { user: UserConfig; root: string; file?: string }>();

  constructor(private readonly overrides: CommandLineOverrides = {}, private readonly explicitFile?: string, private readonly fallbackRoot = process.cwd()) {}

  forFile(filePath: string): ResolvedConfig {
    const found = this.explicitFile ? this.explicit() : this.find(path.dirname(path.resolve(filePath)));
    return resolveConfig(found.user, found.root, this.overrides, found.file);
  }

  private explicit(): { user: UserConfig; root: string; file?: string } {
    const file = path.resolve(this.explicitFile!);
    const key = `explicit:${file}`;
    let entry = this.byDirectory.get(key);
    if (!entry) {
      entry = { user: readConfigFile(file) ?? {}, root: path.dirname(file), file };
      this.byDirectory.set(key, entry);
    }
    return entry;
  }

  private find(directory: string): { user: UserConfig; root: string; file?: string } {
    const cached = this.byDirectory.get(directory);
    if (cached) return cached;
    let entry: { user: UserConfig; root: string; file?: string } | undefined;
    for (const name of ["synclint.toml", "pyproject.toml"]) {
      const candidate = path.join(directory, name);
      if (!fs.existsSync(candidate)) continue;
      const user = readConfigFile(candidate);
      if (user) {
        entry = { user, root: directory, file: candidate };
        break;
      }
    }
    if (!entry) {
      const parent = path.dirname(directory);
      entry = parent === directory ? { user: {}, root: this.fallbackRoot } : this.find(parent);
    }
    this.byDirectory.set(directory, entry);
    return entry;
  }
}

/** Rules that `per-file-ignores` turns off for this file. */
export function ignoredRulesFor(filePath: string, config: ResolvedConfig): Set<string> {
  const relative = path.relative(config.root, path.resolve(filePath)).split(path.sep).join("/");
  const ignored = new Set<string>();
  for (const { glob, rules: list } of config.perFileIgnores) {
    if (picomatch.isMatch(relative, glob, { dot: true }) || picomatch.isMatch(path.basename(filePath), glob, { dot: true })) for (const name of list) ignored.add(name);
  }
  return ignored;
}

export function isExcluded(filePath: string, config: ResolvedConfig): boolean {
  if (config.exclude.length === 0) return false;
  const relative = path.relative(config.root, path.resolve(filePath)).split(path.sep).join("/");
  return config.exclude.some((glob) => picomatch.isMatch(relative, glob, { dot: true }) || picomatch.isMatch(relative, `${glob}/**`, { dot: true }));
}
