/** A worker thread: initialises the parser once, then lints batches of files on request. */
import { parentPort, workerData } from "worker_threads";
import { initParser } from "../parser";
import { ConfigResolver } from "../config";
import { lintFile, FileResult, LintFileOptions } from "./lint-file";
import type { CommandLineOverrides } from "../config";
import type { ProjectLintRequest } from "../project";

export interface WorkerSetup {
  overrides: CommandLineOverrides;
  configFile?: string;
  cwd: string;
  options: LintFileOptions;
}

export interface WorkerRequest {
  batch: number;
  files: ProjectLintRequest[];
}

export interface WorkerReply {
  batch: number;
  results: Array<FileResult | undefined>;
  error?: string;
}

async function serve(): Promise<void> {
  const setup = workerData as WorkerSetup;
  await initParser();
  const resolver = new ConfigResolver(setup.overrides, setup.configFile, setup.cwd);
  parentPort!.on("message", (request: WorkerRequest) => {
    try {
      const results = request.files.map(({ file, entries }) => lintFile(file, resolver, setup.options, entries));
      parentPort!.postMessage({ batch: request.batch, results } satisfies WorkerReply);
    } catch (error) {
      parentPort!.postMessage({ batch: request.batch, results: [], error: (error as Error).message } satisfies WorkerReply);
    }
  });
  parentPort!.postMessage({ ready: true });
}

void serve();
