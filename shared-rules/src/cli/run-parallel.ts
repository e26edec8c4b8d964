/** Lints many files across worker threads, sized to the cores, in small batches handed out on demand. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Worker } from "worker_threads";
import { ConfigResolver } from "../config";
import { initParser } from "../parser";
import { lintFile, FileResult, LintFileOptions } from "./lint-file";
import type { WorkerReply, WorkerSetup } from "./worker";
import { ResultCache } from "./cache";

/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 24;
const BATCH_SIZE = 8;

export interface RunOptions {
  setup: WorkerSetup;
  jobs?: number;
  onProgress?: (done: number, total: number) => void;
  cache?: ResultCache;
}

export async function lintFiles(files: string[], options: RunOptions): Promise<FileResult[]> {
  if (!options.cache) return lintUncached(files, options);
  const cache = options.cache;
  const resolver = new ConfigResolver(options.setup.overrides, options.setup.configFile, options.setup.cwd);
  const cached = new Map<string, FileResult>();
  const keys = new Map<string, string>();
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue; // lintFile reports the read error
    }
    const key = ResultCache.key(bytes, resolver.forFile(file), options.setup.options);
    keys.set(file, key);
    const hit = cache.get(file, key);
    if (hit) cached.set(file, hit);
  }
  const fresh = await lintUncached(files.filter((file) => !cached.has(file)), options);
  for (const result of fresh) {
    const key = keys.get(result.filePath);
    if (key) cache.set(result, key);
  }
  cache.save();
  const byFile = new Map([...cached, ...fresh.map((r) => [r.filePath, r] as const)]);
  return files.map((file) => byFile.get(file)).filter((r): r is FileResult => !!r);
}

async function lintUncached(files: string[], options: RunOptions): Promise<FileResult[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? os.availableParallelism(), Math.ceil(files.length / BATCH_SIZE)));
  if (jobs === 1 || files.length < MIN_FILES_FOR_WORKERS) return lintInProcess(files, options);
  return lintInWorkers(files, jobs, options);
}

async function lintInProcess(files: string[], options: RunOptions): Promise<FileResult[]> {
  await initParser();
  const resolver = new ConfigResolver(options.setup.overrides, options.setup.configFile, options.setup.cwd);
  const results: FileResult[] = [];
  files.forEach((file, index) => {
    const result = lintFile(file, resolver, options.setup.options as LintFileOptions);
    if (result) results.push(result);
    options.onProgress?.(index + 1, files.length);
  });
  return results;
}

function lintInWorkers(files: string[], jobs: number, options: RunOptions): Promise<FileResult[]> {
  const batches: string[][] = [];
  for (let i = 0; i < files.length; i += BATCH_SIZE) batches.push(files.slice(i, i + BATCH_SIZE));
  const results: Array<Array<FileResult | undefined>> = new Array(batches.length);
  let next = 0;
  let done = 0;
  let finishedFiles = 0;
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    let failed = false;
    const stopAll = () => workers.forEach((worker) => void worker.terminate());
    const dispatch = (worker: Worker) => {
      if (next < batches.length) worker.postMessage({ batch: next, files: batches[next++] });
    };
    for (let i = 0; i < jobs; i++) {
      const worker = new Worker(path.join(__dirname, "worker.js"), { workerData: options.setup });
      workers.push(worker);
      worker.on("message", (message: WorkerReply | { ready: true }) => {
        if ("ready" in message) return dispatch(worker);
        if (message.error) {
          failed = true;
          stopAll();
          return reject(new Error(message.error));
        }
        results[message.batch] = message.results;
        finishedFiles += batches[message.batch].length;
        options.onProgress?.(finishedFiles, files.length);
        if (++done === batches.length) {
          stopAll();
          resolve(results.flat().filter((r): r is FileResult => !!r));
        } else dispatch(worker);
      });
      worker.on("error", (error) => {
        if (failed) return;
        failed = true;
        stopAll();
        reject(error);
      });
    }
  });
}
