/**
 * Fix properties for the host-read value-selection fixes: on random step loops, applying every fix yields text
 * that parses and compiles, and fixing it again changes nothing (`npm run fuzz` runs many more cases).
 */
import * as assert from "assert";
import { initParser } from "synclint-rules";
import { checkFixes, fc } from "./properties";
import { valueSelectProgramArbitrary } from "./value-select-programs";

describe("hardening: value-selection fix properties (seeded)", function () {
  this.timeout(120000);
  before(() => initParser());

  it("fixing loops with torch.where / clamp / periodic-check candidates yields compilable text, and fixing again is a no-op", () => {
    let changed = 0;
    fc.assert(
      fc.property(valueSelectProgramArbitrary, (text) => {
        if (checkFixes(text, true)) changed++;
      }),
      { seed: 20261129, numRuns: 40, endOnFailure: true },
    );
    assert.ok(changed > 20, `only ${changed} of 40 programs were changed by fixes`);
  });
});
