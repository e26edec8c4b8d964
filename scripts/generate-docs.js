#!/usr/bin/env node
/**
 * Writes docs/rules.md and the README's rule table from the rules' metadata (`npm run docs`).
 * With --check, exits 1 if either is out of date (used by the tests).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { allRuleDocumentation, ruleTable } = require("../shared-rules/out/docs.js");

const root = path.join(__dirname, "..");
const check = process.argv.includes("--check");
const START = "<!-- rules:start -->";
const END = "<!-- rules:end -->";

function expectedReadme(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`README.md lacks the ${START} / ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n${ruleTable()}\n${readme.slice(end)}`;
}

const targets = [
  { file: path.join(root, "docs", "rules.md"), expected: () => `${allRuleDocumentation()}\n` },
  { file: path.join(root, "README.md"), expected: () => expectedReadme(fs.readFileSync(path.join(root, "README.md"), "utf8")) },
];
let stale = 0;
for (const target of targets) {
  const expected = target.expected();
  const current = fs.existsSync(target.file) ? fs.readFileSync(target.file, "utf8") : "";
  if (current === expected) continue;
  if (check) {
    console.error(`${path.relative(root, target.file)} is out of date; run \`npm run docs\``);
    stale++;
  } else fs.writeFileSync(target.file, expected);
}
process.exit(stale > 0 ? 1 : 0);
