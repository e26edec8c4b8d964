/**
 * The workspace as one project, as `synclint <folder>` lints it: which functions other files call from hot
 * paths (`ProjectHotPaths`), so that a document is linted with the hot entries the CLI would give its file.
 * Built in the background once the folders are known, a file at a time, pausing while the user types; a file's
 * links are brought up to date when its text settles (open documents) or changes on disk, and the files whose
 * entries change are linted again in the index and reported to the server (`entriesChanged`).
 */
import { ProjectHotPaths, parseSyntaxTree, projectLinks, readSourceFile } from "synclint-rules";
import type { HotEntries, ModuleLinks, ProjectLintRequest, ResolvedConfig, SyntaxTree, TextsOutside } from "synclint-rules";
import { WorkerPool } from "synclint-rules/out/cli/run-parallel";
import type { WorkerSetup } from "synclint-rules/out/cli/worker";
import { skipReason } from "./limits";
import { turnTaker } from "./event-loop";

export interface ProjectIndexHost {
  /** How a worker thread resolves configuration as the server does (for files not open); undefined: lint here. */
  workerSetup(): WorkerSetup | undefined;
  /** The workspace's Python files (absolute paths), as the CLI collects them; undefined when there are too many to index. */
  files(): string[] | undefined;
  /**
   * What the workspace's project texts other than `files` say (configs, docs, scripts), as the CLI reads them;
   * undefined when the workspace is not known to be whole projects (then no class is unreferenced).
   */
  textsOutside?(files: readonly string[]): TextsOutside | undefined;
  /** An open document's text and syntax tree, if the file is open (its disk content may be older). */
  openDocument(file: string): { text: string; syntax(): SyntaxTree } | undefined;
  /** The file's configuration; undefined when it is excluded. */
  configFor(file: string): ResolvedConfig | undefined;
  /** These files' hot entries changed: their diagnostics may have. */
  entriesChanged(files: ReadonlySet<string>): void;
  log(message: string): void;
}

/** Below this many files not open in the editor, a batch is linted in the server's own thread. */
const MIN_FILES_FOR_WORKER = 8;
/** How many files the worker is given at a time (about a tenth of a second's work). */
const WORKER_PORTION = 8;
/** The index waits while the user has typed within this long: a keystroke never waits behind it. */
const QUIET_MS = 300;

export class ProjectIndex {
  private project: ProjectHotPaths | undefined;
  private files: ReadonlySet<string> = new Set();
  /** Index work runs one job at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private lastActivity = 0;
  private readonly giveTurn = turnTaker();
  private disposed = false;

  constructor(private readonly host: ProjectIndexHost) {}

  /** The hot entries of `file` as the index last found them; undefined before the index is built. */
  entriesOf(file: string | undefined): HotEntries | undefined {
    return file === undefined ? undefined : this.project?.entriesOf(file);
  }

  /** The user typed: the index pauses for a while. */
  activity(): void {
    this.lastActivity = Date.now();
  }

  /**
   * Lints every workspace file once for its links, then propagates hot entries (also after files were created
   * or deleted). Files not open in the editor are linted by a worker thread, started for this and stopped after,
   * so that neither typing nor the server's memory at rest pays for the index.
   */
  rebuild(): Promise<void> {
    return this.enqueue(async () => {
      const files = this.host.files();
      if (!files) {
        this.host.log("synclint: the workspace folders are too large to index; functions are hot only through calls in their own file");
        this.project = undefined;
        this.files = new Set();
        return;
      }
      this.files = new Set(files);
      const before = this.project;
      // An excluded file is not linted, and so names nothing through its links: its text is read with the configs.
      const outside = this.host.textsOutside?.(files.filter((file) => this.host.configFor(file) !== undefined));
      const project = before ?? new ProjectHotPaths(files, outside);
      if (before) project.setFiles(files, outside);
      const setup = files.length >= MIN_FILES_FOR_WORKER ? this.host.workerSetup() : undefined;
      const workers = setup ? new WorkerPool(1, setup) : undefined;
      try {
        const lint = (requests: ProjectLintRequest[]) => this.lintForLinks(requests, workers);
        const first = await lint(files.map((file) => ({ file, entries: project.entriesOf(file) })));
        if (this.disposed) return;
        for (const file of files) project.record(file, first.get(file)?.links);
        this.project = project;
        const changed = await project.propagate(lint);
        if (changed.size > 0) this.host.entriesChanged(changed);
      } finally {
        workers?.close();
      }
    });
  }

  /** `file`'s text changed (an open document settled, or the file changed on disk): its links may have. */
  update(file: string): Promise<void> {
    return this.enqueue(async () => {
      const project = this.project;
      if (!project || !this.files.has(file)) return;
      await this.pause();
      project.record(file, this.linksOf(file, project.entriesOf(file)));
      const changed = await project.propagate((requests) => this.lintForLinks(requests));
      if (changed.size > 0) this.host.entriesChanged(changed);
    });
  }

  dispose(): void {
    this.disposed = true;
  }

  private enqueue(job: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(job).catch((error) => this.host.log(`synclint: indexing the workspace failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    return this.queue;
  }

  /** Links of open documents here, of the other files in `workers` when there are enough of them; by file. */
  private async lintForLinks(requests: ProjectLintRequest[], workers?: WorkerPool): Promise<Map<string, { links?: ModuleLinks }>> {
    const results = new Map<string, { links?: ModuleLinks }>();
    const onDisk = workers ? requests.filter(({ file }) => this.host.openDocument(file) === undefined) : [];
    if (workers && onDisk.length >= MIN_FILES_FOR_WORKER) {
      try {
        // In small portions, so that the worker, too, pauses while the user types (it shares the cores).
        for (let start = 0; start < onDisk.length && !this.disposed; start += WORKER_PORTION) {
          await this.pause();
          for (const result of await workers.run(onDisk.slice(start, start + WORKER_PORTION))) results.set(result.filePath, result);
        }
      } catch (error) {
        // A configuration the worker cannot read, say: the files are linted here instead.
        this.host.log(`synclint: the index's worker failed, indexing in the server: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const { file, entries } of requests) {
      if (results.has(file) || this.disposed) continue;
      await this.pause();
      results.set(file, { links: this.linksOf(file, entries) });
    }
    return results;
  }

  /** The file's hot calls into the project, from its open document or its content on disk; undefined if it is not linted. */
  private linksOf(file: string, entries: HotEntries | undefined): ModuleLinks | undefined {
    const config = this.host.configFor(file);
    if (!config) return undefined;
    const document = this.host.openDocument(file);
    if (document) return skipReason(document.text) ? undefined : projectLinks(document.text, document.syntax(), { filePath: file, config, hotEntries: entries });
    const source = readSourceFile(file);
    return source.ok ? projectLinks(source.text, parseSyntaxTree(source.text), { filePath: file, config, hotEntries: entries }) : undefined;
  }

  /** Gives the event loop a turn now and then, and waits while the user is typing. */
  private async pause(): Promise<void> {
    while (!this.disposed && Date.now() - this.lastActivity < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    await this.giveTurn();
  }
}
