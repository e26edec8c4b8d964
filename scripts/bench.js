#!/usr/bin/env node
// `npm run bench -- [dir] [--json] [--runs N]`: synclint beside its floor (parse-only with the project's parser
// module) and its peer (`ast-grep scan` with one naive rule), plus the language server's keystroke latency and
// memory (issue 6). One run measures everything: each command runs once as a warm-up, then N times (default 5);
// the table shows medians of wall time, CPU time (user + system of the child, all its threads) and peak RSS.
//
// Default corpus: the Python files of karpathy/nanoGPT, pytorch/examples, huggingface/pytorch-image-models and
// Lightning-AI/pytorch-lightning at their mirrors' HEAD, extracted by `git archive` into the git-ignored
// `.bench-cache/` (never into the repository). Mirrors are bare repositories at
// $SYNCLINT_BENCH_MIRRORS/<owner>+<name>/repo (default /work/.mirror). Or pass any directory.
//
// Child CPU time and peak RSS come from the kernel's rusage of the child (wait4, via scripts/bench/rusage.py);
// without python3 they are sampled from /proc/<pid> every few milliseconds (marked "sampled").
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn, spawnSync } = require("child_process");
const { pathToFileURL } = require("url");

const ROOT = path.join(__dirname, "..");
const CACHE = path.join(ROOT, ".bench-cache");
const CLI = path.join(ROOT, "shared-rules", "bin", "synclint.js");
const SERVER = path.join(ROOT, "server", "bin", "synclint-server.js");
const { IDLE_MS } = require(path.join(ROOT, "server", "out", "idle-collection.js"));
const PARSE_ONLY = path.join(__dirname, "bench", "parse-only.js");
const RUSAGE = path.join(__dirname, "bench", "rusage.py");
const AST_GREP = path.join(ROOT, "node_modules", ".bin", "ast-grep");
const REPOSITORIES = ["karpathy/nanoGPT", "pytorch/examples", "huggingface/pytorch-image-models", "Lightning-AI/pytorch-lightning"];
const MIN_FILES_FOR_WORKERS = 24; // as shared-rules/src/cli/run-parallel.ts
const BATCH_SIZE = 8;

const USAGE = `Usage: npm run bench -- [dir] [--json] [--runs N] [--no-server | --server-only] [--no-warm-up]
       (clean JSON on standard output: npm run --silent bench -- --json, or node scripts/bench.js --json)

Times parse-only (1 thread and the CLI's worker count), the synclint CLI (cold, and warm with --cache when the
CLI supports it), ast-grep scan with one naive rule, and the language server. Median of N runs (default 5) after
one warm-up. Without dir, builds the default corpus from bare mirrors under $SYNCLINT_BENCH_MIRRORS (default
/work/.mirror) into .bench-cache/. --json prints one JSON object on standard output (the table goes to
standard error). --server-only times the server alone (its Python files found by a walk of dir, not by the
CLI); --no-warm-up starts it with initializationOptions.warmUp: false, to measure what its warm-up is worth.`;

function parseArgs(argv) {
  const options = { dir: undefined, json: false, runs: 5, server: true, serverOnly: false, warmUp: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--json") options.json = true;
    else if (arg === "--no-server") options.server = false;
    else if (arg === "--server-only") options.serverOnly = true;
    else if (arg === "--no-warm-up") options.warmUp = false;
    else if (arg === "--runs" || arg.startsWith("--runs=")) {
      const value = arg.includes("=") ? arg.slice(7) : argv[++i];
      options.runs = Number(value);
      if (!Number.isInteger(options.runs) || options.runs < 1) usageError(`--runs: expected a positive integer, got "${value}"`);
    } else if (arg === "-h" || arg === "--help") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith("-")) usageError(`unknown option ${arg}`);
    else if (options.dir === undefined) options.dir = arg;
    else usageError(`more than one directory given`);
  }
  return options;
}

function usageError(message) {
  console.error(`bench: ${message}\n\n${USAGE}`);
  process.exit(2);
}

const log = (message) => process.stderr.write(`bench: ${message}\n`);

// ---------------------------------------------------------------------------------------------------------------
// Corpus

