/**
 * The files linted together as one project: which file an import names, and which functions other files call
 * from hot paths. A file's lint lists its hot calls into the project (`ModuleLinks`); `lintProject` lints every
 * file, turns the calls into hot entries of the files they reach (`hotEntriesOf`), and lints those files again
 * with their entries, round by round, until no file's entries change (a chain of calls across files is
 * followed that many files deep).
 */
import * as path from "path";
import type { HotEntries, HotEntry, ModuleLinks } from "./analysis/cross-file";

/** How many files deep a chain of hot calls is followed. */
const MAX_ROUNDS = 4;
/** How many re-exports (`from .cuda import NativeScaler` in a package's `__init__.py`) are followed. */
const MAX_REEXPORTS = 4;

export interface ResolvedName {
  file: string;
  /** The name inside the file: `f`, `Class.method`; empty for the module itself. */
  name: string;
}

/** Import resolution among a fixed set of files, the way Python finds them from a script's folder or a package root. */
export class ProjectModules {
  private readonly files: ReadonlySet<string>;

  /** `files`: absolute paths. */
  constructor(files: readonly string[]) {
    this.files = new Set(files);
  }

  /**
   * The file that `dotted` (`util.misc.MetricLogger.update`, `.box_ops.box_iou`) names when `importer` imports
   * it, and the rest of the name inside that file. An absolute name is looked for from the importer's folder up
   * (a script's folder is on `sys.path`; so is a package's root), the longest module path first.
   */
  resolve(importer: string, dotted: string): ResolvedName | undefined {
    const level = dotted.length - dotted.replace(/^\.+/, "").length;
    const parts = dotted.slice(level).split(".").filter(Boolean);
    let folder = path.dirname(importer);
    if (level > 0) {
      for (let up = 1; up < level; up++) folder = path.dirname(folder);
      return this.resolveIn(folder, parts) ?? (this.files.has(path.join(folder, "__init__.py")) ? { file: path.join(folder, "__init__.py"), name: parts.join(".") } : undefined);
    }
    for (;;) {
      const found = this.resolveIn(folder, parts);
      if (found) return found;
      const parent = path.dirname(folder);
      if (parent === folder) return undefined;
      folder = parent;
    }
  }

  private resolveIn(folder: string, parts: string[]): ResolvedName | undefined {
    for (let length = parts.length; length >= 1; length--) {
      const module = path.join(folder, ...parts.slice(0, length));
      const name = parts.slice(length).join(".");
      if (this.files.has(`${module}.py`)) return { file: `${module}.py`, name };
      if (this.files.has(path.join(module, "__init__.py"))) return { file: path.join(module, "__init__.py"), name };
    }
    return undefined;
  }

  /**
   * `resolve`, then through the modules that import the name from elsewhere and so export it, by name or with
   * `from .dist import *` (a package's `__init__.py`), where the name is not the module's own.
   */
  resolveDefinition(importer: string, dotted: string, linksOf: (file: string) => ModuleLinks | undefined): ResolvedName | undefined {
    let resolved = this.resolve(importer, dotted);
    for (let hop = 0; resolved && resolved.name && hop < MAX_REEXPORTS; hop++) {
      const [first, ...rest] = resolved.name.split(".");
      const links = linksOf(resolved.file);
      if (!links) return resolved;
      if (Object.prototype.hasOwnProperty.call(links.imports, first)) {
        resolved = this.resolve(resolved.file, [links.imports[first], ...rest].join("."));
        continue;
      }
      if (Object.prototype.hasOwnProperty.call(links.functions, resolved.name) || !links.starImports) return resolved;
      const from = resolved.file;
      const name = resolved.name;
      const reexported = links.starImports
        .map((module) => this.resolve(from, `${module}.${name}`))
        .find((candidate) => {
          const target = candidate && linksOf(candidate.file);
          return !!target && candidate!.file !== from && (Object.prototype.hasOwnProperty.call(target.functions, candidate!.name) || Object.prototype.hasOwnProperty.call(target.imports, candidate!.name.split(".")[0]));
        });
      if (!reexported) return resolved;
      resolved = reexported;
    }
    return resolved;
  }
}

