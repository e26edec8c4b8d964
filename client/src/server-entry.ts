/**
 * Entry point of the bundled language server (`dist/server.js` in the `.vsix`).
 *
 * The bundle has no `node_modules`, so the parser cannot find its `.wasm` files by module resolution; the bundling
 * script copies `tree-sitter.wasm` and `tree-sitter-python.wasm` beside this file. `initParser` keeps the first
 * call's promise, so starting it here with `wasmDirectory` makes the server's own `initParser()` (in `initialize`)
 * use these files. The server code itself is unchanged.
 */
import { initParser } from "synclint-rules";

const wasmDirectory = process.env.SYNCLINT_WASM_DIR || __dirname;
initParser({ wasmDirectory }).catch((error: unknown) => {
  // The server's `initialize` awaits the same promise and reports the failure to the client.
  process.stderr.write(`synclint: could not load the parser from ${wasmDirectory}: ${error instanceof Error ? error.message : String(error)}\n`);
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
require("../../server/out/main.js");
