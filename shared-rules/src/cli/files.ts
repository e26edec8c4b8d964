/**
 * Which files to lint: Python files under the given paths, skipping what `.gitignore` files and the
 * configuration's `exclude` say, version-control and virtual-environment folders, and never following
 * symlinked folders (so a symlink loop cannot trap the walk).
 */
import * as fs from "fs";
import * as path from "path";
import ignore, { Ignore } from "ignore";

const SKIPPED_FOLDERS = new Set([".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".synclint_cache", "site-packages", "__pypackages__"]);

export interface CollectedFiles {
  files: string[];
  /** Paths given on the command line that do not exist. */
  missing: string[];
  /** The walk stopped at `maxFolders` folders: `files` is incomplete. */
  truncated?: boolean;
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
    else if (stat.isDirectory() && !walk(absolute, gitIgnoreLayersAbove(absolute), files, budget)) return { files: [...files].sort(), missing, truncated: true };
  }
  return { files: [...files].sort(), missing };
}

function gitIgnoreLayersAbove(directory: string): GitIgnoreLayer[] {
  const layers: GitIgnoreLayer[] = [];
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

/** False when the folder budget ran out before the walk ended. */
function walk(root: string, inherited: GitIgnoreLayer[], files: Set<string>, budget: { folders: number }): boolean {
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
      } else if ((entry.isFile() || entry.isSymbolicLink()) && /\.pyi?$/.test(entry.name)) {
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
