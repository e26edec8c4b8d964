/**
 * What the server refuses to analyse live: documents over the CLI's size limit (read-source's MAX_FILE_BYTES)
 * and binary junk (NUL bytes, which Python itself rejects in source). Such a document gets one informational
 * diagnostic instead of a parse, so it can never stall the server.
 */
import { MAX_FILE_BYTES } from "synclint-rules/out/read-source";

export { MAX_FILE_BYTES };

/** Why `text` is not analysed, or undefined when it is. Cheap: no UTF-8 encoding unless the size is close. */
export function skipReason(text: string): string | undefined {
  // UTF-8 never takes fewer bytes than UTF-16 code units, nor more than three per unit.
  if (text.length > MAX_FILE_BYTES || (text.length * 3 > MAX_FILE_BYTES && Buffer.byteLength(text, "utf8") > MAX_FILE_BYTES)) {
    const bytes = text.length > MAX_FILE_BYTES ? Math.max(text.length, MAX_FILE_BYTES + 1) : Buffer.byteLength(text, "utf8");
    return `file skipped: ${(bytes / 1048576).toFixed(1)} MB is over the ${MAX_FILE_BYTES / 1048576} MB limit`;
  }
  if (text.includes("\0")) return "file skipped: binary content (NUL bytes)";
  return undefined;
}
