/**
 * What applies to a document: `pyproject.toml` / `synclint.toml` (the CLI's loader) plus the client settings
 * `synclint.enable`, `synclint.reportCold` (the `strict` preset) and `synclint.severity` overrides.
 */
import * as path from "path";
import { fileURLToPath } from "url";
import { ConfigError, ConfigResolver, resolveConfig, findRule } from "synclint-rules";
import { isExcluded } from "synclint-rules/out/config";
import type { ResolvedConfig, Severity } from "synclint-rules";

export interface ClientSettings {
  enable: boolean;
  reportCold: boolean;
  severity: Record<string, Severity | "off">;
}

export const DEFAULT_SETTINGS: ClientSettings = { enable: true, reportCold: false, severity: {} };

/** Validates the untyped `synclint` settings section; unknown or ill-typed values fall back to defaults. */
export function parseSettings(raw: unknown): ClientSettings {
  const settings: ClientSettings = { ...DEFAULT_SETTINGS, severity: {} };
  if (typeof raw !== "object" || raw === null) return settings;
  const table = raw as Record<string, unknown>;
  if (typeof table.enable === "boolean") settings.enable = table.enable;
  if (typeof table.reportCold === "boolean") settings.reportCold = table.reportCold;
  if (typeof table.severity === "object" && table.severity !== null) {
    for (const [name, level] of Object.entries(table.severity as Record<string, unknown>)) {
      const rule = findRule(name);
      if (rule && (level === "error" || level === "warning" || level === "info" || level === "off")) settings.severity[rule.meta.name] = level;
    }
  }
  return settings;
}

export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

export interface DocumentConfig {
  config: ResolvedConfig;
  /** A configuration file that failed to load; `config` is then the last good one for the folder, or the defaults. */
  error?: ConfigError;
  /** True when `error` is set and the last good configuration (not the defaults) applies. */
  lastGood?: boolean;
}

/**
 * The configuration of each folder, cached until `reset()` (a configuration file or the settings changed), so
 * that a keystroke costs a map lookup. When a configuration file turns bad, the folder keeps its last good
 * configuration and the error is reported with it.
 */
export class Configuration {
  private resolver: ConfigResolver;
  private readonly byDirectory = new Map<string, DocumentConfig>();
  private readonly lastGood = new Map<string, { config: ResolvedConfig; reportCold: boolean }>();
  settings: ClientSettings = DEFAULT_SETTINGS;

  constructor(private readonly root: string) {
    this.resolver = this.createResolver();
  }

  /** Forget cached configuration files (one changed on disk) or settings. */
  reset(settings?: ClientSettings): void {
    if (settings) this.settings = settings;
    this.resolver = this.createResolver();
    this.byDirectory.clear();
  }

  forDocument(uri: string): DocumentConfig {
    const file = filePathOf(uri);
    return file ? this.forFile(file) : { config: this.withSettings(resolveConfig({}, this.root, this.overrides())) };
  }

  forFile(file: string): DocumentConfig {
    const directory = path.dirname(path.resolve(file));
    const cached = this.byDirectory.get(directory);
    if (cached) return cached;
    let entry: DocumentConfig;
    try {
      const config = this.resolver.forFile(file);
      this.lastGood.set(directory, { config: copy(config), reportCold: this.settings.reportCold });
      entry = { config: this.withSettings(config) };
    } catch (caught) {
      if (!(caught instanceof ConfigError)) throw caught;
      const good = this.lastGood.get(directory);
      if (good) {
        const config = copy(good.config);
        // The preset in the stored configuration may come from the settings of that time.
        if (this.settings.reportCold) config.preset = "strict";
        else if (good.reportCold) config.preset = "recommended";
        entry = { config: this.withSettings(config), error: caught, lastGood: true };
      } else {
        entry = { config: this.withSettings(resolveConfig({}, this.root, this.overrides())), error: caught };
      }
    }
    this.byDirectory.set(directory, entry);
    return entry;
  }

  /** The configuration's `exclude` globs cover this file. */
  excludes(file: string | undefined, config: ResolvedConfig): boolean {
    return file !== undefined && isExcluded(file, config);
  }

  private withSettings(config: ResolvedConfig): ResolvedConfig {
    for (const [name, level] of Object.entries(this.settings.severity)) {
      if (level === "off") config.severities.delete(name);
      else config.severities.set(name, level);
    }
    return config;
  }

  private overrides(): { preset?: "strict" } {
    return this.settings.reportCold ? { preset: "strict" } : {};
  }

  private createResolver(): ConfigResolver {
    return new ConfigResolver(this.overrides(), undefined, this.root);
  }
}

function copy(config: ResolvedConfig): ResolvedConfig {
  return { ...config, severities: new Map(config.severities), exclude: [...config.exclude], perFileIgnores: config.perFileIgnores.map((p) => ({ ...p })), extraStepFunctions: [...config.extraStepFunctions] };
}
