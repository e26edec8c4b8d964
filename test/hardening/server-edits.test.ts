/** (c) Random incremental edits through the real server process over stdio: diagnostics equal a fresh lint. */
import * as assert from "assert";
import { initParser } from "synclint-rules";
import { TestClient } from "../server/lsp-client";
import { editArbitrary, fc, programArbitrary } from "./properties";
import { SETTLING_OPTIONS, checkServerEdits } from "./server-stdio";

describe("hardening: incremental edits through the server over stdio (seeded)", function () {
  this.timeout(60000);
  let client: TestClient | undefined;
  before(async () => {
    await initParser();
  });
  afterEach(() => client?.kill());

  for (const encoding of ["utf-16", "utf-8", "utf-32"] as const) {
    it(`final diagnostics equal a fresh lint after random edit sequences (${encoding})`, async () => {
      client = new TestClient();
      const init = await client.initialize({ general: { positionEncodings: [encoding] } }, null, SETTLING_OPTIONS);
      assert.strictEqual(init.capabilities.positionEncoding, encoding);
      const c = client;
      let nonEmpty = 0;
      await fc.assert(
        fc.asyncProperty(programArbitrary, fc.array(editArbitrary, { minLength: 1, maxLength: 10 }), async (text, edits) => {
          if ((await checkServerEdits(c, encoding, text, edits)) > 0) nonEmpty++;
        }),
        { seed: 7 + encoding.length, numRuns: 60, endOnFailure: true },
      );
      assert.ok(nonEmpty > 5, `only ${nonEmpty} sequences ended with diagnostics to compare`);
      assert.strictEqual(await client.shutdown(), 0);
    });
  }
});
