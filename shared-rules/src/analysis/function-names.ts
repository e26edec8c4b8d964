/**
 * Which functions a project never uses. A sampling loop of a vendored diffusion class that no file calls
 * (`ddim_sample_loop_progressive`, `calc_bpd_loop` in a copy of guided-diffusion's `GaussianDiffusion`) has a
 * step loop of its own, and would be reported as if it ran. Each file tells the project its functions that it
 * names nowhere but in their definitions (`unnamedFunctions`) and the hashes of the identifiers its text holds
 * (`identifierHashes`: a collision keeps a function, never drops one); the project (`project.ts`) finds the
 * functions no other file or config names either.
 *
 * Only what nothing outside calls by convention: no decorated function, no dunder or hook-like name, no method of
 * a class with bases (a library may call its overrides), and no file that looks names up at run time
 * (`getattr`, `globals()`, `fire.Fire`).
 */
import { SyntaxNode, childByField } from "../syntax";

const IDENTIFIER = /\b[A-Za-z_][A-Za-z0-9_]*/g;
/** Names that frameworks, entry points and conventions call without naming them in the project. */
const CALLED_BY_CONVENTION = /^(__\w+__|main|run|forward|step|\w+_step|on_\w+|setup|configure_\w+|compute_loss|optimize_parameters|set_input|feed_data|test_\w+|\w+_test)$/;
/** Run-time lookups of names: a function looked up so is named where the lookup's string is built. */
const DYNAMIC_LOOKUP = /\bgetattr\s*\(|\bglobals\s*\(\s*\)|\blocals\s*\(\s*\)|\b__dict__\b|\bfire\.Fire\b|\beval\s*\(/;

/**
 * The file's functions that it names only in their own definitions, by the name another file would call them
 * by (`sample`, `GaussianDiffusion.calc_bpd_loop`).
 */
export function unnamedFunctions(root: SyntaxNode, text: string): string[] {
  if (DYNAMIC_LOOKUP.test(text)) return [];
  const candidates: Array<{ name: string; key: string; node: SyntaxNode }> = [];
  for (const statement of root.children) {
    if (statement.type === "function_definition") {
      const name = nameOf(statement, text);
      if (name) candidates.push({ name, key: name, node: statement });
    }
    if (statement.type !== "class_definition" || childByField(statement, "superclasses")?.children.some((base) => text.slice(base.start, base.end) !== "object")) continue;
    const className = nameOf(statement, text);
    for (const member of childByField(statement, "body")?.children ?? []) {
      const name = member.type === "function_definition" ? nameOf(member, text) : undefined;
      if (className && name) candidates.push({ name, key: `${className}.${name}`, node: member });
    }
  }
  return candidates
    .filter(({ name, node }) => {
      if (CALLED_BY_CONVENTION.test(name)) return false;
      for (const match of text.matchAll(new RegExp(`\\b${name}\\b`, "g"))) if (match.index! < node.start || match.index! >= node.end) return false;
      return true;
    })
    .map(({ key }) => key);
}

function nameOf(definition: SyntaxNode, text: string): string | undefined {
  const name = childByField(definition, "name");
  return name ? text.slice(name.start, name.end) : undefined;
}

/** The text's distinct identifiers as 32-bit hashes (FNV-1a), sorted, base64: 4 bytes a name, and one in 2^32 collides. */
export function identifierHashes(text: string): string {
  const hashes = new Uint32Array([...new Set(text.match(IDENTIFIER))].map(hashOf)).sort();
  return Buffer.from(hashes.buffer).toString("base64");
}

export function decodeHashes(encoded: string): Uint32Array {
  const bytes = Buffer.from(encoded, "base64");
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 4)));
}

export function hashOf(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** The identifiers in a text read only for its names (a config, a script). */
export function identifiersIn(text: string): string[] {
  return [...new Set(text.match(IDENTIFIER))];
}