function buildDefaultCorpus() {
  const mirrors = process.env.SYNCLINT_BENCH_MIRRORS || "/work/.mirror";
  const sources = REPOSITORIES.map((repo) => ({ repo, gitDir: path.join(mirrors, repo.replace("/", "+"), "repo") }));
  const missing = sources.filter((s) => !fs.existsSync(s.gitDir));
  if (missing.length) {
    console.error(
      `bench: the default corpus needs bare mirrors of ${REPOSITORIES.join(", ")}; missing:\n` +
        missing.map((s) => `  ${s.gitDir}`).join("\n") +
        `\nProvide them (SYNCLINT_BENCH_MIRRORS=<dir>, default /work/.mirror), e.g.\n` +
        missing.map((s) => `  git clone --mirror https://github.com/${s.repo}.git ${s.gitDir}`).join("\n") +
        `\nor benchmark any directory of Python files instead:\n  npm run bench -- path/to/python/project`,
    );
    process.exit(2);
  }
  for (const source of sources) {
    const head = spawnSync("git", ["--git-dir", source.gitDir, "rev-parse", "HEAD"], { encoding: "utf8" });
    if (head.status !== 0) {
      console.error(`bench: cannot read HEAD of ${source.gitDir}: ${head.stderr.trim()}`);
      process.exit(2);
    }
    source.commit = head.stdout.trim();
  }
  const corpus = path.join(CACHE, "corpus");
  const stampFile = path.join(CACHE, "corpus.json");
  const stamp = JSON.stringify(sources.map(({ repo, commit }) => ({ repo, commit })));
  // The repository's .gitignore lists .bench-cache/, and linters (synclint, ast-grep) honour ignore files of
  // parent folders up to the enclosing git work tree. An empty git repository at .bench-cache makes that the
  // boundary, so the corpus is linted like any checked-out project.
  if (!fs.existsSync(path.join(CACHE, ".git"))) {
    fs.mkdirSync(CACHE, { recursive: true });
    spawnSync("git", ["init", "-q", CACHE], { stdio: "ignore" });
  }
  if (fs.existsSync(corpus) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp) return { dir: corpus, sources };
  log(`extracting the corpus into ${path.relative(ROOT, corpus)} ...`);
  const temporary = `${corpus}.tmp-${process.pid}`;
  fs.rmSync(temporary, { recursive: true, force: true });
  for (const source of sources) {
    const dest = path.join(temporary, source.repo.replace("/", "+"));
    fs.mkdirSync(dest, { recursive: true });
    // git archive may complain about blobs the mirror lacks outside the pathspec; what matters is the tar.
    const archive = spawnSync("git", ["--git-dir", source.gitDir, "archive", "HEAD", "--", ":(glob)**/*.py"], { maxBuffer: 1 << 30 });
    const tar = spawnSync("tar", ["-x", "-C", dest], { input: archive.stdout, encoding: "utf8" });
    if (!archive.stdout?.length || tar.status !== 0) {
      console.error(`bench: git archive of ${source.gitDir} failed: ${archive.stderr} ${tar.stderr}`);
      process.exit(2);
    }
  }
  fs.rmSync(corpus, { recursive: true, force: true });
  fs.renameSync(temporary, corpus);
  fs.writeFileSync(stampFile, stamp);
  return { dir: corpus, sources };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring one child process

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-bench-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
const hasPython = spawnSync("python3", ["-c", "import os; os.wait4"], { stdio: "ignore" }).status === 0;
const MEASUREMENT = hasPython ? "rusage of the child (wait4)" : "sampled from /proc every 5 ms";

/** Runs a command; resolves {status, wall_ms, user_ms, sys_ms, max_rss_kb, stdout, stderr}. */
async function measure(command, args, cwd) {
  const stdoutFile = path.join(scratch, "stdout");
  const stderrFile = path.join(scratch, "stderr");
  const resultFile = path.join(scratch, "rusage.json");
  let result;
  if (hasPython) {
    const run = spawnSync("python3", [RUSAGE, resultFile, stdoutFile, stderrFile, command, ...args], { cwd, stdio: "inherit" });
    if (run.status !== 0) throw new Error(`rusage wrapper failed for ${command}`);
    result = JSON.parse(fs.readFileSync(resultFile, "utf8"));
  } else {
    result = await sampled(command, args, cwd, stdoutFile, stderrFile);
  }
  result.stdout = fs.readFileSync(stdoutFile, "utf8");
  result.stderr = fs.readFileSync(stderrFile, "utf8");
  return result;
}

function sampled(command, args, cwd, stdoutFile, stderrFile) {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(stdoutFile, "w");
    const err = fs.openSync(stderrFile, "w");
    const tick = 1000 / 100; // USER_HZ
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, stdio: ["ignore", out, err] });
    const last = { user_ms: 0, sys_ms: 0, max_rss_kb: 0 };
    const sample = () => {
      try {
        const stat = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        last.user_ms = Number(fields[11]) * tick;
        last.sys_ms = Number(fields[12]) * tick;
        const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) last.max_rss_kb = Math.max(last.max_rss_kb, Number(hwm[1]));
      } catch {}
    };
    const timer = setInterval(sample, 5);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearInterval(timer);
      fs.closeSync(out);
      fs.closeSync(err);
      resolve({ status: code ?? 128 + (os.constants.signals[signal] ?? 0), wall_ms: Number(process.hrtime.bigint() - start) / 1e6, ...last });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One warm-up, then `runs` measured runs; `check(result)` throws on a failed run. */
