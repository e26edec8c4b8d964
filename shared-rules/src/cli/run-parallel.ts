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
import { lintProject, ProjectLintRequest, type TextsOutside } from "../project";
import type { HotEntries } from "../analysis/cross-file";

/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 24;
const BATCH_SIZE = 8;

export interface RunOptions {
  setup: WorkerSetup;
  jobs?: number;
  onProgress?: (done: number, total: number) => void;
  cache?: ResultCache;
  /** What the project's texts that are not linted say (`projectTextsOutside`); undefined: the files are not known to be a whole project. */
  outside?: TextsOutside;
}

type Progress = (done: number, total: number) => void;

/**
 * Lints the files as one project (`lintProject`): a function another file calls from a hot path is hot. The
 * results carry no `links`.
 */
export async function lintFiles(files: string[], options: RunOptions): Promise<FileResult[]> {
  const linter = new BatchLinter(files.length, options);
  try {
    let progress = options.onProgress;
    const results = await lintProject(files, async (requests) => {
      const linted = options.cache ? await lintCached(requests, linter, options, progress) : await linter.lint(requests, progress);
      // Later rounds re-lint a few files; the progress line has said what matters.
      progress = undefined;
      return new Map(linted.map((result) => [result.filePath, result]));
    }, options.outside);
    return files.flatMap((file) => {
      const result = results.get(file);
      if (!result) return [];
      const { links: _links, ...output } = result;
      return [output];
    });
  } finally {
    linter.close();
  }
}

/** Each file's hot entries in the project the files make: what `lintFiles` lints it with (`--fix` fixes with them). */
export async function projectHotEntries(files: string[], options: RunOptions): Promise<Map<string, HotEntries>> {
  const entriesByFile = new Map<string, HotEntries>();
  // Only the links decide the entries: no rules need to run.
  const linter = new BatchLinter(files.length, { ...options, setup: { ...options.setup, options: { ...options.setup.options, linksOnly: true } } });
  try {
    await lintProject(files, async (requests) => {
      for (const { file, entries } of requests) {
        if (entries) entriesByFile.set(file, entries);
        else entriesByFile.delete(file);
      }
      const linted = await linter.lint(requests);
      return new Map(linted.map((result) => [result.filePath, result]));
    }, options.outside);
  } finally {
    linter.close();
  }
  return entriesByFile;
}

async function lintCached(requests: ProjectLintRequest[], linter: BatchLinter, options: RunOptions, onProgress?: Progress): Promise<FileResult[]> {
  const cache = options.cache!;
  const resolver = new ConfigResolver(options.setup.overrides, options.setup.configFile, options.setup.cwd);
  const cached = new Map<string, FileResult>();
  const keys = new Map<string, string>();
  for (const { file, entries } of requests) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue; // lintFile reports the read error
    }
    const key = ResultCache.key(bytes, resolver.forFile(file), options.setup.options, entries);
    keys.set(file, key);
    const hit = cache.get(file, key, !!entries);
    if (hit) cached.set(file, hit);
  }
  const fresh = await linter.lint(requests.filter(({ file }) => !cached.has(file)), onProgress);
  const seeded = new Set(requests.filter(({ entries }) => entries).map(({ file }) => file));
  for (const result of fresh) {
    const key = keys.get(result.filePath);
    if (key) cache.set(result, key, seeded.has(result.filePath));
  }
  cache.save();
  const byFile = new Map([...cached, ...fresh.map((r) => [r.filePath, r] as const)]);
  return requests.map(({ file }) => byFile.get(file)).filter((r): r is FileResult => !!r);
}

/**
 * Lints batches of files, in this thread for a few files, otherwise in worker threads sized to the cores and
 * the first batch, started once and kept for the later rounds of the project.
 */
class BatchLinter {
  private readonly jobs: number;
  private pool: WorkerPool | undefined;
  private resolver: ConfigResolver | undefined;

  constructor(firstBatch: number, private readonly options: RunOptions) {
    const jobs = Math.max(1, Math.min(options.jobs ?? os.availableParallelism(), Math.ceil(firstBatch / BATCH_SIZE)));
    this.jobs = firstBatch < MIN_FILES_FOR_WORKERS ? 1 : jobs;
  }

  async lint(requests: ProjectLintRequest[], onProgress?: Progress): Promise<FileResult[]> {
    if (requests.length === 0) return [];
    if (this.jobs > 1) {
      this.pool ??= new WorkerPool(this.jobs, this.options.setup);
      return this.pool.run(requests, onProgress);
    }
    await initParser();
    this.resolver ??= new ConfigResolver(this.options.setup.overrides, this.options.setup.configFile, this.options.setup.cwd);
    const results: FileResult[] = [];
    requests.forEach(({ file, entries }, index) => {
      const result = lintFile(file, this.resolver!, this.options.setup.options as LintFileOptions, entries);
      if (result) results.push(result);
      onProgress?.(index + 1, requests.length);
    });
    return results;
  }

  close(): void {
    this.pool?.close();
  }
}

/** Worker threads, each with its parser ready, handed batches of files on demand; one run at a time (the server's index uses one too). */
export class WorkerPool {
  private readonly workers: Worker[] = [];
  private readonly ready: Promise<void>;
  private current: { reply(worker: Worker, message: WorkerReply): void; fail(error: Error): void } | undefined;

  constructor(jobs: number, setup: WorkerSetup) {
    const started: Array<Promise<void>> = [];
    for (let i = 0; i < jobs; i++) {
      const worker = new Worker(path.join(__dirname, "worker.js"), { workerData: setup });
      this.workers.push(worker);
      started.push(
        new Promise((resolve, reject) => {
          worker.once("message", () => resolve());
          worker.once("error", reject);
        }),
      );
      worker.on("message", (message: WorkerReply | { ready: true }) => {
        if (!("ready" in message)) this.current?.reply(worker, message);
      });
      worker.on("error", (error) => this.current?.fail(error));
    }
    this.ready = Promise.all(started).then(() => undefined);
    // A worker that fails to start fails the first run; until then the rejection is not unhandled.
    this.ready.catch(() => undefined);
  }

  async run(requests: ProjectLintRequest[], onProgress?: Progress): Promise<FileResult[]> {
    await this.ready;
    const batches: ProjectLintRequest[][] = [];
    for (let i = 0; i < requests.length; i += BATCH_SIZE) batches.push(requests.slice(i, i + BATCH_SIZE));
    const results: Array<Array<FileResult | undefined>> = new Array(batches.length);
    let next = 0;
    let done = 0;
    let finishedFiles = 0;
    return new Promise((resolve, reject) => {
      const dispatch = (worker: Worker) => {
        if (next < batches.length) worker.postMessage({ batch: next, files: batches[next++] });
      };
      this.current = {
        reply: (worker, message) => {
          if (message.error) {
            this.current = undefined;
            return reject(new Error(message.error));
          }
          results[message.batch] = message.results;
          finishedFiles += batches[message.batch].length;
          onProgress?.(finishedFiles, requests.length);
          if (++done < batches.length) return dispatch(worker);
          this.current = undefined;
          resolve(results.flat().filter((r): r is FileResult => !!r));
        },
        fail: (error) => {
          this.current = undefined;
          reject(error);
        },
      };
      for (const worker of this.workers) dispatch(worker);
    });
  }

  close(): void {
    for (const worker of this.workers) void worker.terminate();
  }
}
