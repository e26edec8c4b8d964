/**
 * What applies to a document: `pyproject.toml` / `synclint.toml` (the CLI's loader) plus the client settings
 * `synclint.enable`, `synclint.reportCold` (the `strict` preset) and `synclint.severity` overrides.
 */
import { fileURLToPath } from "url";
import { ConfigError, ConfigResolver, resolveConfig, findRule } from "synclint-rules";
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
  /** A configuration file that failed to load (the defaults apply meanwhile). */
  error?: ConfigError;
}

export class Configuration {
  private resolver: ConfigResolver;
  settings: ClientSettings = DEFAULT_SETTINGS;

  constructor(private readonly root: string) {
    this.resolver = this.createResolver();
  }

  /** Forget cached configuration files (one changed on disk) or settings. */
  reset(settings?: ClientSettings): void {
    if (settings) this.settings = settings;
    this.resolver = this.createResolver();
  }

  forDocument(uri: string): DocumentConfig {
    const file = filePathOf(uri);
    let config: ResolvedConfig;
    let error: ConfigError | undefined;
    try {
      config = file ? this.resolver.forFile(file) : resolveConfig({}, this.root, this.overrides());
    } catch (caught) {
      if (!(caught instanceof ConfigError)) throw caught;
      error = caught;
      config = resolveConfig({}, this.root, this.overrides());
    }
    for (const [name, level] of Object.entries(this.settings.severity)) {
      if (level === "off") config.severities.delete(name);
      else config.severities.set(name, level);
    }
    return { config, error };
  }

  private overrides(): { preset?: "strict" } {
    return this.settings.reportCold ? { preset: "strict" } : {};
  }

  private createResolver(): ConfigResolver {
    return new ConfigResolver(this.overrides(), undefined, this.root);
  }
}