async function bench(label, command, args, { runs, cwd = ROOT, check, before }) {
  const samples = [];
  let first;
  let last;
  for (let i = 0; i <= runs; i++) {
    if (before) before(i);
    const result = await measure(command, args, cwd);
    check(result);
    if (i === 0) first = result;
    else samples.push(result);
    last = result;
    process.stderr.write(`\rbench: ${label}: ${i === 0 ? "warm-up" : `run ${i}/${runs}`} ${(result.wall_ms / 1000).toFixed(2)} s   `);
  }
  process.stderr.write("\n");
  const cpu = samples.map((s) => s.user_ms + s.sys_ms);
  return {
    summary: {
      wall_ms: round(median(samples.map((s) => s.wall_ms))),
      wall_ms_min: round(Math.min(...samples.map((s) => s.wall_ms))),
      wall_ms_max: round(Math.max(...samples.map((s) => s.wall_ms))),
      cpu_ms: round(median(cpu)),
      user_ms: round(median(samples.map((s) => s.user_ms))),
      sys_ms: round(median(samples.map((s) => s.sys_ms))),
      peak_rss_mb: round(median(samples.map((s) => s.max_rss_kb)) / 1024),
      peak_rss_mb_max: round(Math.max(...samples.map((s) => s.max_rss_kb)) / 1024),
      runs: samples.map((s) => round(s.wall_ms)),
    },
    first,
    last,
  };
}

