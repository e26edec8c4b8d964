/** Fixing files on disk for the CLI: read, fix (or add suppressions), write back only what round-trips. */
import * as fs from "fs";
import { ResolvedConfig } from "../config";
import { lintSource } from "../lint";
import { parseSyntaxTree } from "../syntax";
import { decodeSource } from "../read-source";
import { applyEdits, applyFixes, parsesCleanly, ApplyFixesResult } from "./apply";
import { noqaEdits } from "./noqa";
import type { HotEntries } from "../analysis/cross-file";

export interface FileText {
  text: string;
  /** The file can be written back as UTF-8 (it is UTF-8, with or without a BOM). */
  writable: boolean;
  bom: boolean;
}

export function readFileText(filePath: string): FileText | { error: string } {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(filePath);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const decoded = decodeSource(bytes);
  if (!decoded.ok) return { error: decoded.reason };
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  return { text: decoded.text, bom, writable: Buffer.from(decoded.text, "utf8").equals(body) };
}

export function writeFileText(filePath: string, file: FileText, text: string): void {
  fs.writeFileSync(filePath, (file.bom ? "\ufeff" : "") + text, "utf8");
}

/** `hotEntries`: the file's functions that other files call from hot paths (`project.ts`). */
export function fixText(text: string, filePath: string, config: ResolvedConfig, unsafe: boolean, hotEntries?: HotEntries): ApplyFixesResult {
  return applyFixes(text, { filePath, config, unsafe, hotEntries });
}

/** The text with a `# synclint: ignore[rule]` comment on every finding's line, and how many lines got one. */
export function addNoqaToText(text: string, filePath: string, config: ResolvedConfig, hotEntries?: HotEntries): { text: string; added: number } {
  const result = lintSource(text, { filePath, config, hotEntries });
  if (result.findings.length === 0 || !parsesCleanly(text)) return { text, added: 0 };
  const root = parseSyntaxTree(text).root;
  const edits = noqaEdits(text, root, result.findings);
  const next = applyEdits(text, edits);
  if (!parsesCleanly(next)) return { text, added: 0 };
  return { text: next, added: edits.length };
}
