/**
 * The language server: capabilities are declared in `capabilities()`, and each request or notification has one
 * handler. Push diagnostics by default; pull diagnostics (`textDocument/diagnostic`, `workspace/diagnostic`)
 * when the client supports them. `synclint.lintWorkspace` lints every Python file under the workspace folders.
 */
import { pathToFileURL } from "url";
import {
  CancellationToken,
  Connection,
  Diagnostic,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind,
  ExecuteCommandRequest,
  FileChangeType,
  InitializeParams,
  InitializeResult,
  MessageType,
  PublishDiagnosticsParams,
  ServerCapabilities,
  TextDocumentSyncKind,
  WorkDoneProgressReporter,
  WorkspaceDocumentDiagnosticReport,
} from "vscode-languageserver";
import { ConfigError, initParser } from "synclint-rules";
import type { PositionEncoding } from "synclint-rules";
import { DocumentStore, OpenDocument } from "./documents";
import { Configuration, DEFAULT_SETTINGS, filePathOf, parseSettings } from "./configuration";
import { Linter, DocumentLint } from "./linting";
import { SOURCE, toDiagnostics } from "./diagnostics";
import { hoverAt } from "./hover";
import { codeActionsFor, FIX_ALL_KIND, SHOW_DOCUMENTATION_COMMAND } from "./code-actions";
import { negotiateEncoding, toOffset } from "./positions";
import { skipReason } from "./limits";
import { diskStamp, indexableFiles, lintFileOnDisk, skippedDiagnostic, workspaceFiles } from "./workspace";
import { warmUp } from "./warm-up";
import { ProjectIndex } from "./project-index";
import { projectTextsOutside } from "synclint-rules/out/cli/files";
import { turnTaker } from "./event-loop";
import { IdleCollector } from "./idle-collection";

export const LINT_WORKSPACE_COMMAND = "synclint.lintWorkspace";

interface ClientSupport {
  pullDiagnostics: boolean;
  diagnosticRefresh: boolean;
  configuration: boolean;
  configurationRegistration: boolean;
  watchedFilesRegistration: boolean;
  showDocument: boolean;
  workspaceFolders: boolean;
}

/** What `synclint.lintWorkspace` returns. */
export interface WorkspaceLintSummary {
  files: number;
  diagnostics: number;
  skipped: number;
  cancelled: boolean;
}

interface Evaluation {
  lint?: DocumentLint;
  diagnostics: Diagnostic[];
}

/** Passes of the warm-up over its file: enough for V8 to optimise the edit path (see warm-up.ts). */
const WARM_UP_ROUNDS = 3;
/** The most the warm-up may add to the server's start. */
const WARM_UP_BUDGET_MS = 300;

/** An open document's calls into other files are looked at again once it has not changed for this long. */
const LINKS_DELAY_MS = 500;

export class SynclintServer {
  private readonly documents = new DocumentStore();
  private readonly linter: Linter;
  private configuration = new Configuration(process.cwd());
  private encoding: PositionEncoding = "utf-16";
  private support: ClientSupport = { pullDiagnostics: false, diagnosticRefresh: false, configuration: false, configurationRegistration: false, watchedFilesRegistration: false, showDocument: false, workspaceFolders: false };
  private readonly configErrorsShown = new Set<string>();
  /** Configuration files with a diagnostic published on them (a load error). */
  private readonly configProblemUris = new Set<string>();
  private folders: string[] = [];
  /** Closed files whose diagnostics `synclint.lintWorkspace` pushed. */
  private readonly workspacePushed = new Set<string>();
  /**
   * With `initializationOptions.reportTimings`, the server tells how long each change took to diagnostics on its
   * side (`synclint/timing`): when the first change not yet published arrived, per document.
   */
  private reportTimings = false;
  /** How long a document must go unchanged before a provisional tree is replaced by a fresh parse. */
  private settleDelayMs = 250;
  private readonly settleTimers = new Map<string, NodeJS.Timeout>();
  private readonly changedSince = new Map<string, number>();
  /** The client pulls workspace diagnostics: the workspace command then refreshes instead of pushing. */
  private workspacePulled = false;
  /** Bumped whenever settings or configuration files change (part of every pull result id). */
  private generation = 0;
  /** Passes over the warm-up file while initialising (`initializationOptions.warmUp: false` turns it off). */
  private warmUpRounds = WARM_UP_ROUNDS;
  /** Which functions of the workspace other files call from hot paths. */
  private readonly index: ProjectIndex;
  private readonly linkTimers = new Map<string, NodeJS.Timeout>();
  /** Per file, how often its hot entries changed (part of its pull result id). */
  private readonly entriesVersions = new Map<string, number>();
  /** Collects V8's heap once the server has stopped linting for a while. */
  private readonly idleCollector = new IdleCollector();