const round = (value, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

function failed(label, result) {
  return new Error(`${label} exited with status ${result.status}:\n${result.stderr.slice(-2000)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The server

async function benchServer(corpusFiles, corpusDir, { warmUp }) {
  const { StreamMessageReader, StreamMessageWriter, createMessageConnection } = require("vscode-jsonrpc/node");
  const start = async (rootUri = null) => {
    const child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "ignore"] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const listeners = new Set();
    connection.onNotification("textDocument/publishDiagnostics", (p) => listeners.forEach((listener) => listener(p)));
    const serverTimes = new Map();
    connection.onNotification("synclint/timing", (p) => serverTimes.set(`${p.uri}#${p.version}`, p));
    let indexedNow;
    const indexed = new Promise((resolve) => (indexedNow = resolve));
    connection.onNotification("synclint/indexed", () => indexedNow());
    connection.onRequest(() => null); // workspace/configuration and the like: defaults
    connection.listen();
    await connection.sendRequest("initialize", { processId: process.pid, rootUri, capabilities: {}, initializationOptions: { reportTimings: true, warmUp } });
    await connection.sendNotification("initialized", {});
    const published = (uri, version) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} version ${version} within 60 s`)), 60000);
        const listener = (p) => {
          if (p.uri === uri && (version === undefined || p.version === version)) {
            clearTimeout(timer);
            listeners.delete(listener);
            resolve(p);
          }
        };
        listeners.add(listener);
      });
    const stop = async () => {
      try {
        await Promise.race([connection.sendRequest("shutdown"), new Promise((r) => setTimeout(r, 2000))]);
        await connection.sendNotification("exit");
      } catch {}
      connection.dispose();
      setTimeout(() => child.kill(), 1000).unref();
    };
    return { child, connection, published, stop, serverTimes, indexed };
  };

  // Keystroke latency on a generated 5,000-line file.
  const LINES = 5000;
  const EDITS = 200;
  const block = [
    "def train_{n}(model, loader, optimizer):",
    "    for step, (x, y) in enumerate(loader):",
    "        loss = model(x.cuda(non_blocking=True)).mean()",
    "        loss.backward()",
    "        optimizer.step()",
    "        if step % 100 == 0:",
    "            print(loss.item())",
    "        total = loss.detach()",
    "",
  ];
  const lines = ["import torch", ""];
  for (let n = 0; lines.length < LINES; n++) lines.push(...block.map((l) => l.replace("{n}", String(n))));
  lines.length = LINES;
  const text = lines.join("\n") + "\n";
  let seed = 0x5eed;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // Types EDITS one-character edits into an open document, in pairs at a random (seeded) place: insert a
  // character, then delete it again, so every edit lands in real-looking code and the file stays the same.
  // Gives each edit's time to its diagnostics as the client saw it, and as the server reported it.
  const typeInto = async (server, uri, documentLines) => {
    const client = [];
    let diagnosticsAfter;
    let place;
    for (let i = 0; i < EDITS; i++) {
      const version = i + 2;
      let change;
      if (i % 2 === 0) {
        const line = Math.floor(random() * documentLines.length);
        place = { line, character: Math.floor(random() * (documentLines[line].length + 1)) };
        change = { range: { start: place, end: place }, text: "x" };
      } else {
        change = { range: { start: place, end: { line: place.line, character: place.character + 1 } }, text: "" };
      }
      const done = server.published(uri, version);
      const start = process.hrtime.bigint();
      await server.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
      const result = await done;
      client.push(Number(process.hrtime.bigint() - start) / 1e6);
      diagnosticsAfter = result.diagnostics.length;
    }
    // The timing notification follows the diagnostics it times.
    for (let waited = 0; !server.serverTimes.has(`${uri}#${EDITS + 1}`) && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    const serverSide = [];
    const withErrors = [];
    const withoutErrors = [];
    for (let i = 0; i < EDITS; i++) {
      const measured = server.serverTimes.get(`${uri}#${i + 2}`);
      if (measured === undefined) continue;
      serverSide.push(measured.milliseconds);
      (measured.syntaxErrors ? withErrors : withoutErrors).push(measured.milliseconds);
    }
    if (serverSide.length !== EDITS) throw new Error(`the server reported its timing for ${serverSide.length} of ${EDITS} edits of ${uri}`);
    return { client, serverSide, withErrors, withoutErrors, diagnosticsAfter };
  };
  const openAndWait = async (server, uri, documentText) => {
    const done = server.published(uri, 1);
    const start = process.hrtime.bigint();
    await server.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text: documentText } });
    const opened = await done;
    return { opened, ms: Number(process.hrtime.bigint() - start) / 1e6 };
  };

  const server = await start();
  const uri = "file:///tmp/synclint-bench/latency.py";
  const { opened, ms: openMs } = await openAndWait(server, uri, text);
  const typed = await typeInto(server, uri, lines);
  const { client: times, serverSide, withErrors, withoutErrors, diagnosticsAfter } = typed;
  // The same on the corpus's longest file: real code has large classes and long functions, which the generated
  // file has not. Typed into the same (warm) server.
  let real;
  if (corpusFiles.length > 0) {
    // Each file read once: the longest by lines, and its text.
    let longest;
    let realText = "";
    let realLines = 0;
    for (const file of corpusFiles) {
      const fileText = fs.readFileSync(file, "utf8");
      const lineCount = fileText.split("\n").length;
      if (lineCount > realLines) [longest, realText, realLines] = [file, fileText, lineCount];
    }
    const realUri = pathToFileURL(longest).href;
    seed = 0x5eed;
    const { ms } = await openAndWait(server, realUri, realText);
    real = { file: path.relative(corpusDir, longest), lines: realLines, open_ms: round(ms, 2), typed: await typeInto(server, realUri, realText.split(/\r\n|\r|\n/)) };
  }
  await server.stop();
  const quantiles = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    return { median: round(at(0.5), 2), p90: round(at(0.9), 2), p99: round(at(0.99), 2), max: round(sorted[sorted.length - 1], 2) };
  };

  // Memory with 200 files open: the corpus's files in path order (generated ones if it has fewer).
  const OPEN = 200;
  const memory = await start();
  const documents = corpusFiles.slice(0, OPEN).map((file) => ({ uri: `file://${file}`, text: fs.readFileSync(file, "utf8") }));
  for (let n = documents.length; n < OPEN; n++) documents.push({ uri: `file:///tmp/synclint-bench/generated_${n}.py`, text: lines.slice(0, 500).join("\n") + "\n" });
  const rssOf = (pid) => {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  };
  const idleRss = rssOf(memory.child.pid).rss;
  const openedAll = Promise.all(documents.map((d) => memory.published(d.uri)));
  const openAllStart = process.hrtime.bigint();
  for (const d of documents) await memory.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: d.uri, languageId: "python", version: 1, text: d.text } });
  await openedAll;
  const openAllMs = Number(process.hrtime.bigint() - openAllStart) / 1e6;
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = rssOf(memory.child.pid);
  // Then as the user reads: the server collects its heap once it has not linted for IDLE_MS, and the freed
  // pages go back to the system in the second after.
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 1500));
  const settled = rssOf(memory.child.pid);
  await memory.stop();

  // The workspace index (cross-file hot paths) of the corpus as the server's folder, from `initialized` to done.
  let index = null;
  if (corpusFiles.length > 0) {
    const indexStart = process.hrtime.bigint();
    const indexing = await start(pathToFileURL(corpusDir).href);
    const built = await Promise.race([indexing.indexed.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 120000))]);
    const indexMs = Number(process.hrtime.bigint() - indexStart) / 1e6;
    // The worker thread exits when the index is built; its memory goes with it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rss = rssOf(indexing.child.pid);
    await indexing.stop();
    index = built ? { files: corpusFiles.length, ms: round(indexMs), rss_after_mb: round(rss.rss), rss_peak_mb: round(rss.hwm) } : null;
  }
  return {
    file_lines: LINES,
    edits: EDITS,
    open_ms: round(openMs, 2),
    diagnostics: opened.diagnostics.length,
    diagnostics_after_edits: diagnosticsAfter,
    edit_to_diagnostics_ms: quantiles(times),
    edit_to_diagnostics_server_side_ms: quantiles(serverSide),
    // Half the random one-character edits leave a syntax error (an `x` in the indentation, after a `)`).
    edits_leaving_valid_code: withoutErrors.length,
    edit_to_diagnostics_server_side_valid_code_ms: withoutErrors.length ? quantiles(withoutErrors) : null,
    edit_to_diagnostics_server_side_syntax_error_ms: withErrors.length ? quantiles(withErrors) : null,
    real_file: real
      ? { file: real.file, lines: real.lines, open_ms: real.open_ms, edit_to_diagnostics_server_side_ms: quantiles(real.typed.serverSide), edit_to_diagnostics_ms: quantiles(real.typed.client) }
      : null,
    open_files: OPEN,
    open_files_bytes: documents.reduce((sum, d) => sum + Buffer.byteLength(d.text), 0),
    open_files_ms: round(openAllMs),
    rss_idle_mb: round(idleRss),
    rss_after_open_mb: round(after.rss),
    rss_idle_after_open_mb: round(settled.rss),
    rss_peak_mb: round(settled.hwm),
    workspace_index: index,
  };
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
  for (const built of [CLI, PARSE_ONLY, path.join(ROOT, "shared-rules", "out", "parser.js")]) {
    if (!fs.existsSync(built)) usageError(`${path.relative(ROOT, built)} is missing: run \`npx tsc -b\` (npm run bench does)`);
  }
  let corpus;
  if (options.dir !== undefined) {
    const dir = path.resolve(options.dir);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) usageError(`not a directory: ${options.dir}`);
    corpus = { dir, sources: undefined };
  } else corpus = buildDefaultCorpus();
  if (options.serverOnly) return benchServerOnly(corpus, options);

  const help = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" }).stdout;
  const supportsCache = /--cache\b/.test(help);
  const noProgress = /--no-progress\b/.test(help) ? ["--no-progress"] : [];
  const cores = os.availableParallelism();
  const cliArgs = [CLI, "--format", "json", ...noProgress, corpus.dir];
  const checkCli = (label) => (result) => {
    if (result.status !== 0 && result.status !== 1) throw failed(label, result);
  };
  const removeCaches = () => {
    for (const dir of [ROOT, corpus.dir]) fs.rmSync(path.join(dir, ".synclint_cache"), { recursive: true, force: true });
  };

  // (b) The CLI, cold. Its JSON lists every file it linted: the parse-only runs read exactly those.
  removeCaches();
  const cli = await bench("synclint CLI (cold)", process.execPath, cliArgs, { runs: options.runs, check: checkCli("synclint"), before: removeCaches });
  const report = JSON.parse(cli.first.stdout);
  const files = report.map((r) => r.filePath);
  if (files.length === 0) {
    console.error(`bench: synclint found no Python files under ${corpus.dir} (is it git-ignored?)`);
    process.exit(2);
  }
  const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const findings = report.reduce((sum, r) => sum + r.messages.length, 0);
  const jobs = files.length < MIN_FILES_FOR_WORKERS ? 1 : Math.max(1, Math.min(cores, Math.ceil(files.length / BATCH_SIZE)));
  const listFile = path.join(scratch, "files.txt");
  fs.writeFileSync(listFile, files.join("\n") + "\n");

  let cliWarm;
  if (supportsCache) {
    removeCaches();
    const warmArgs = [CLI, "--format", "json", "--cache", ...noProgress, corpus.dir];
    cliWarm = await bench("synclint CLI (warm, --cache)", process.execPath, warmArgs, { runs: options.runs, check: checkCli("synclint --cache") });
    // The last warm run answered from the cache: it must report what the warm-up (which analysed every file and
    // filled the cache) did. Compared with the adjacent run, not the first cold one, because others may rebuild
    // the engine while a long benchmark runs.
    const warmReport = JSON.parse(cliWarm.last.stdout);
    cliWarm.summary.files = warmReport.length;
    cliWarm.summary.findings = warmReport.reduce((sum, r) => sum + r.messages.length, 0);
    cliWarm.summary.same_as_uncached = JSON.stringify(warmReport) === JSON.stringify(JSON.parse(cliWarm.first.stdout));
    removeCaches();
  }

  // (a) Parse-only with the project's parser module.
  const checkParse = (result) => {
    if (result.status !== 0) throw failed("parse-only", result);
  };
  const parse1 = await bench("parse-only, 1 thread", process.execPath, [PARSE_ONLY, listFile, "1"], { runs: options.runs, check: checkParse });
  const parseN = jobs > 1 ? await bench(`parse-only, ${jobs} worker threads`, process.execPath, [PARSE_ONLY, listFile, String(jobs)], { runs: options.runs, check: checkParse }) : parse1;
  const parsed = JSON.parse(parse1.first.stdout);

  // (c) ast-grep with one naive rule: `$X.item()` anywhere inside a `for` statement. Severity warning, so exit
  // status 0 means the scan succeeded (with or without matches); anything else is a failure.
  const ruleFile = path.join(scratch, "item-in-for.yml");
  fs.writeFileSync(
    ruleFile,
    ["id: item-in-for", "language: python", "severity: warning", 'message: "`.item()` inside a for loop"', "rule:", "  pattern: $X.item()", "  inside:", "    kind: for_statement", "    stopBy: end", ""].join("\n"),
  );
  // --no-ignore hidden: synclint lints hidden folders (e.g. Lightning's .actions/), so ast-grep must too.
  const astGrepArgs = ["scan", "--rule", ruleFile, "-j", String(cores), "--json=compact", "--no-ignore", "hidden", "--inspect", "summary", corpus.dir];
  const astGrep = await bench(`ast-grep scan -j ${cores}`, AST_GREP, astGrepArgs, {
    runs: options.runs,
    check: (result) => {
      if (result.status !== 0) throw failed("ast-grep", result);
    },
  });
  astGrep.summary.findings = JSON.parse(astGrep.first.stdout).length;
  astGrep.summary.files = Number(/scannedFileCount=(\d+)/.exec(astGrep.first.stderr)?.[1] ?? NaN);

  // (d) The server.
  let server;
  if (options.server) {
    log("server: 200 edits on a 5,000-line file, then 200 files open ...");
    server = await benchServer([...files].sort(), corpus.dir, options);
  }

  const perf = (run, n) => ({ ...run.summary, files_per_s: round(n / (run.summary.wall_ms / 1000), 0), mb_per_s: round(bytes / 1048576 / (run.summary.wall_ms / 1000), 2) });
  const commit = spawnSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() !== "";
  const results = {
    commit,
    dirty,
    date: new Date().toISOString(),
    node: process.version,
    cores,
    cpu: os.cpus()[0]?.model,
    loadavg_before_server: os.loadavg().map((l) => round(l, 2)),
    measurement: MEASUREMENT,
    runs: options.runs,
    warmup: 1,
    corpus: { dir: corpus.dir, files: files.length, bytes, parse_errors: parsed.errors, sources: corpus.sources?.map(({ repo, commit }) => ({ repo, commit })) },
    jobs,
    parse_only_1: perf(parse1, files.length),
    parse_only_n: { threads: jobs, ...perf(parseN, files.length) },
    cli_cold: { files: files.length, findings, ...perf(cli, files.length) },
    cli_warm: cliWarm ? perf(cliWarm, files.length) : null,
    ast_grep: { version: spawnSync(AST_GREP, ["--version"], { encoding: "utf8" }).stdout.trim(), threads: cores, ...perf(astGrep, files.length) },
    ratios: {
      cli_over_parse_only_same_threads: round(cli.summary.wall_ms / parseN.summary.wall_ms, 2),
      cli_over_parse_only_cpu: round(cli.summary.cpu_ms / parseN.summary.cpu_ms, 2),
      cli_over_ast_grep: round(cli.summary.wall_ms / astGrep.summary.wall_ms, 2),
      cli_over_ast_grep_cpu: round(cli.summary.cpu_ms / astGrep.summary.cpu_ms, 2),
      cli_warm_over_cold: cliWarm ? round(cliWarm.summary.wall_ms / cli.summary.wall_ms, 2) : null,
    },
    server: server ?? null,
  };
  // With --json, standard output is the JSON object alone and the table goes to standard error.
  if (options.json) {
    console.log(JSON.stringify(results, null, 2));
    printTable(results, console.error);
  } else printTable(results, console.log);
}

