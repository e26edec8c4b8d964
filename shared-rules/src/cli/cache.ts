/**
 * `--cache`: results keyed by each file's content hash, its resolved configuration and synclint's version,
 * stored in `.synclint_cache/` (like ruff's cache), so a re-run on an unchanged tree reads files and hashes
 * them instead of parsing them.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import type { ResolvedConfig } from "../config";
import type { FileResult, LintFileOptions, Message } from "./lint-file";
import { VERSION } from "./version";
import type { HotEntries, ModuleLinks } from "../analysis/cross-file";

interface Entry {
  key: string;
  messages: Message[];
  links?: ModuleLinks;
}

/**
 * A file linted with hot entries (called from other files' hot paths) is kept beside its lint without them:
 * the next run lints every file without entries first.
 */
const SEEDED = "\u0000with-entries";
/**
 * What a stored result holds; a change (the names in a file's links, format 2; the loaders of other files'
 * functions it moves, 3; its `sys.path` folders, 4; where the arguments of its calls to other files live, 5;
 * class names that start with a lower-case word, 6; the options its classes keep, the constructions of other
 * files' classes, and what all its hot calls of a callee pass, 7; whether it may use a GPU and is a script, and
 * the options it only turns off, 8) must not read older results.
 */
const RESULT_FORMAT = 8;

export class ResultCache {
  private entries: Record<string, Entry> = {};
  private readonly file: string;
  private dirty = false;

  constructor(directory: string) {
    this.file = path.join(directory, `v${VERSION}-${RESULT_FORMAT}`, "results.json");
    try {
      const stored = JSON.parse(fs.readFileSync(this.file, "utf8")) as { entries?: Record<string, Entry> };
      if (stored && typeof stored.entries === "object" && stored.entries) this.entries = stored.entries;
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
  }

  /** The cache key of a file: its bytes, the configuration that applies to it, the lint options. */
  static key(bytes: Buffer, config: ResolvedConfig, options: LintFileOptions, entries?: HotEntries): string {
    const settings = JSON.stringify({
      severities: [...config.severities],
      preset: config.preset,
      extraStepFunctions: config.extraStepFunctions,
      perFileIgnores: config.perFileIgnores,
      root: config.root,
      options,
      entries: entries ?? null,
    });
    return crypto.createHash("sha256").update(VERSION).update("\0").update(settings).update("\0").update(bytes).digest("hex");
  }

  get(filePath: string, key: string, seeded = false): FileResult | undefined {
    const entry = this.entries[seeded ? filePath + SEEDED : filePath];
    return entry && entry.key === key ? { filePath, messages: entry.messages, ...(entry.links ? { links: entry.links } : {}) } : undefined;
  }

  set(result: FileResult, key: string, seeded = false): void {
    this.entries[seeded ? result.filePath + SEEDED : result.filePath] = { key, messages: result.messages, ...(result.links ? { links: result.links } : {}) };
    this.dirty = true;
  }

  save(): void {
    if (!this.dirty) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, JSON.stringify({ version: VERSION, entries: this.entries }));
      fs.renameSync(temporary, this.file);
    } catch {
      // A cache that cannot be written only costs speed next time.
    }
  }
}