/** Each file's hot entries: its functions that other files call from hot paths, each told by its first caller (in file and line order). */
export function hotEntriesOf(linksByFile: ReadonlyMap<string, ModuleLinks>, modules: ProjectModules): Map<string, HotEntries> {
  const found = new Map<string, Map<string, HotEntry>>();
  const callers = [...linksByFile.keys()].sort();
  for (const caller of callers) {
    for (const call of linksByFile.get(caller)!.calls) {
      const callee = modules.resolveDefinition(caller, call.target, (file) => linksByFile.get(file));
      // Calls within a file are the file's own analysis; a class's construction, or a name the file does not define, changes no lint.
      const functions = callee && callee.name && callee.file !== caller ? linksByFile.get(callee.file)?.functions : undefined;
      if (!callee || !functions || !Object.prototype.hasOwnProperty.call(functions, callee.name)) continue;
      // An inherited method is hot where it is defined.
      const name = functions[callee.name];
      const entries = found.get(callee.file) ?? found.set(callee.file, new Map()).get(callee.file)!;
      const known = entries.get(name);
      if (known) {
        // Another hot caller: what the first passes no longer tells what the function receives.
        const { arguments: _passed, tensorFree: _tensorFree, ...rest } = known;
        const tensorFree = known.tensorFree && !call.tensors;
        entries.set(name, { ...rest, gpu: known.gpu || call.gpu, ...(tensorFree ? { tensorFree } : {}) });
        continue;
      }
      const relative = path.relative(path.dirname(callee.file), caller).split(path.sep).join("/");
      entries.set(name, {
        where: `which \`${relative}\` calls at line ${call.line} ${call.where}`,
        frequency: call.frequency,
        reason: call.reason,
        ...(call.compiled === "torch.compile" ? { compiled: call.compiled } : {}),
        gpu: call.gpu,
        ...(call.repeated ? {} : { arguments: call.arguments }),
        ...(call.tensors ? {} : { tensorFree: true }),
      });
    }
  }
  const result = new Map<string, HotEntries>();
  for (const [file, entries] of found) result.set(file, Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return result;
}

export interface ProjectLintRequest {
  file: string;
  entries?: HotEntries;
}

/**
 * What the project knows of its files' hot calls into each other: each file's links as last linted, and the
 * hot entries each file was last linted with. Files are absolute paths.
 */
export class ProjectHotPaths {
  private modules: ProjectModules;
  private readonly links = new Map<string, ModuleLinks>();
  private readonly entries = new Map<string, { key: string; entries: HotEntries }>();

  constructor(private files: readonly string[]) {
    this.modules = new ProjectModules(files);
  }

  /** The project's files changed (created, deleted): imports may name other files now. */
  setFiles(files: readonly string[]): void {
    this.files = files;
    this.modules = new ProjectModules(files);
    const kept = new Set(files);
    for (const file of [...this.links.keys()]) if (!kept.has(file)) this.links.delete(file);
  }

  /** A file's links, as its last lint found them (none for a file that could not be linted). */
  record(file: string, links: ModuleLinks | undefined): void {
    if (links) this.links.set(file, links);
    else this.links.delete(file);
  }

  /** The hot entries `file` was last linted with (undefined: none). */
  entriesOf(file: string): HotEntries | undefined {
    return this.entries.get(file)?.entries;
  }

  /**
   * Lints again, round by round, each file whose hot entries differ from those it was last linted with, until
   * none does or MAX_ROUNDS rounds have passed (a chain of hot calls is followed that many files deep). `lint`
   * lints a batch (with `linkModules`) and returns the results by file. Returns the files whose entries changed.
   */
  async propagate<Result extends { links?: ModuleLinks }>(lint: (requests: ProjectLintRequest[]) => Promise<Map<string, Result>>): Promise<Set<string>> {
    const changed = new Set<string>();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const entriesByFile = hotEntriesOf(this.links, this.modules);
      const requests: ProjectLintRequest[] = [];
      for (const file of this.files) {
        const entries = entriesByFile.get(file);
        const key = entries ? JSON.stringify(entries) : "";
        if (key === (this.entries.get(file)?.key ?? "")) continue;
        if (entries) this.entries.set(file, { key, entries });
        else this.entries.delete(file);
        changed.add(file);
        requests.push({ file, ...(entries ? { entries } : {}) });
      }
      if (requests.length === 0) break;
      const results = await lint(requests);
      for (const { file } of requests) this.record(file, results.get(file)?.links);
    }
    return changed;
  }
}

/**
 * Lints `files` (absolute paths) as one project: all of them once, then again those that other files call
 * from hot paths (`ProjectHotPaths.propagate`). Returns the last result of each file.
 */
export async function lintProject<Result extends { links?: ModuleLinks }>(
  files: readonly string[],
  lint: (requests: ProjectLintRequest[]) => Promise<Map<string, Result>>,
): Promise<Map<string, Result>> {
  const project = new ProjectHotPaths(files);
  const results = await lint(files.map((file) => ({ file })));
  results.forEach((result, file) => project.record(file, result.links));
  await project.propagate(async (requests) => {
    const again = await lint(requests);
    again.forEach((result, file) => results.set(file, result));
    return again;
  });
  return results;
}