/** `--server-only`: the server's part of the benchmark, on the corpus's Python files found by a walk. */
async function benchServerOnly(corpus, options) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== ".git" && entry.name !== "node_modules") walk(full);
      else if (entry.isFile() && entry.name.endsWith(".py")) files.push(full);
    }
  };
  walk(corpus.dir);
  const server = await benchServer(files.sort(), corpus.dir, options);
  const results = { commit: spawnSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim(), date: new Date().toISOString(), node: process.version, warm_up: options.warmUp, corpus: { dir: corpus.dir, files: files.length }, server };
  const print = options.json ? console.error : console.log;
  if (options.json) console.log(JSON.stringify(results, null, 2));
  print([`synclint bench, server only — ${results.commit.slice(0, 12)}, node ${results.node}${options.warmUp ? "" : ", warm-up off"}`, ...serverLines(server)].join("\n"));
}

function printTable(r, print) {
  const mb = (r.corpus.bytes / 1048576).toFixed(1);
  const out = [];
  out.push(`synclint bench — ${r.commit.slice(0, 12)}${r.dirty ? " (dirty tree)" : ""}, node ${r.node}, ${r.cores} cores, ${r.cpu}`);
  out.push(`corpus: ${r.corpus.dir} — ${r.corpus.files} files, ${mb} MiB${r.corpus.sources ? ` (${r.corpus.sources.map((s) => `${s.repo}@${s.commit.slice(0, 7)}`).join(", ")})` : ""}`);
  out.push(`median of ${r.runs} runs after ${r.warmup} warm-up; CPU and peak RSS: ${r.measurement}; load average ${r.loadavg_before_server.join(" ")}`);
  out.push("");
  const rows = [
    ["", "wall s", "(min–max)", "CPU s", "peak RSS MB", "files/s", "MB/s", "findings"],
    row(`parse-only, 1 thread`, r.parse_only_1),
    ...(r.jobs > 1 ? [row(`parse-only, ${r.jobs} threads`, r.parse_only_n)] : []),
    row(`synclint CLI, cold (${r.jobs} worker${r.jobs === 1 ? "" : "s"})`, r.cli_cold, r.cli_cold.findings),
    ...(r.cli_warm ? [row(`synclint CLI, warm --cache`, r.cli_warm, `${r.cli_warm.findings}${r.cli_warm.same_as_uncached ? "" : " (differs from uncached!)"}`)] : []),
    row(`ast-grep scan -j ${r.ast_grep.threads} (1 rule)`, r.ast_grep, `${r.ast_grep.findings} (${r.ast_grep.files} files)`),
  ];
  out.push(...formatRows(rows));
  out.push("");
  out.push(`synclint / parse-only (${r.jobs} thread${r.jobs === 1 ? "" : "s"}): ${r.ratios.cli_over_parse_only_same_threads}× wall, ${r.ratios.cli_over_parse_only_cpu}× CPU   (target ≤ 1.3× wall)`);
  out.push(`synclint / ast-grep -j ${r.ast_grep.threads}:        ${r.ratios.cli_over_ast_grep}× wall, ${r.ratios.cli_over_ast_grep_cpu}× CPU   (target ≤ 1.0× wall)`);
  out.push(r.cli_warm ? `synclint warm --cache / cold:      ${r.ratios.cli_warm_over_cold}× wall   (target ≤ 0.25×)` : "synclint warm --cache: not measured (the CLI has no --cache option yet)");
  if (r.server) out.push(...serverLines(r.server));
  print(out.join("\n"));
}

