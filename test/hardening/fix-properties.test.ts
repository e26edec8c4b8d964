/**
 * Fix properties: on random programs, applying every fix (safe and suggestions) yields text that parses without
 * ERROR/MISSING nodes and compiles with CPython, and fixing the result again changes nothing.
 */
import * as assert from "assert";
import { initParser } from "synclint-rules";
import { checkFixes, fc, fixableProgramArbitrary, programArbitrary } from "./properties";

const SEED = 20261129;

describe("hardening: fix properties (seeded)", function () {
  this.timeout(120000);
  before(() => initParser());

  it("fixing training loops yields parseable, compilable text, and fixing again is a no-op", () => {
    let changed = 0;
    fc.assert(
      fc.property(fixableProgramArbitrary, (text) => {
        if (checkFixes(text, true)) changed++;
      }),
      { seed: SEED, numRuns: 60, endOnFailure: true },
    );
    assert.ok(changed > 30, `only ${changed} of 60 programs were changed by fixes`);
  });

  it("fixing arbitrary grammar programs never breaks parsing and is idempotent", () => {
    fc.assert(
      fc.property(programArbitrary, (text) => void checkFixes(text)),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );
  });
});
