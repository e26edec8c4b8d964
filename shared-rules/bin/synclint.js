#!/usr/bin/env node
"use strict";
// A run is short and spends much of its CPU optimising code, once per worker: without inlining, V8 compiled a
// one-thread run over the benchmark corpus in 1.2 s of compile time instead of 2.8 s, and the two-worker run took
// a median 0.92× the time (6 alternating runs each, all faster, same output). Set before any code is optimised;
// worker threads share the process's flags.
require("v8").setFlagsFromString("--no-turbo-inlining");
require("../out/cli/main.js").main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
