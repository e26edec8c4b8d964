/**
 * The files linted together as one project: which file an import names, and which functions other files call
 * from hot paths. A file's lint lists its hot calls into the project (`ModuleLinks`); `lintProject` lints every
 * file, turns the calls into hot entries of the files they reach (`hotEntriesOf`), and lints those files again
 * with their entries, round by round, until no file's entries change (a chain of calls across files is
 * followed that many files deep).
 */
import * as path from "path";
import { HOST_ONLY_ENTRY, agreedKinds, type ConstructedClass, type HostOnlyProject, type HotEntries, type HotEntry, type LoaderFactory, type ModuleLinks, type ProjectOption, type UnreferencedClass } from "./analysis/cross-file";
import type { OptionDefault } from "./analysis/hot-paths";
import { unusedClasses } from "./analysis/class-names";
import { OFF_LITERAL } from "./analysis/names";
import { agreedArguments } from "./analysis/hot-paths";

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
  /** The files' folders and modules (`/p/src/nets` of `/p/src/nets.py`): only a name under one of them can be a file here. */
  private readonly foldersAndModules = new Set<string>();

  /** `files`: absolute paths. */
  constructor(files: readonly string[]) {
    this.files = new Set(files);
    for (const file of files) {
      this.foldersAndModules.add(file.replace(/\.pyi?$/, ""));
      for (let folder = path.dirname(file); !this.foldersAndModules.has(folder); folder = path.dirname(folder)) {
        this.foldersAndModules.add(folder);
        if (path.dirname(folder) === folder) break;
      }
    }
  }

  /**
   * The file that `dotted` (`util.misc.MetricLogger.update`, `.box_ops.box_iou`) names when `importer` imports
   * it, and the rest of the name inside that file. An absolute name is looked for from the importer's folder up
   * (a script's folder is on `sys.path`; so is a package's root), the longest module path first.
   */
  resolve(importer: string, dotted: string, searchPaths?: readonly string[]): ResolvedName | undefined {
    // Files of a folder import the same modules: resolved once per folder and name.
    const key = `${path.dirname(importer)}\0${dotted}${searchPaths ? `\0${searchPaths.join("\0")}` : ""}`;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const found = this.resolveUncached(importer, dotted) ?? (searchPaths && this.resolveOnSearchPaths(importer, dotted, searchPaths));
    this.resolved.set(key, found);
    return found;
  }
  private readonly resolved = new Map<string, ResolvedName | undefined>();

  /** An absolute name in a folder the importer puts on `sys.path`, taken from the importer's folder (where such scripts are run from). */
  private resolveOnSearchPaths(importer: string, dotted: string, searchPaths: readonly string[]): ResolvedName | undefined {
    if (dotted.startsWith(".")) return undefined;
    const parts = dotted.split(".").filter(Boolean);
    for (const searchPath of searchPaths) {
      const found = this.resolveIn(path.resolve(path.dirname(importer), searchPath), parts);
      if (found) return found;
    }
    return undefined;
  }

  private resolveUncached(importer: string, dotted: string): ResolvedName | undefined {
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
    // The folder is absolute and normalized, the parts are names: joined by hand, which is much cheaper than `path.join`.
    const base = folder.endsWith(path.sep) ? folder : folder + path.sep;
    // `import torch` from a folder with no `torch` in it: most imports are of packages installed elsewhere.
    if (!this.foldersAndModules.has(base + parts[0])) return undefined;
    for (let length = parts.length; length >= 1; length--) {
      const module = base + parts.slice(0, length).join(path.sep);
      const name = parts.slice(length).join(".");
      if (this.files.has(`${module}.py`)) return { file: `${module}.py`, name };
      const init = `${module}${path.sep}__init__.py`;
      if (this.files.has(init)) return { file: init, name };
    }
    return undefined;
  }

  /**
   * `resolve`, then through the modules that import the name from elsewhere and so export it, by name or with
   * `from .dist import *` (a package's `__init__.py`), where the name is not the module's own.
   */
  resolveDefinition(importer: string, dotted: string, linksOf: (file: string) => ModuleLinks | undefined): ResolvedName | undefined {
    let resolved = this.resolve(importer, dotted, linksOf(importer)?.searchPaths);
    for (let hop = 0; resolved && resolved.name && hop < MAX_REEXPORTS; hop++) {
      const [first, ...rest] = resolved.name.split(".");
      const links = linksOf(resolved.file);
      if (!links) return resolved;
      if (Object.prototype.hasOwnProperty.call(links.imports, first)) {
        resolved = this.resolve(resolved.file, [links.imports[first], ...rest].join("."), links.searchPaths);
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

/**
 * Each file's hot entries: its functions that other files call from hot paths, each told by its first caller (in
 * file and line order); and its classes that nothing in the project uses (`unreferenced`, by file:
 * `unreferencedClassesOf`).
 */
export function hotEntriesOf(
  linksByFile: ReadonlyMap<string, ModuleLinks>,
  modules: ProjectModules,
  unreferenced?: ReadonlyMap<string, readonly string[]>,
  hostOnly = false,
): Map<string, HotEntries> {
  const found = new Map<string, Map<string, HotEntry | UnreferencedClass | LoaderFactory | ConstructedClass | ProjectOption | HostOnlyProject>>();
  const callers = [...linksByFile.keys()].sort();
  for (const caller of callers) {
    for (const call of linksByFile.get(caller)!.calls) {
      const callee = modules.resolveDefinition(caller, call.target, (file) => linksByFile.get(file));
      // Calls within a file are the file's own analysis; a class's construction, or a name the file does not define, changes no lint.
      const functions = callee && callee.name && callee.file !== caller ? linksByFile.get(callee.file)?.functions : undefined;
      if (!callee || !functions || !Object.prototype.hasOwnProperty.call(functions, callee.name)) continue;
      // An inherited method is hot where it is defined.
      const name = functions[callee.name];
      // Reading an attribute runs only a property.
      if (call.read && !linksByFile.get(callee.file)!.properties?.includes(name)) continue;
      const entries = found.get(callee.file) ?? found.set(callee.file, new Map()).get(callee.file)!;
      const known = entries.get(name) as HotEntry | undefined;
      if (known) {
        // Another hot caller: what the callers pass alike, and only that, tells what the function receives.
        const { arguments: _passed, tensorFree: _tensorFree, argumentKinds: _kinds, onOwnInstance: _own, ...rest } = known;
        const tensorFree = known.tensorFree && !call.tensors;
        const argumentKinds = agreedKinds(known.argumentKinds, call.argumentKinds);
        const onOwnInstance = known.onOwnInstance && call.onOwnInstance && name === callee.name;
        const passed = known.arguments ? agreedArguments([known.arguments, call.arguments]) : undefined;
        entries.set(name, { ...rest, gpu: known.gpu || call.gpu, ...(passed ? { arguments: passed } : {}), ...(tensorFree ? { tensorFree } : {}), ...(argumentKinds ? { argumentKinds } : {}), ...(onOwnInstance ? { onOwnInstance } : {}) });
        continue;
      }
      const relative = path.relative(path.dirname(callee.file), caller).split(path.sep).join("/");
      entries.set(name, {
        where: `which \`${relative}\` calls at line ${call.line} ${call.where}`,
        frequency: call.frequency,
        reason: call.reason,
        ...(call.compiled === "torch.compile" ? { compiled: call.compiled } : {}),
        gpu: call.gpu,
        arguments: call.arguments,
        ...(call.tensors ? {} : { tensorFree: true }),
        ...(call.argumentKinds ? { argumentKinds: call.argumentKinds } : {}),
        // The instance constructed is of the class whose method this is: not for a method another class inherits.
        ...(call.onOwnInstance && name === callee.name ? { onOwnInstance: true } : {}),
      });
    }
  }
  // A function that returns a loader whose batches a caller moves to a GPU (the first such caller tells where).
  for (const caller of callers) {
    for (const loader of linksByFile.get(caller)!.loaders ?? []) {
      const callee = modules.resolveDefinition(caller, loader.target, (file) => linksByFile.get(file));
      const functions = callee && callee.name && callee.file !== caller ? linksByFile.get(callee.file)?.functions : undefined;
      if (!callee || !functions || !Object.prototype.hasOwnProperty.call(functions, callee.name)) continue;
      const entries = found.get(callee.file) ?? found.set(callee.file, new Map()).get(callee.file)!;
      const name = functions[callee.name];
      if (entries.has(name)) continue;
      const relative = path.relative(path.dirname(callee.file), caller).split(path.sep).join("/");
      entries.set(name, { loaderMovedBy: `\`${relative}\` calls it at line ${loader.line} and moves the loader's batches to the GPU at line ${loader.movedAt}` });
    }
  }
  // The constructions of each class that keeps options (`self.autobalance = autobalance`), from every other file,
  // where they can settle its branches: a hot caller of its methods constructs the instance (`HotEntry.onOwnInstance`).
  for (const caller of callers) {
    for (const [target, constructions] of Object.entries(linksByFile.get(caller)!.constructions ?? {})) {
      const callee = modules.resolveDefinition(caller, target, (file) => linksByFile.get(file));
      if (!callee || callee.file === caller || !linksByFile.get(callee.file)?.options?.includes(callee.name)) continue;
      const entries = found.get(callee.file);
      const methods = [...(entries?.entries() ?? [])].filter(([name]) => name.startsWith(`${callee.name}.`));
      if (!entries || !methods.some(([, entry]) => "onOwnInstance" in entry)) continue;
      const known = entries.get(callee.name) as ConstructedClass | undefined;
      const all = [...(known?.constructions ?? []), ...constructions];
      const distinct = [...new Map(all.map((passed) => [JSON.stringify(passed), passed])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      entries.set(callee.name, { constructions: distinct.map(([, passed]) => passed) });
    }
  }
  // The options a file tests that another file defines (`opts.py`), with the default every definition agrees on,
  // where a script that parses them runs the file: the definer, or a file importing it, imports it (`ProjectImports`).
  const options = optionsOfProject(linksByFile);
  const imports = options.size > 0 ? new ProjectImports(linksByFile, modules) : undefined;
  for (const file of callers) {
    for (const name of linksByFile.get(file)!.optionsTested ?? []) {
      const defined = options.get(name)?.find((definition) => definition.file !== file && imports!.runsWith(definition.file, file));
      if (!defined) continue;
      const entries = found.get(file) ?? found.set(file, new Map()).get(file)!;
      entries.set(`--${name}`, { option: { ...defined.option, file: path.relative(path.dirname(file), defined.file).split(path.sep).join("/") } });
    }
  }
  for (const [file, classes] of unreferenced ?? []) {
    const entries = found.get(file) ?? found.set(file, new Map()).get(file)!;
    for (const name of classes) entries.set(name, { unreferenced: true });
  }
  if (hostOnly) for (const file of callers) (found.get(file) ?? found.set(file, new Map()).get(file)!).set(HOST_ONLY_ENTRY, { hostOnly: true });
  const result = new Map<string, HotEntries>();
  for (const [file, entries] of found) result.set(file, Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return result;
}

/**
 * The project never puts anything on a GPU (`HostOnlyProject`): a script runs it, and no file of it, linted
 * (`ModuleLinks.mayUseGpu`) or not (configs, docs, launch scripts: `TextsOutside`), mentions a device.
 */
function isHostOnly(linksByFile: ReadonlyMap<string, ModuleLinks>, outside: TextsOutside): boolean {
  if (outside.deviceMentioned) return false;
  let script = false;
  for (const links of linksByFile.values()) {
    if (links.mayUseGpu) return false;
    script ||= !!links.script;
  }
  return script;
}

/**
 * The argparse options of the project whose default holds in every run: each definition gives the same default
 * (`--debug` of `train.py` and of `test.py`), and no file sets the option (`opt.debug = True`), nor may set any
 * (`setattr(args, key, value)`). By destination, each definition with its file, in path order.
 */
function optionsOfProject(linksByFile: ReadonlyMap<string, ModuleLinks>): Map<string, Array<{ file: string; option: OptionDefault }>> {
  const options = new Map<string, Array<{ file: string; option: OptionDefault }>>();
  const set = new Set<string>();
  const cleared = new Set<string>();
  for (const file of [...linksByFile.keys()].sort()) {
    const links = linksByFile.get(file)!;
    for (const name of links.optionsSet ?? []) set.add(name);
    for (const name of links.optionsCleared ?? []) cleared.add(name);
    for (const [name, option] of Object.entries(links.optionDefaults ?? {})) {
      const known = options.get(name);
      if (!known) options.set(name, [{ file, option }]);
      else if (known[0].option.value === option.value) known.push({ file, option });
      else set.add(name);
    }
  }
  if (set.has("*")) return new Map();
  for (const name of set) options.delete(name);
  // `args.fsdp = False` keeps a run of `--fsdp` (`store_true`) at its default; it changes one whose default is on.
  for (const name of cleared) if (options.get(name)?.some(({ option }) => !OFF_LITERAL.test(option.value))) options.delete(name);
  return options;
}

/** How many imports deep a script's options are followed (`main.py` → `trains/train_factory.py` → `trains/ctdet.py`). */
const MAX_IMPORT_DEPTH = 4;

/** The project's imports among its files, as far as they resolve. */
class ProjectImports {
  private importsOf = new Map<string, string[]>();
  private importersOf = new Map<string, string[]>();
  private reachable = new Map<string, Set<string>>();

  constructor(linksByFile: ReadonlyMap<string, ModuleLinks>, modules: ProjectModules) {
    const byStem = new Map<string, string[]>();
    for (const file of linksByFile.keys()) {
      const stem = path.basename(file) === "__init__.py" ? path.basename(path.dirname(file)) : path.basename(file).replace(/\.py$/, "");
      (byStem.get(stem) ?? byStem.set(stem, []).get(stem)!).push(file);
    }
    // `import _init_paths` (which puts `lib/` on `sys.path` at run time), then `from opts import opts`: a name that
    // does not resolve from the importer is the one file of the project whose path ends with it, if only one does.
    const anywhere = (target: string): string | undefined => {
      const parts = target.split(".");
      for (let length = parts.length; length >= 1; length--) {
        const tail = parts.slice(0, length).join(path.sep);
        const found = (byStem.get(parts[length - 1]) ?? []).filter((file) => file.endsWith(`${path.sep}${tail}.py`) || file.endsWith(`${path.sep}${tail}${path.sep}__init__.py`));
        if (found.length > 0) return found.length === 1 ? found[0] : undefined;
      }
      return undefined;
    };
    for (const [file, links] of linksByFile) {
      const imported = new Set<string>();
      for (const target of links.importedModules ?? []) {
        const module = modules.resolve(file, target, links.searchPaths)?.file ?? (target.startsWith(".") ? undefined : anywhere(target));
        if (module && module !== file) imported.add(module);
      }
      this.importsOf.set(file, [...imported]);
      for (const module of imported) (this.importersOf.get(module) ?? this.importersOf.set(module, []).get(module)!).push(file);
    }
  }

  /**
   * A script that parses the options of `definer` may run `file`: `file` is imported, a few imports deep, by the
   * definer (`train.py` with its parser imports `trainer.py`) or by a file that imports the definer (`main.py`
   * imports `opts.py` and, through `trains/train_factory.py`, `trains/ctdet.py`). Not an unrelated script of a
   * collection of examples that defines an option of the same name.
   */
  runsWith(definer: string, file: string): boolean {
    let reachable = this.reachable.get(definer);
    if (!reachable) {
      reachable = new Set();
      let frontier = [definer, ...(this.importersOf.get(definer) ?? [])];
      for (let depth = 0; depth <= MAX_IMPORT_DEPTH && frontier.length > 0; depth++) {
        const next: string[] = [];
        for (const each of frontier) {
          if (reachable.has(each)) continue;
          reachable.add(each);
          next.push(...(this.importsOf.get(each) ?? []));
        }
        frontier = next;
      }
      this.reachable.set(definer, reachable);
    }
    return reachable.has(file);
  }
}

/**
 * By file, the classes that nothing outside an unused class names, in the linted files or in `namedOutside`
 * (`class-names.ts`), in the modules that the project loads: those another file imports, or one of whose
 * classes another file or a config names (`target: sgm.modules.diffusionmodules.sampling.EulerSampler`). A
 * module that nothing loads is a script or a snippet: its classes may be used from outside the project.
 */
export function unreferencedClassesOf(linksByFile: ReadonlyMap<string, ModuleLinks>, modules: ProjectModules, namedOutside: ReadonlySet<string>): Map<string, string[]> {
  const classesByFile = new Map<string, Readonly<Record<string, readonly string[]>>>();
  const namesOutside: string[] = [...namedOutside];
  for (const [file, links] of linksByFile) {
    if (links.classes) classesByFile.set(file, links.classes);
    for (const name of links.names ?? []) namesOutside.push(name);
  }
  // With every module taken for loaded, the most classes are unused: mostly none, and no import need be resolved.
  const unused = unusedClasses(classesByFile, namesOutside);
  if (unused.size === 0) return unused;
  const loaded = loadedModules([...unused.keys()], linksByFile, modules, namedOutside);
  for (const [file, classes] of classesByFile) {
    if (loaded.has(file) || !unused.has(file)) continue;
    // The classes of a module nothing loads count as used, and so do the names in their bodies.
    classesByFile.delete(file);
    for (const [name, names] of Object.entries(classes)) namesOutside.push(name, ...names);
  }
  return unusedClasses(classesByFile, namesOutside);
}

/** Which of `files` the project loads: another file imports the module, or another file or a config names one of its classes. */
function loadedModules(files: readonly string[], linksByFile: ReadonlyMap<string, ModuleLinks>, modules: ProjectModules, namedOutside: ReadonlySet<string>): Set<string> {
  const candidates = new Set(files);
  // Only an import that names a candidate's module by its last name can import it (`.quantize`, `sgm.models.autoencoder.X`).
  const moduleNameOf = (file: string) => {
    const stem = path.basename(file).replace(/\.pyi?$/, "");
    return stem === "__init__" ? path.basename(path.dirname(file)) : stem;
  };
  const moduleNames = new Set(files.map(moduleNameOf));
  const definedIn = new Map<string, string[]>();
  for (const file of files) for (const name of Object.keys(linksByFile.get(file)?.classes ?? {})) (definedIn.get(name) ?? definedIn.set(name, []).get(name)!).push(file);
  const loaded = new Set<string>();
  // A file that defines a class of that name means its own (two snippets that each define `Net`).
  const nameLoads = (name: string, by: string) => {
    const definers = definedIn.get(name);
    if (!definers || (by && linksByFile.get(by)?.classes?.[name])) return;
    for (const file of definers) if (file !== by) loaded.add(file);
  };
  for (const name of namedOutside) nameLoads(name, "");
  for (const [importer, links] of linksByFile) {
    for (const target of links.importedModules ?? []) {
      if (!target.split(".").some((part) => moduleNames.has(part))) continue;
      const module = modules.resolve(importer, target, links.searchPaths)?.file;
      if (module && module !== importer && candidates.has(module)) loaded.add(module);
    }
    for (const name of links.names ?? []) nameLoads(name, importer);
    for (const names of Object.values(links.classes ?? {})) for (const name of names) nameLoads(name, importer);
  }
  return loaded;
}

/** The two links give classes the same names (a lint again of the same text, with other hot entries, does). */
function sameNaming(a: ModuleLinks | undefined, b: ModuleLinks | undefined): boolean {
  const same = (x: readonly string[] | undefined, y: readonly string[] | undefined) => (x ?? []).length === (y ?? []).length && (x ?? []).every((each, i) => each === y![i]);
  if (!a || !b) return a === b;
  if (!same(a.names, b.names) || !same(a.importedModules, b.importedModules) || !same(a.searchPaths, b.searchPaths)) return false;
  const classes = Object.keys(a.classes ?? {});
  return same(classes, Object.keys(b.classes ?? {})) && classes.every((name) => same(a.classes![name], b.classes![name]));
}

/**
 * What a project's texts that are not linted say (configs, docs, launch scripts: `projectTextsOutside`); the lints
 * of the linted files say the same of them (`ModuleLinks`).
 */
export interface TextsOutside {
  /** Their class-like names (`classLikeNames`): a config's `target: src.nets.OldNet`, a launch script's `--head Head`. */
  names: ReadonlySet<string>;
  /** One of them mentions a device: a config's `device: cuda`, a README's GPUs. */
  deviceMentioned: boolean;
}

export interface ProjectLintRequest {
  file: string;
  entries?: HotEntries;
}

/**
 * What the project knows of its files' hot calls into each other: each file's links as last linted, and the
 * hot entries each file was last linted with. Files are absolute paths. `outside`: what the project's texts that
 * are not linted say; without it, no class is taken for unreferenced and no project for host-only (the files
 * linted are not known to be the whole project).
 */
export class ProjectHotPaths {
  private modules: ProjectModules;
  private readonly links = new Map<string, ModuleLinks>();
  private readonly entries = new Map<string, { key: string; entries: HotEntries }>();
  /** `unreferencedClassesOf` the links, until a file's names change. */
  private unreferenced: Map<string, string[]> | undefined;

  constructor(
    private files: readonly string[],
    private outside?: TextsOutside,
  ) {
    this.modules = new ProjectModules(files);
  }

  /** The project's files changed (created, deleted): imports may name other files now, and configs other classes. */
  setFiles(files: readonly string[], outside?: TextsOutside): void {
    this.files = files;
    this.outside = outside;
    this.modules = new ProjectModules(files);
    this.unreferenced = undefined;
    const kept = new Set(files);
    for (const file of [...this.links.keys()]) if (!kept.has(file)) this.links.delete(file);
  }

  /** A file's links, as its last lint found them (none for a file that could not be linted). */
  record(file: string, links: ModuleLinks | undefined): void {
    if (!sameNaming(this.links.get(file), links)) this.unreferenced = undefined;
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
      if (this.outside) this.unreferenced ??= unreferencedClassesOf(this.links, this.modules, this.outside.names);
      const entriesByFile = hotEntriesOf(this.links, this.modules, this.unreferenced, !!this.outside && isHostOnly(this.links, this.outside));
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
 * from hot paths, or whose classes nothing names (`ProjectHotPaths.propagate`). Returns the last result of each file.
 */
export async function lintProject<Result extends { links?: ModuleLinks }>(
  files: readonly string[],
  lint: (requests: ProjectLintRequest[]) => Promise<Map<string, Result>>,
  outside?: TextsOutside,
): Promise<Map<string, Result>> {
  const project = new ProjectHotPaths(files, outside);
  const results = await lint(files.map((file) => ({ file })));
  results.forEach((result, file) => project.record(file, result.links));
  await project.propagate(async (requests) => {
    const again = await lint(requests);
    again.forEach((result, file) => results.set(file, result));
    return again;
  });
  return results;
}
