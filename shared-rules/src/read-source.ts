/**
 * Reading a file as Python source: size limit, binary detection, BOMs, PEP 263 coding declarations,
 * invalid UTF-8 with its location. Never throws: every failure becomes a one-line reason.
 */
import * as fs from "fs";

export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export type SourceFile = { ok: true; text: string } | { ok: false; reason: string; line?: number; column?: number };

export function readSourceFile(filePath: string): SourceFile {
  let bytes: Buffer;
  try {
    const stat = fs.statSync(filePath);
    if (!stat.isFile()) return { ok: false, reason: "not a regular file" };
    if (stat.size > MAX_FILE_BYTES) return { ok: false, reason: `file skipped: ${(stat.size / 1048576).toFixed(1)} MB is over the ${MAX_FILE_BYTES / 1048576} MB limit` };
    bytes = fs.readFileSync(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "file disappeared before it could be read" : code === "EACCES" ? "permission denied" : (error as Error).message;
    return { ok: false, reason: `cannot read file: ${reason}` };
  }
  return decodeSource(bytes);
}

export function decodeSource(bytes: Uint8Array): SourceFile {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)))
    return { ok: false, reason: "file skipped: UTF-16 encoded; Python source must be UTF-8 (or declare a PEP 263 encoding)" };
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) return { ok: false, reason: "file skipped: binary content (NUL bytes)" };
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const body = bytes.subarray(start);
  const declared = start === 0 ? declaredEncoding(body) : undefined;
  if (declared && !/^utf[-_]?8(-sig)?$/i.test(declared)) {
    // Python's latin-1 is ISO-8859-1 proper; the WHATWG decoder would read it as windows-1252.
    if (/^(latin[-_]?1|iso[-_]?8859[-_]?1|l1|cp819)$/i.test(declared)) return { ok: true, text: Buffer.from(body).toString("latin1") };
    try {
      return { ok: true, text: new TextDecoder(declared.replace(/_/g, "-"), { fatal: true }).decode(body) };
    } catch {
      // Unknown label or undecodable bytes: fall through to UTF-8 and its located error.
    }
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(body) };
  } catch {
    const offset = firstInvalidUtf8(body);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) if (body[i] === 10) {
      line++;
      lineStart = i + 1;
    }
    const column = new TextDecoder("utf-8").decode(body.subarray(lineStart, offset)).length + 1;
    return { ok: false, reason: `file skipped: invalid UTF-8 at line ${line}, column ${column} (byte ${offset + start})`, line, column };
  }
}

/** PEP 263: `# -*- coding: latin-1 -*-` on line 1 or 2. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 512)).toString("latin1").split(/\r?\n/).slice(0, 2);
  for (const line of head) {
    const match = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/.exec(line);
    if (match) return match[1];
    if (!/^[ \t\f]*(#.*)?$/.test(line)) break;
  }
  return undefined;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i];
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte < 0xe0 ? 2 : byte >= 0xe0 && byte < 0xf0 ? 3 : byte >= 0xf0 && byte < 0xf5 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    if (length === 3) {
      const code = ((byte & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6);
      if (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)) return i;
    }
    if (length === 4) {
      const code = ((byte & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12);
      if (code < 0x10000 || code > 0x10ffff) return i;
    }
    i += length;
  }
  return bytes.length;
}