/** The server's part of the table. */
function serverLines(s) {
  const out = [];
  const l = s.edit_to_diagnostics_ms;
  out.push("");
  out.push(`server: ${s.file_lines}-line file, open → diagnostics ${s.open_ms} ms (${s.diagnostics} diagnostics)`);
  const t = s.edit_to_diagnostics_server_side_ms;
  out.push(`  ${s.edits} one-character edits, didChange → publishDiagnostics, server side: median ${t.median} ms, p90 ${t.p90} ms, p99 ${t.p99} ms, max ${t.max} ms   (target p99 < 10 ms)`);
  const valid = s.edit_to_diagnostics_server_side_valid_code_ms;
  const broken = s.edit_to_diagnostics_server_side_syntax_error_ms;
  if (valid) out.push(`    ${s.edits_leaving_valid_code} edits leaving valid code: median ${valid.median} ms, p90 ${valid.p90} ms, p99 ${valid.p99} ms, max ${valid.max} ms`);
  if (broken) out.push(`    ${s.edits - s.edits_leaving_valid_code} edits leaving a syntax error: median ${broken.median} ms, p90 ${broken.p90} ms, p99 ${broken.p99} ms, max ${broken.max} ms`);
  out.push(`  the same seen by the client (with JSON-RPC over stdio): median ${l.median} ms, p90 ${l.p90} ms, p99 ${l.p99} ms, max ${l.max} ms`);
  if (s.real_file) {
    const rt = s.real_file.edit_to_diagnostics_server_side_ms;
    out.push(`  real code, ${s.real_file.file} (${s.real_file.lines} lines, open → diagnostics ${s.real_file.open_ms} ms), ${s.edits} edits, server side: median ${rt.median} ms, p90 ${rt.p90} ms, p99 ${rt.p99} ms, max ${rt.max} ms`);
  }
  out.push(`  RSS: ${s.rss_idle_mb} MB idle, ${s.rss_after_open_mb} MB with ${s.open_files} files open (${(s.open_files_bytes / 1048576).toFixed(1)} MiB, all diagnosed in ${s.open_files_ms} ms), ${s.rss_idle_after_open_mb} MB once idle (${(IDLE_MS + 1500) / 1000} s later), peak ${s.rss_peak_mb} MB   (target < 150 MB)`);
  const w = s.workspace_index;
  if (w) out.push(`  workspace index of the corpus (${w.files} files, cross-file hot paths): built in ${w.ms} ms from the server's start; RSS ${w.rss_after_mb} MB after, peak ${w.rss_peak_mb} MB`);
  return out;
}

function row(label, s, findings = "") {
  return [label, (s.wall_ms / 1000).toFixed(2), `${(s.wall_ms_min / 1000).toFixed(2)}–${(s.wall_ms_max / 1000).toFixed(2)}`, (s.cpu_ms / 1000).toFixed(2), s.peak_rss_mb.toFixed(0), String(s.files_per_s), s.mb_per_s.toFixed(2), String(findings)];
}

function formatRows(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ").trimEnd());
}

main().catch((error) => {
  console.error(`bench: ${error.stack ?? error}`);
  process.exit(1);
});
