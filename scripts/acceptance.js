#!/usr/bin/env node
/**
 * `npm run acceptance`: runs `synclint --format json` (the real CLI, as a user would) over the acceptance
 * cases and checks, line by line, that exactly the lines ending in `# expect` are reported.
 * Usage: node scripts/acceptance.js [folder] [--results eslint.json]  (default folder: ../shared/acceptance)
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const args = process.argv.slice(2);
const resultsIndex = args.indexOf("--results");
const resultsFile = resultsIndex >= 0 ? args.splice(resultsIndex, 2)[1] : undefined;
const folder = path.resolve(args[0] ?? path.join(__dirname, "..", "..", "shared", "acceptance"));
if (!fs.existsSync(folder)) {
  console.log(`acceptance: ${folder} not found; nothing to check`);
  console.log("0 passed, 0 failed");
  process.exit(0);
}
const files = fs.readdirSync(folder).filter((name) => name.endsWith(".py")).sort().map((name) => path.join(folder, name));

let results;
if (resultsFile) {
  results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
} else {
  const cli = path.join(__dirname, "..", "shared-rules", "bin", "synclint.js");
  const run = spawnSync(process.execPath, [cli, "--format", "json", ...files], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (run.status !== 0 && run.status !== 1) {
    console.error(run.stderr);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  results = JSON.parse(run.stdout);
}

const reported = new Map(results.map((result) => [path.resolve(result.filePath), result.messages]));
let passed = 0;
let failed = 0;
for (const file of files) {
  const lines = fs.readFileSync(file, "utf8").split(/\r?\n/);
  const messages = reported.get(file) ?? [];
  const byLine = new Map();
  for (const message of messages) byLine.set(message.line, [...(byLine.get(message.line) ?? []), message]);
  const problems = [];
  lines.forEach((text, index) => {
    const line = index + 1;
    const expected = /#\s*expect\s*$/.test(text);
    const got = byLine.get(line) ?? [];
    if (expected && got.length === 0) problems.push(`  line ${line}: expected a finding, got none: ${text.trim()}`);
    if (!expected && got.length > 0) problems.push(`  line ${line}: unexpected ${got.map((m) => m.ruleId ?? "error").join(", ")}: ${text.trim()}`);
  });
  if (problems.length === 0) {
    passed++;
    console.log(`✓ ${path.basename(file)}`);
  } else {
    failed++;
    console.log(`✗ ${path.basename(file)}\n${problems.join("\n")}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
