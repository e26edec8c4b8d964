/**
 * Which classes a project never names. The `forward` of a class that no file builds, subclasses, imports or
 * names in a config does not run: a vendored model, a loss kept beside the one in use, a quantizer of a
 * variant the project dropped. Each file tells the project the class-like names its text holds, those in the
 * bodies of its classes apart (`namesOfClasses`); the project (`project.ts`) finds the classes that nothing
 * outside an unused class names (`unusedClasses`), and lints their files again with them as unreferenced.
 *
 * A name counts wherever it is written (code, strings, comments, configs): a class built from a registry's
 * string, an `__all__`, a YAML `target:` or a shell script's `--model UNet` is named there, and one mention
 * is enough to keep it. A decorated class (`@MODELS.register_module()`) is registered where it is defined.
 */
import { SyntaxNode, childByField } from "../syntax";
import { isProjectTarget } from "./cross-file";

/**
 * An identifier that may name a class: it starts with a capital letter (after underscores), or with a lowercase
 * word before one (`aLRPLoss`, YOLOv7's unused `autograd.Function`).
 */
const CLASS_LIKE_NAME = /\b_*(?:[A-Z]|[a-z]+[A-Z])[A-Za-z0-9_]*/g;
const CLASS_LIKE_START = /^_*(?:[A-Z]|[a-z]+[A-Z])/;

export interface NamesOfClasses {
  /** The class-like names the text holds outside its classes' bodies (and in the bodies of classes never taken for unused), sorted. */
  names: string[];
  /**
   * Per top-level, undecorated class with a class-like name, the names its definition holds (its mentions of
   * itself left out): they are used only if the class is.
   */
  classes: Record<string, string[]>;
  /** The project modules the file imports (`importedModules`): a class no file names is taken for unused only in an imported module. */
  importedModules: string[];
}

/** The class-like names in a text that defines no class (a config, a script read only for its names). */
export function classLikeNames(text: string): string[] {
  return [...new Set(text.match(CLASS_LIKE_NAME))];
}

export function namesOfClasses(root: SyntaxNode, text: string): NamesOfClasses {
  const definitions: Array<{ name: string; node: SyntaxNode }> = [];
  const seen = new Map<string, number>();
  for (const statement of root.children) {
    if (statement.type !== "class_definition") continue;
    const nameNode = childByField(statement, "name");
    const name = nameNode ? text.slice(nameNode.start, nameNode.end) : "";
    if (!CLASS_LIKE_START.test(name)) continue;
    seen.set(name, (seen.get(name) ?? 0) + 1);
    definitions.push({ name, node: statement });
  }
  // A class defined twice (one definition per Python version, say) is left alone.
  const candidates = definitions.filter(({ name }) => seen.get(name) === 1);
  const outside = new Set<string>();
  const inside = new Map<string, Set<string>>(candidates.map(({ name }) => [name, new Set<string>()]));
  let next = 0;
  for (const match of text.matchAll(CLASS_LIKE_NAME)) {
    const at = match.index!;
    while (next < candidates.length && candidates[next].node.end <= at) next++;
    const definition = next < candidates.length && candidates[next].node.start <= at ? candidates[next] : undefined;
    // A class's mentions of itself (`super(Net, self).__init__()`, its docstring) do not make it used.
    if (definition?.name === match[0]) continue;
    (definition ? inside.get(definition.name)! : outside).add(match[0]);
  }
  return {
    names: [...outside].sort(),
    classes: Object.fromEntries([...inside].map(([name, names]) => [name, [...names].sort()])),
    importedModules: importedModules(text).filter(isProjectTarget).sort(),
  };
}

const FROM_IMPORT = /[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)/y;
const PLAIN_IMPORT = /[ \t]*import[ \t]+([^\n#;]*)/y;

/**
 * The matches of a sticky `pattern` that start a line, as `/^.../gm` finds them: only a line with `import` on it
 * can start an import, so the search jumps from one such line to the next (a multiline `^` is tried at every
 * offset of the text, and this runs on every file).
 */
function* importsAtLineStarts(text: string, pattern: RegExp): Generator<RegExpExecArray> {
  for (let at = text.indexOf("import"); at >= 0; ) {
    const lineStart = text.lastIndexOf("\n", at) + 1;
    pattern.lastIndex = lineStart;
    const match = pattern.exec(text);
    if (match) yield match;
    // The next line that the match does not reach into (a parenthesized list of names spans lines).
    const next = text.indexOf("\n", match ? Math.max(lineStart + match[0].length, at) : at) + 1;
    if (next === 0) return;
    at = text.indexOf("import", next);
  }
}

/**
 * The modules the text imports, anywhere (a function's lazy import too), as dotted names: `sgm.util`,
 * `.quantize.VectorQuantizer` (what a `from` import names may be a module: `from . import quantize`).
 */
export function importedModules(text: string): string[] {
  const modules = new Set<string>();
  const names = (list: string) =>
    list
      .replace(/[()\\]/g, " ")
      .split(",")
      .map((each) => each.trim().split(/\s+as\s+/)[0].trim())
      .filter((each) => /^[\w.]+$/.test(each));
  for (const match of importsAtLineStarts(text, FROM_IMPORT)) {
    const module = match[1];
    if (/\w/.test(module)) modules.add(module);
    for (const name of names(match[2])) modules.add(module.endsWith(".") ? `${module}${name}` : `${module}.${name}`);
  }
  for (const match of importsAtLineStarts(text, PLAIN_IMPORT)) for (const name of names(match[1])) modules.add(name);
  return [...modules];
}

/**
 * The classes of `classesByFile` that nothing uses: a class is used when a name outside any class's body
 * (`namesOutside`) or in a used class's body names it, and only then are its own body's names uses.
 */
export function unusedClasses(classesByFile: ReadonlyMap<string, Readonly<Record<string, readonly string[]>>>, namesOutside: Iterable<string>): Map<string, string[]> {
  const bodies = new Map<string, Array<readonly string[]>>();
  for (const classes of classesByFile.values()) for (const [name, names] of Object.entries(classes)) (bodies.get(name) ?? bodies.set(name, []).get(name)!).push(names);
  const used = new Set<string>();
  const pending = [...namesOutside];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    for (const names of bodies.get(name) ?? []) for (const each of names) if (!used.has(each)) pending.push(each);
  }
  const result = new Map<string, string[]>();
  for (const [file, classes] of classesByFile) {
    const unused = Object.keys(classes).filter((name) => !used.has(name));
    if (unused.length > 0) result.set(file, unused);
  }
  return result;
}
