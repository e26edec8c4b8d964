#!/usr/bin/env node
// Parse-only floor for `npm run bench`: reads and parses every file of a list with the project's parser module
// (initParser + parsePython from shared-rules/out/parser.js), in this thread or in N worker threads that take
// batches of 8 files on demand (as the CLI does). Prints {"files","bytes","errors"} as JSON on stdout.
// Usage: node scripts/bench/parse-only.js <file-list> <threads>
"use strict";
const fs = require("fs");
const path = require("path");
const { Worker, isMainThread, parentPort } = require("worker_threads");
const parser = require(path.join(__dirname, "..", "..", "shared-rules", "out", "parser.js"));

const BATCH_SIZE = 8;

function parseFiles(files) {
  let bytes = 0;
  let errors = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    bytes += Buffer.byteLength(text);
    const tree = parser.parsePython(text);
    if (tree.rootNode.hasError) errors++;
    tree.delete();
  }
  return { files: files.length, bytes, errors };
}

if (!isMainThread) {
  parser.initParser().then(() => {
    parentPort.on("message", (message) => parentPort.postMessage({ batch: message.batch, ...parseFiles(message.files) }));
    parentPort.postMessage({ ready: true });
  });
} else {
  const files = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
  const threads = Math.max(1, Number(process.argv[3] ?? 1));
  const finish = (totals) => process.stdout.write(JSON.stringify(totals) + "\n");
  if (threads === 1) {
    parser.initParser().then(() => finish(parseFiles(files)));
  } else {
    const batches = [];
    for (let i = 0; i < files.length; i += BATCH_SIZE) batches.push(files.slice(i, i + BATCH_SIZE));
    const totals = { files: 0, bytes: 0, errors: 0 };
    let next = 0;
    let done = 0;
    const workers = [];
    const dispatch = (worker) => {
      if (next < batches.length) worker.postMessage({ batch: next, files: batches[next++] });
    };
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(__filename);
      workers.push(worker);
      worker.on("error", (error) => {
        console.error(error);
        process.exit(1);
      });
      worker.on("message", (message) => {
        if (message.ready) return dispatch(worker);
        totals.files += message.files;
        totals.bytes += message.bytes;
        totals.errors += message.errors;
        if (++done === batches.length) {
          workers.forEach((w) => void w.terminate());
          finish(totals);
        } else dispatch(worker);
      });
    }
    if (batches.length === 0) {
      workers.forEach((w) => void w.terminate());
      finish(totals);
    }
  }
}