  constructor(private readonly connection: Connection) {
    this.linter = new Linter((message) => connection.console.error(message));
    this.index = new ProjectIndex({
      // The worker reads the same configuration files; the settings change severities and the preset, not links.
      workerSetup: () => (this.settingsAllow() && this.folders.length > 0 ? { overrides: {}, cwd: this.folders[0], options: { linksOnly: true } } : undefined),
      files: () => this.guard(() => indexableFiles(this.folders)),
      textsOutside: (files) => this.guard(() => projectTextsOutside(this.folders, files)),
      openDocument: (file) => {
        const document = this.openByPath().get(file);
        return document && { text: document.text, syntax: () => document.syntax };
      },
      configFor: (file) => {
        if (!this.settingsAllow()) return undefined;
        const { config } = this.configuration.forFile(file);
        return this.configuration.excludes(file, config) ? undefined : config;
      },
      entriesChanged: (files) => this.hotEntriesChanged(files),
      log: (message) => connection.console.error(message),
    });
  }

  listen(): void {
    const c = this.connection;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => this.guardAsync(() => this.initialized()));
    c.onDidOpenTextDocument(({ textDocument }) => {
      const document = this.documents.open(textDocument.uri, textDocument.version, textDocument.text);
      // Pull clients own open documents' diagnostics: clear what the workspace lint pushed for this file.
      if (this.support.pullDiagnostics && this.workspacePushed.has(textDocument.uri)) this.send({ uri: textDocument.uri, diagnostics: [] });
      this.changed(document);
      this.scheduleLinks(document.uri);
    });
    c.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
      const document = this.documents.get(textDocument.uri);
      if (!document) return;
      if (this.reportTimings && !this.changedSince.has(document.uri)) this.changedSince.set(document.uri, performance.now());
      this.guard(() => document.applyChanges(contentChanges, textDocument.version ?? document.version + 1, this.encoding));
      this.index.activity();
      this.idleCollector.keystroke();
      this.changed(document);
      this.scheduleLinks(document.uri);
    });
    c.onDidCloseTextDocument(({ textDocument }) => {
      this.documents.close(textDocument.uri);
      this.linter.close(textDocument.uri);
      this.changedSince.delete(textDocument.uri);
      this.cancelSettle(textDocument.uri);
      // The file's content on disk counts again.
      this.scheduleLinks(textDocument.uri, 0);
      const file = filePathOf(textDocument.uri);
      if (file && this.workspacePushed.has(textDocument.uri) && !(this.support.pullDiagnostics && this.workspacePulled)) {
        // A file of the linted workspace keeps diagnostics, now those of its content on disk.
        const diagnostics = this.settingsAllow() ? this.guard(() => lintFileOnDisk(file, this.configuration, this.encoding, this.index.entriesOf(file))) : [];
        this.send({ uri: textDocument.uri, diagnostics: diagnostics ?? [] });
      } else if (!this.support.pullDiagnostics) this.send({ uri: textDocument.uri, diagnostics: [] });
    });
    c.onDidChangeConfiguration((params) => this.guardAsync(() => this.reloadSettings(params.settings)));
    c.onDidChangeWatchedFiles(({ changes }) => this.guard(() => this.watchedFilesChanged(changes)));
    c.onHover(({ textDocument, position }) => {
      const document = this.documents.get(textDocument.uri);
      const lint = document && this.currentLint(document);
      if (!document || !lint) return null;
      return this.guard(() => hoverAt(lint, toOffset(lint.result.source, position, this.encoding), this.encoding)) ?? null;
    });
    c.onCodeAction(({ textDocument, context }) => {
      const document = this.documents.get(textDocument.uri);
      const lint = document && this.currentLint(document);
      if (!document || !lint) return [];
      return this.guard(() => codeActionsFor(textDocument.uri, lint, context.diagnostics, this.encoding, context.only)) ?? [];
    });
    // Registered directly (not with onExecuteCommand, which hides whether the client sent a workDoneToken).
    c.onRequest(ExecuteCommandRequest.type, async ({ command, arguments: args, workDoneToken }, token) => {
      if (command === LINT_WORKSPACE_COMMAND) {
        const given = c.window.attachWorkDoneProgress(workDoneToken);
        const progress = workDoneToken !== undefined ? given : await c.window.createWorkDoneProgress().catch(() => given);
        return this.lintWorkspace(progress, token);
      }
      if (command !== SHOW_DOCUMENTATION_COMMAND || typeof args?.[0] !== "string") return null;
      if (this.support.showDocument) await c.window.showDocument({ uri: args[0], external: true });
      else c.window.showInformationMessage(`synclint documentation: ${args[0]}`);
      return null;
    });
    c.languages.diagnostics.on(({ textDocument }) => {
      const document = this.documents.get(textDocument.uri);
      // A pulled result is final: no provisional tree behind it.
      // Without refresh requests the client would keep a provisional result: it gets the fresh parse at once.
      if (document && !this.support.diagnosticRefresh) this.guard(() => document.reparseAfresh());
      const diagnostics = document ? (this.guard(() => this.evaluate(document))?.diagnostics ?? []) : [];
      if (document?.provisionalTree) this.scheduleSettle(document);
      return { kind: DocumentDiagnosticReportKind.Full, items: diagnostics };
    });
    c.languages.diagnostics.onWorkspace((params, token) => this.workspaceDiagnostics(params.previousResultIds, token));
    c.onShutdown(() => {
      for (const timer of [...this.settleTimers.values(), ...this.linkTimers.values()]) clearTimeout(timer);
      this.settleTimers.clear();
      this.linkTimers.clear();
      this.index.dispose();
      this.idleCollector.dispose();
      for (const document of this.documents.all()) this.documents.close(document.uri);
    });
    c.listen();
  }

  private capabilities(): ServerCapabilities {
    return {
      positionEncoding: this.encoding,
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: ["quickfix", FIX_ALL_KIND] },
      executeCommandProvider: { commands: [SHOW_DOCUMENTATION_COMMAND, LINT_WORKSPACE_COMMAND] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      ...(this.support.pullDiagnostics ? { diagnosticProvider: { identifier: "synclint", interFileDependencies: false, workspaceDiagnostics: true } } : {}),
    };
  }

  private async initialize(params: InitializeParams): Promise<InitializeResult> {
    const capabilities = params.capabilities;
    this.encoding = negotiateEncoding(capabilities.general?.positionEncodings);
    this.support = {
      pullDiagnostics: capabilities.textDocument?.diagnostic !== undefined,
      diagnosticRefresh: capabilities.workspace?.diagnostics?.refreshSupport === true,
      configuration: capabilities.workspace?.configuration === true,
      configurationRegistration: capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true,
      watchedFilesRegistration: capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
      showDocument: capabilities.window?.showDocument?.support === true,
      workspaceFolders: capabilities.workspace?.workspaceFolders === true,
    };
    const folderUris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    this.folders = folderUris.map(filePathOf).filter((f): f is string => f !== undefined);
    if (this.folders.length === 0 && params.rootPath) this.folders = [params.rootPath];
    this.configuration = new Configuration(this.folders[0] ?? process.cwd());
    this.configuration.settings = parseSettings(params.initializationOptions?.settings ?? params.initializationOptions);
    this.reportTimings = params.initializationOptions?.reportTimings === true;
    const settleDelay = params.initializationOptions?.settleDelayMs;
    if (typeof settleDelay === "number" && settleDelay >= 0 && settleDelay <= 10000) this.settleDelayMs = settleDelay;
    if (params.initializationOptions?.warmUp === false) this.warmUpRounds = 0;
    await initParser();
    // Before answering, so that no message waits behind it; a failure here would fail every lint too.
    if (this.warmUpRounds > 0) this.guard(() => warmUp(this.encoding, this.warmUpRounds, WARM_UP_BUDGET_MS));
    return { capabilities: this.capabilities(), serverInfo: { name: "synclint", version: "0.1.0" } };
  }

  private async initialized(): Promise<void> {
    const c = this.connection;
    if (this.support.configurationRegistration) c.client.register(DidChangeConfigurationNotification.type, { section: "synclint" }).catch((error) => this.logError(error));
    if (this.support.watchedFilesRegistration) {
      c.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/pyproject.toml" }, { globPattern: "**/synclint.toml" }, { globPattern: "**/*.py" }] })
        .catch((error) => this.logError(error));
    }
    if (this.support.workspaceFolders) {
      c.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
        const gone = new Set(removed.map((f) => filePathOf(f.uri)));
        this.folders = [...this.folders.filter((f) => !gone.has(f)), ...added.map((f) => filePathOf(f.uri)).filter((f): f is string => f !== undefined)];
        this.rebuildIndex();
      });
    }
    if (this.support.configuration) await this.reloadSettings(undefined);
    else this.rebuildIndex();
  }

  private async reloadSettings(pushed: unknown): Promise<void> {
    let raw: unknown = (pushed as { synclint?: unknown } | undefined)?.synclint;
    if (this.support.configuration) raw = await this.connection.workspace.getConfiguration("synclint");
    this.configuration.reset(raw === undefined || raw === null ? DEFAULT_SETTINGS : parseSettings(raw));
    this.configErrorsShown.clear();
    this.generation++;
    this.relintAll();
    // Excludes and extra step functions may have changed which calls are hot.
    this.rebuildIndex();
  }

  /** Configuration files changed: reload them; Python files changed on disk: the index looks at them again. */
  private watchedFilesChanged(changes: ReadonlyArray<{ uri: string; type: number }>): void {
    const python = changes.filter((change) => change.uri.endsWith(".py"));
    if (python.length < changes.length) return this.configurationFilesChanged();
    // Created or deleted files change what imports resolve to; a changed one, only its own calls.
    if (python.some((change) => change.type !== FileChangeType.Changed)) return this.rebuildIndex();
    for (const change of python) if (!this.documents.get(change.uri)) this.scheduleLinks(change.uri, 0);
  }

  /** `pyproject.toml` or `synclint.toml` changed on disk: reload them and re-lint open documents. */
  private configurationFilesChanged(): void {
    this.configuration.reset();
    this.configErrorsShown.clear();
    for (const uri of this.configProblemUris) this.send({ uri, diagnostics: [] });
    this.configProblemUris.clear();
    this.generation++;
    this.relintAll();
    this.rebuildIndex();
  }

  private rebuildIndex(): void {
    if (this.folders.length === 0) return;
    void this.index.rebuild().then(() => this.notifyIndexed());
  }

  /** After `delayMs` without a change to it, the index looks at the file's calls into other files again. */
  private scheduleLinks(uri: string, delayMs = LINKS_DELAY_MS): void {
    const file = filePathOf(uri);
    if (!file || this.folders.length === 0) return;
    const pending = this.linkTimers.get(uri);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.linkTimers.delete(uri);
      void this.index.update(file).then(() => this.notifyIndexed());
    }, delayMs);
    this.linkTimers.set(uri, timer);
  }

  /** Other files now call these files' functions from hot paths, or no longer do: their diagnostics may change. */
  private hotEntriesChanged(files: ReadonlySet<string>): void {
    const open = this.openByPath();
    let refresh = false;
    for (const file of files) {
      this.entriesVersions.set(file, (this.entriesVersions.get(file) ?? 0) + 1);
      const document = open.get(file);
      if (document) {
        this.linter.forget(document.uri);
        if (this.support.pullDiagnostics) refresh = true;
        else this.publish(document);
        continue;
      }
      const uri = pathToFileURL(file).href;
      if (this.support.pullDiagnostics && this.workspacePulled) refresh = true;
      else if (this.workspacePushed.has(uri)) this.send({ uri, diagnostics: (this.settingsAllow() ? this.guard(() => lintFileOnDisk(file, this.configuration, this.encoding, this.index.entriesOf(file))) : []) ?? [] });
    }
    if (refresh && this.support.diagnosticRefresh) this.connection.languages.diagnostics.refresh();
  }

  /** With `reportTimings`: the workspace index has finished what it was asked to do (`synclint/indexed`). */
  private notifyIndexed(): void {
    if (this.reportTimings) this.connection.sendNotification("synclint/indexed", {}).catch((error) => this.logError(error));
  }

  private settingsAllow(): boolean {
    return this.configuration.settings.enable;
  }

  /** What to report for the document's current text: its lint, or why it is not linted. Cached per text. */
  private evaluate(document: OpenDocument): Evaluation {
    if (!this.settingsAllow()) return { diagnostics: [] };
    const reason = skipReason(document.text);
    if (reason) return { diagnostics: [skippedDiagnostic(reason)] };
    const { config, error, lastGood } = this.configuration.forDocument(document.uri);
    if (error) this.reportConfigError(error, lastGood === true);
    if (this.configuration.excludes(filePathOf(document.uri), config)) return { diagnostics: [] };
    let lint = this.linter.last(document);
    if (!lint) {
      lint = this.linter.lint(document, config, this.index.entriesOf(filePathOf(document.uri)));
      this.idleCollector.activity();
    }
    return { lint, diagnostics: lint ? toDiagnostics(lint.result, this.encoding) : [] };
  }

  /** The lint of the document's current text, computing it if needed (hovers, code actions). */
  private currentLint(document: OpenDocument): DocumentLint | undefined {
    return this.guard(() => this.evaluate(document))?.lint;
  }

  /** A bad configuration file: said once per distinct error, as a message and as a diagnostic on the file. */
  private reportConfigError(error: ConfigError, lastGood: boolean): void {
    if (this.configErrorsShown.has(error.message)) return;
    this.configErrorsShown.add(error.message);
    const fallback = lastGood ? "using the last good configuration" : "using the default configuration";
    this.connection.sendNotification("window/showMessage", { type: MessageType.Error, message: `synclint: ${error.message} (${fallback})` }).catch((e) => this.logError(e));
    const at = /line (\d+), column (\d+)/.exec(error.detail);
    const position = at ? { line: Number(at[1]) - 1, character: Number(at[2]) - 1 } : { line: 0, character: 0 };
    const uri = pathToFileURL(error.file).href;
    this.configProblemUris.add(uri);
    this.send({ uri, diagnostics: [{ range: { start: position, end: position }, severity: DiagnosticSeverity.Error, source: SOURCE, code: "config-error", message: `${error.key ? `"${error.key}": ` : ""}${error.detail} (synclint is ${fallback})` }] });
  }

  /**
   * A change to an open document. Push clients get its diagnostics after two turns of the event loop, and only
   * if no newer change arrived meanwhile: a burst of queued changes is linted once, at its last version. The
   * delay is two empty event-loop turns, not a timer, so the latency measured per edit is that of the lint.
   */
  private changed(document: OpenDocument): void {
    if (this.support.pullDiagnostics) return;
    const version = document.version;
    setImmediate(() =>
      setImmediate(() => {
        if (this.documents.get(document.uri) !== document || document.version !== version) return;
        this.publish(document);
      }),
    );
  }

  private publish(document: OpenDocument): void {
    const evaluation = this.guard(() => this.evaluate(document));
    const diagnostics = evaluation?.diagnostics ?? [];
    this.send({ uri: document.uri, version: document.version, diagnostics });
    if (document.provisionalTree) this.scheduleSettle(document);
    else if (this.reportTimings) this.notifySettled(document);
    const since = this.changedSince.get(document.uri);
    if (since === undefined) return;
    this.changedSince.delete(document.uri);
    const milliseconds = performance.now() - since;
    const syntaxErrors = evaluation?.lint?.result.problems.some((problem) => problem.kind === "parse-error") ?? false;
    this.connection.sendNotification("synclint/timing", { uri: document.uri, version: document.version, milliseconds, syntaxErrors }).catch((error) => this.logError(error));
  }

  /**
   * Diagnostics from a provisional tree (see `OpenDocument.provisionalTree`) are published (or pulled) at once;
   * once no change has come for `settleDelayMs`, the text is parsed afresh and published again (or the client
   * asked to pull again), so what stays on screen always equals a fresh lint. Typing never waits for it.
   */
  private scheduleSettle(document: OpenDocument): void {
    this.cancelSettle(document.uri);
    const version = document.version;
    const timer = setTimeout(() => {
      this.settleTimers.delete(document.uri);
      if (this.documents.get(document.uri) !== document || document.version !== version) return;
      this.guard(() => document.reparseAfresh());
      // Pull clients ask again when told to; push clients are sent the settled diagnostics.
      if (this.support.pullDiagnostics) this.connection.languages.diagnostics.refresh();
      else this.publish(document);
    }, this.settleDelayMs);
    this.settleTimers.set(document.uri, timer);
  }

  private cancelSettle(uri: string): void {
    const timer = this.settleTimers.get(uri);
    if (timer) clearTimeout(timer);
    this.settleTimers.delete(uri);
  }

  /** With `reportTimings`: the diagnostics just published for this version are final (`synclint/settled`). */
  private notifySettled(document: OpenDocument): void {
    this.connection.sendNotification("synclint/settled", { uri: document.uri, version: document.version }).catch((error) => this.logError(error));
  }

  private relintAll(): void {
    for (const document of this.documents.all()) this.linter.forget(document.uri);
    if (this.support.pullDiagnostics) {
      if (this.support.diagnosticRefresh) this.connection.languages.diagnostics.refresh();
      return;
    }
    for (const document of this.documents.all()) this.publish(document);
  }

  /** `synclint.lintWorkspace`: lints every Python file under the workspace folders, reporting progress. */
  private async lintWorkspace(progress: WorkDoneProgressReporter & { token?: CancellationToken }, token: CancellationToken): Promise<WorkspaceLintSummary> {
    const summary: WorkspaceLintSummary = { files: 0, diagnostics: 0, skipped: 0, cancelled: false };
    const push = !(this.support.pullDiagnostics && this.workspacePulled);
    progress.begin("synclint: linting the workspace", 0, "finding Python files", true);
    try {
      const files = this.guard(() => workspaceFiles(this.folders)) ?? [];
      const open = this.openByPath();
      const seen = new Set<string>();
      const giveTurn = turnTaker();
      let lastReport = 0;
      for (const [index, file] of files.entries()) {
        await giveTurn();
        if (token.isCancellationRequested || progress.token?.isCancellationRequested) {
          summary.cancelled = true;
          break;
        }
        if (Date.now() - lastReport > 100 || index === files.length - 1) {
          progress.report(Math.round((100 * index) / Math.max(1, files.length)), `${index + 1}/${files.length} ${file}`);
          lastReport = Date.now();
        }
        summary.files++;
        const document = open.get(file);
        if (document) {
          // Open documents already have live diagnostics for their unsaved text; once closed, their file's.
          summary.diagnostics += this.guard(() => this.evaluate(document))?.diagnostics.length ?? 0;
          if (push) this.workspacePushed.add(document.uri);
          seen.add(document.uri);
          continue;
        }
        const uri = pathToFileURL(file).href;
        const diagnostics = this.settingsAllow() ? this.guard(() => lintFileOnDisk(file, this.configuration, this.encoding, this.index.entriesOf(file))) : [];
        if (diagnostics === undefined) {
          summary.skipped++;
          continue;
        }
        seen.add(uri);
        summary.diagnostics += diagnostics.length;
        if (push) {
          this.workspacePushed.add(uri);
          this.send({ uri, diagnostics });
        }
      }
      if (!summary.cancelled) {
        // Files deleted or excluded since the last run lose their diagnostics.
        for (const uri of [...this.workspacePushed]) {
          if (seen.has(uri)) continue;
          this.workspacePushed.delete(uri);
          if (!this.documents.get(uri)) this.send({ uri, diagnostics: [] });
        }
      }
      if (!push && this.support.diagnosticRefresh) this.connection.languages.diagnostics.refresh();
    } finally {
      progress.done();
    }
    return summary;
  }

  /** `workspace/diagnostic`: every Python file under the folders; unchanged files are answered by result id. */
  private async workspaceDiagnostics(previous: Array<{ uri: string; value: string }>, token: CancellationToken): Promise<{ items: WorkspaceDocumentDiagnosticReport[] }> {
    this.workspacePulled = true;
    const before = new Map(previous.map((p) => [p.uri, p.value]));
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const open = this.openByPath();
    const giveTurn = turnTaker();
    for (const file of this.guard(() => workspaceFiles(this.folders)) ?? []) {
      await giveTurn();
      if (token.isCancellationRequested) break;
      const document = open.get(file);
      if (!document && this.guard(() => this.configuration.excludes(file, this.configuration.forFile(file).config)) !== false) continue;
      const uri = document?.uri ?? pathToFileURL(file).href;
      const stamp = document ? `open:${document.version}` : diskStamp(file);
      if (stamp === undefined) continue;
      const resultId = `${this.generation}:${this.encoding}:${this.settingsAllow()}:${stamp}:${this.entriesVersions.get(file) ?? 0}`;
      const version = document ? document.version : null;
      if (before.get(uri) === resultId) {
        items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, resultId, version });
        continue;
      }
      const diagnostics = !this.settingsAllow() ? [] : document ? (this.guard(() => this.evaluate(document))?.diagnostics ?? []) : this.guard(() => lintFileOnDisk(file, this.configuration, this.encoding, this.index.entriesOf(file)));
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri, resultId, version, items: diagnostics ?? [] });
    }
    return { items };
  }

  private openByPath(): Map<string, OpenDocument> {
    const byPath = new Map<string, OpenDocument>();
    for (const document of this.documents.all()) {
      const file = filePathOf(document.uri);
      if (file) byPath.set(file, document);
    }
    return byPath;
  }

  private send(params: PublishDiagnosticsParams): void {
    this.connection.sendDiagnostics(params).catch((error) => this.logError(error));
  }

  private logError(error: unknown): void {
    try {
      this.connection.console.error(`synclint: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } catch {
      // The connection is gone: nothing left to tell.
    }
  }

  private guard<T>(work: () => T): T | undefined {
    try {
      return work();
    } catch (error) {
      this.logError(error);
      return undefined;
    }
  }

  private async guardAsync(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logError(error);
    }
  }
}
