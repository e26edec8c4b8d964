/** The real server over stdio, driven by random edit sequences (shared by the tests and `npm run fuzz`). */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { TestClient } from "../server/lsp-client";
import { EditSession, EditSpec, Encoding, clampDiagnostics, expectedDiagnostics, lspPosition, simplify } from "./properties";

export const stdioDir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-hardening-lsp-"));
let counter = 0;

/** Initialization options that make the server say when diagnostics are final, and settle without waiting. */
export const SETTLING_OPTIONS = { reportTimings: true, settleDelayMs: 0 };

/**
 * Opens a fresh document, applies the edits as didChange notifications, compares the final diagnostics. The
 * client must be initialized with `SETTLING_OPTIONS`.
 */
export async function checkServerEdits(client: TestClient, encoding: Encoding, initial: string, specs: EditSpec[]): Promise<number> {
  const name = `doc${counter++}.py`;
  const uri = pathToFileURL(path.join(stdioDir, name)).href;
  const session = new EditSession(initial);
  await client.open(uri, initial);
  let version = 1;
  for (let i = 0; i < specs.length; ) {
    const batch: unknown[] = [];
    const count = 1 + (i % 3);
    for (let k = 0; k < count && i < specs.length; k++, i++) {
      const before = session.text;
      const edit = session.next(specs[i]);
      if (edit.full) batch.push({ text: edit.text });
      else batch.push({ range: { start: lspPosition(before, edit.start, encoding), end: lspPosition(before, edit.end, encoding) }, text: edit.text });
    }
    await client.change(uri, ++version, batch);
  }
  const published = await client.settledDiagnostics(uri, version);
  const want = expectedDiagnostics(session.text, path.join(stdioDir, name), encoding);
  const got = clampDiagnostics(session.text, simplify(published.diagnostics), encoding);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`diagnostics differ from a fresh lint (${encoding})\n text ${JSON.stringify(session.text.slice(0, 500))}\n got  ${JSON.stringify(got).slice(0, 800)}\n want ${JSON.stringify(want).slice(0, 800)}`);
  }
  await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  return want.length;
}
