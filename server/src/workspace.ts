/**
 * Files on disk (not open in the editor): which Python files a workspace holds (the CLI's collection, with
 * `.gitignore` respected), and their diagnostics from a lint of the file as read by the CLI (size limit, binary
 * detection, encodings), with the configuration's `exclude` applied and the hot entries the workspace gives it.
 */
import * as fs from "fs";
import { lintSource } from "synclint-rules";
import type { HotEntries, PositionEncoding } from "synclint-rules";
import { collectPythonFiles } from "synclint-rules/out/cli/files";
import { readSourceFile } from "synclint-rules/out/read-source";
import { Diagnostic, DiagnosticSeverity } from "vscode-languageserver";
import type { Configuration } from "./configuration";
import { SOURCE, toDiagnostics } from "./diagnostics";

export const FILE_SKIPPED = "file-skipped";

/** Python files under the folders, sorted and without duplicates. */
export function workspaceFiles(folders: readonly string[]): string[] {
  if (folders.length === 0) return [];
  return collectPythonFiles([...folders]).files;
}

/** The most folders the background index walks: beyond that the workspace is not a project (a home folder, say). */
export const MAX_INDEXED_FOLDERS = 20000;

/** `workspaceFiles` for the background index: undefined when the folders hold more than MAX_INDEXED_FOLDERS folders. */
export function indexableFiles(folders: readonly string[]): string[] | undefined {
  if (folders.length === 0) return [];
  const collected = collectPythonFiles([...folders], MAX_INDEXED_FOLDERS);
  return collected.truncated ? undefined : collected.files;
}

/** One informational diagnostic saying why a file is not analysed (1-based line and column when known). */
export function skippedDiagnostic(reason: string, line = 1, column = 1): Diagnostic {
  const position = { line: Math.max(0, line - 1), character: Math.max(0, column - 1) };
  return { range: { start: position, end: position }, severity: DiagnosticSeverity.Information, code: FILE_SKIPPED, source: SOURCE, message: reason };
}

/**
 * The diagnostics of a file on disk; undefined when the configuration excludes it. Positions are converted in
 * `encoding` from the text as decoded. Never throws for a file that cannot be read: that is a diagnostic.
 */
export function lintFileOnDisk(file: string, configuration: Configuration, encoding: PositionEncoding, hotEntries?: HotEntries): Diagnostic[] | undefined {
  const { config } = configuration.forFile(file);
  if (configuration.excludes(file, config)) return undefined;
  const source = readSourceFile(file);
  if (!source.ok) return [skippedDiagnostic(source.reason, source.line, source.column)];
  const result = lintSource(source.text, { filePath: file, config, hotEntries });
  return toDiagnostics(result, encoding);
}

/** A cheap identity of a file's content on disk, for `workspace/diagnostic` result ids. */
export function diskStamp(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return undefined;
  }
}
