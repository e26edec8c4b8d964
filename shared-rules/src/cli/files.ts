/**
 * Which files to lint: Python files under the given paths, skipping what `.gitignore` files and the
 * configuration's `exclude` say, version-control and virtual-environment folders, and the copies of the code
 * that training runs save beside their outputs, and never following symlinked folders (so a symlink loop cannot
 * trap the walk).
 */
import * as fs from "fs";
import * as path from "path";
import ignore, { Ignore } from "ignore";
import { classLikeNames } from "../analysis/class-names";
import { mentionsADevice } from "../analysis/names";
import type { TextsOutside } from "../project";

const PYTHON_FILE = /\.pyi?$/;
const SKIPPED_FOLDERS = new Set([".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".synclint_cache", "site-packages", "__pypackages__"]);

/**
 * Folders where training runs write their outputs, and often a copy of the code that ran: Pointnet's
 * `log/<task>/<run>/pointnet2_utils.py`, wandb's `wandb/run-<id>/files/code/train.py`.
 */
const RUN_OUTPUT_FOLDER = /^(logs?|runs|outputs?|wandb|mlruns|lightning_logs|checkpoints?|ckpts?|snapshots?)$/i;

export interface CollectedFiles {
  files: string[];
  /** Paths given on the command line that do not exist. */
  missing: string[];
  /** The walk stopped at `maxFolders` folders: `files` is incomplete. */
  truncated?: boolean;
}

/** Texts that may name a class the project's Python code builds: configs, scripts, notebooks, docs. */
const NAMING_FILE = /\.(ya?ml|json|jsonnet|toml|cfg|ini|conf|gin|sh|bash|zsh|md|rst|txt|ipynb|pyi?)$/i;
/** Bigger files are data (annotations, vocabularies), not configs: their names are not read. */
const MAX_NAMING_FILE_BYTES = 2 << 20;
/** What marks a project's root folder. */
const PROJECT_MARKERS = [".git", "pyproject.toml", "setup.py", "setup.cfg"];
/** The most folders walked for a project's names (a home folder under version control is no project). */
const MAX_NAMING_FOLDERS = 20000;

/**
 * The files of the projects that `paths` lie in whose text may name a class: Python files and configs, scripts,
 * notebooks and docs, under each path's project root (the nearest folder above it with `.git`, `pyproject.toml`,
 * `setup.py` or `setup.cfg`; a folder given with none above it is its own root). Undefined when some path
 * lies in no project (a file with no root above it) or a root is too large to walk: then the files linted are
 * not known to be their project, and no class may be taken for unreferenced.
 */
export function projectNamingFiles(paths: string[]): string[] | undefined {
  const roots = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(given);
    let isDirectory: boolean;
    try {
      isDirectory = fs.statSync(absolute).isDirectory();
    } catch {
      continue;
    }
    const root = projectRootAbove(isDirectory ? absolute : path.dirname(absolute)) ?? (isDirectory ? absolute : undefined);
    if (!root) return undefined;
    roots.add(root);
  }
  const found = new Set<string>();
  const budget = { folders: MAX_NAMING_FOLDERS };
  for (const root of [...roots].sort()) if (!walk(root, gitIgnoreLayersAbove(root), found, budget, NAMING_FILE)) return undefined;
  return [...found].sort();
}

function projectRootAbove(directory: string): string | undefined {
  for (let current = directory; ; current = path.dirname(current)) {
    if (PROJECT_MARKERS.some((marker) => fs.existsSync(path.join(current, marker)))) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * What the projects of `paths` say in their texts other than the `linted` files (`projectNamingFiles`), whose
 * lints say it of themselves; undefined when the paths are not known to be whole projects.
 */
export function projectTextsOutside(paths: readonly string[], linted: readonly string[]): TextsOutside | undefined {
  const naming = paths.length > 0 ? projectNamingFiles([...paths]) : undefined;
  if (!naming) return undefined;
  const lintedFiles = new Set(linted);
  return textsOf(naming.filter((file) => !lintedFiles.has(file)));
}

/** What `files` say (`TextsOutside`), each read if it is small enough to be a config or code. */
export function textsOf(files: Iterable<string>): TextsOutside {
  const names = new Set<string>();
  let deviceMentioned = false;
  for (const file of files) {
    let text: string;
    try {
      if (fs.statSync(file).size > MAX_NAMING_FILE_BYTES) continue;
      text = fs.readFileSync(file, "latin1");
    } catch {
      continue; // unreadable: it says nothing
    }
    for (const name of classLikeNames(text)) names.add(name);
    deviceMentioned ||= mentionsADevice(text);
  }
  return { names, deviceMentioned };
}

interface GitIgnoreLayer {
  base: string;
  matcher: Ignore;
}

/** `maxFolders`: stop after walking this many folders (the editor's background index must not walk a home folder). */
export function collectPythonFiles(paths: string[], maxFolders = Infinity): CollectedFiles {
  const files = new Set<string>();
  const missing: string[] = [];
  const budget = { folders: maxFolders };
  for (const given of paths) {
    const absolute = path.resolve(given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      missing.push(given);
      continue;
    }
    // A file named on the command line is linted even if ignored, as ruff and ESLint do.
    if (stat.isFile()) files.add(absolute);
    else if (stat.isDirectory()) {
      const found = new Set<string>();
      const complete = walk(absolute, gitIgnoreLayersAbove(absolute), found, budget);
      for (const file of withoutRunSnapshots(found, absolute)) files.add(file);
      if (!complete) return { files: [...files].sort(), missing, truncated: true };
    }
  }
  return { files: [...files].sort(), missing };
}

/**
 * The files found under `root` less the copies of the project's code saved with a run's outputs: a file under a
 * run-output folder (below `root`) named like a file outside any such folder. Nothing imports or runs them, and
 * each would repeat the findings of the file it copies.
 */
function withoutRunSnapshots(found: Set<string>, root: string): string[] {
  const inRunOutput = (file: string) => path.relative(root, path.dirname(file)).split(path.sep).some((folder) => RUN_OUTPUT_FOLDER.test(folder));
  const sourceNames = new Set<string>();
  for (const file of found) if (!inRunOutput(file)) sourceNames.add(path.basename(file));
  return [...found].filter((file) => !sourceNames.has(path.basename(file)) || !inRunOutput(file));
}

function gitIgnoreLayersAbove(directory: string): GitIgnoreLayer[] {
  const layers: GitIgnoreLayer[] = [];
  // A repository's root is not subject to the ignore files of a repository around it.
  if (fs.existsSync(path.join(directory, ".git"))) return layers;
  let current = path.dirname(directory);
  for (;;) {
    const layer = readGitIgnore(current);
    if (layer) layers.unshift(layer);
    if (fs.existsSync(path.join(current, ".git"))) break;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return layers;
}

function readGitIgnore(directory: string): GitIgnoreLayer | undefined {
  try {
    const text = fs.readFileSync(path.join(directory, ".gitignore"), "utf8");
    return { base: directory, matcher: ignore().add(text) };
  } catch {
    return undefined;
  }
}

function isIgnored(absolute: string, isDirectory: boolean, layers: GitIgnoreLayer[]): boolean {
  for (const layer of layers) {
    const relative = path.relative(layer.base, absolute).split(path.sep).join("/");
    if (!relative || relative.startsWith("..")) continue;
    if (layer.matcher.ignores(isDirectory ? `${relative}/` : relative)) return true;
  }
  return false;
}

/** False when the folder budget ran out before the walk ended. `wanted`: the file names collected. */
function walk(root: string, inherited: GitIgnoreLayer[], files: Set<string>, budget: { folders: number }, wanted = PYTHON_FILE): boolean {
  const stack: Array<{ directory: string; layers: GitIgnoreLayer[] }> = [{ directory: root, layers: inherited }];
  while (stack.length > 0) {
    if (--budget.folders < 0) return false;
    const { directory, layers: parentLayers } = stack.pop()!;
    const own = readGitIgnore(directory);
    const layers = own ? [...parentLayers, own] : parentLayers;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: nothing to lint there
    }
    for (const entry of entries) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name) || isIgnored(absolute, true, layers)) continue;
        stack.push({ directory: absolute, layers });
      } else if ((entry.isFile() || entry.isSymbolicLink()) && wanted.test(entry.name)) {
        if (entry.isSymbolicLink()) {
          try {
            if (!fs.statSync(absolute).isFile()) continue;
          } catch {
            continue; // dangling link
          }
        }
        if (!isIgnored(absolute, false, layers)) files.add(absolute);
      }
    }
  }
  return true;
}
