/**
 * The language server: capabilities are declared in `capabilities()`, and each request or notification has one
 * handler. Push diagnostics by default; pull diagnostics when the client supports `textDocument/diagnostic`.
 */
import {
  Connection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind,
  InitializeParams,
  InitializeResult,
  ServerCapabilities,
  TextDocumentSyncKind,
} from "vscode-languageserver";
import { initParser } from "synclint-rules";
import type { PositionEncoding } from "synclint-rules";
import { DocumentStore, OpenDocument } from "./documents";
import { Configuration, DEFAULT_SETTINGS, filePathOf, parseSettings } from "./configuration";
import { Linter, DocumentLint } from "./linting";
import { toDiagnostics } from "./diagnostics";
import { hoverAt } from "./hover";
import { codeActionsFor, SHOW_DOCUMENTATION_COMMAND } from "./code-actions";
import { negotiateEncoding, toOffset } from "./positions";

interface ClientSupport {
  pullDiagnostics: boolean;
  diagnosticRefresh: boolean;
  configuration: boolean;
  configurationRegistration: boolean;
  watchedFilesRegistration: boolean;
  showDocument: boolean;
}

export class SynclintServer {
  private readonly documents = new DocumentStore();
  private readonly linter: Linter;
  private configuration = new Configuration(process.cwd());
  private encoding: PositionEncoding = "utf-16";
  private support: ClientSupport = { pullDiagnostics: false, diagnosticRefresh: false, configuration: false, configurationRegistration: false, watchedFilesRegistration: false, showDocument: false };
  private readonly configErrorsShown = new Set<string>();

  constructor(private readonly connection: Connection) {
    this.linter = new Linter((message) => connection.console.error(message));
  }

  listen(): void {
    const c = this.connection;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => this.initialized());
    c.onDidOpenTextDocument(({ textDocument }) => this.changed(this.documents.open(textDocument.uri, textDocument.version, textDocument.text)));
    c.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
      const document = this.documents.get(textDocument.uri);
      if (!document) return;
      this.guard(() => document.applyChanges(contentChanges, textDocument.version ?? document.version + 1, this.encoding));
      this.changed(document);
    });
    c.onDidCloseTextDocument(({ textDocument }) => {
      this.documents.close(textDocument.uri);
      this.linter.forget(textDocument.uri);
      if (!this.support.pullDiagnostics) void c.sendDiagnostics({ uri: textDocument.uri, diagnostics: [] });
    });
    c.onDidChangeConfiguration((params) => this.guardAsync(() => this.reloadSettings(params.settings)));
    c.onDidChangeWatchedFiles(() => {
      this.configuration.reset();
      this.configErrorsShown.clear();
      this.relintAll();
    });
    c.onHover(({ textDocument, position }) => {
      const document = this.documents.get(textDocument.uri);
      const lint = document && this.currentLint(document);
      if (!document || !lint) return null;
      return hoverAt(lint, toOffset(lint.result.source, position, this.encoding), this.encoding);
    });
    c.onCodeAction(({ textDocument, context }) => {
      const document = this.documents.get(textDocument.uri);
      const lint = document && this.currentLint(document);
      if (!document || !lint) return [];
      return codeActionsFor(textDocument.uri, lint, context.diagnostics, this.encoding);
    });
    c.onExecuteCommand(async ({ command, arguments: args }) => {
      if (command !== SHOW_DOCUMENTATION_COMMAND || typeof args?.[0] !== "string") return null;
      if (this.support.showDocument) await c.window.showDocument({ uri: args[0], external: true });
      else c.window.showInformationMessage(`synclint documentation: ${args[0]}`);
      return null;
    });
    c.languages.diagnostics.on(({ textDocument }) => {
      const document = this.documents.get(textDocument.uri);
      const lint = document && this.settingsAllow() ? this.currentLint(document) : undefined;
      return { kind: DocumentDiagnosticReportKind.Full, items: lint ? toDiagnostics(lint.result, this.encoding) : [] };
    });
    c.onShutdown(() => {
      for (const document of this.documents.all()) this.documents.close(document.uri);
    });
    c.listen();
  }

  private capabilities(): ServerCapabilities {
    return {
      positionEncoding: this.encoding,
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: ["quickfix"] },
      executeCommandProvider: { commands: [SHOW_DOCUMENTATION_COMMAND] },
      ...(this.support.pullDiagnostics ? { diagnosticProvider: { identifier: "synclint", interFileDependencies: false, workspaceDiagnostics: false } } : {}),
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
    };
    const root = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    this.configuration = new Configuration((root && filePathOf(root)) ?? params.rootPath ?? process.cwd());
    this.configuration.settings = parseSettings(params.initializationOptions?.settings ?? params.initializationOptions);
    await initParser();
    return { capabilities: this.capabilities(), serverInfo: { name: "synclint", version: "0.1.0" } };
  }

  private async initialized(): Promise<void> {
    const c = this.connection;
    if (this.support.configurationRegistration) void c.client.register(DidChangeConfigurationNotification.type, { section: "synclint" });
    if (this.support.watchedFilesRegistration) {
      void c.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/pyproject.toml" }, { globPattern: "**/synclint.toml" }] });
    }
    if (this.support.configuration) await this.guardAsync(() => this.reloadSettings(undefined));
  }

  private async reloadSettings(pushed: unknown): Promise<void> {
    let raw: unknown = (pushed as { synclint?: unknown } | undefined)?.synclint;
    if (this.support.configuration) raw = await this.connection.workspace.getConfiguration("synclint");
    this.configuration.reset(raw === undefined || raw === null ? DEFAULT_SETTINGS : parseSettings(raw));
    this.configErrorsShown.clear();
    this.relintAll();
  }

  private settingsAllow(): boolean {
    return this.configuration.settings.enable;
  }

  /** The lint of the document's current text, computing it if needed. */
  private currentLint(document: OpenDocument): DocumentLint | undefined {
    const last = this.linter.last(document);
    if (last) return last;
    const { config, error } = this.configuration.forDocument(document.uri);
    if (error && !this.configErrorsShown.has(error.message)) {
      this.configErrorsShown.add(error.message);
      this.connection.window.showErrorMessage(`synclint: ${error.message} (using the default configuration)`);
    }
    return this.linter.lint(document, config);
  }

  private changed(document: OpenDocument): void {
    if (this.support.pullDiagnostics) return;
    this.publish(document);
  }

  private publish(document: OpenDocument): void {
    const c = this.connection;
    if (!this.settingsAllow()) {
      void c.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: [] });
      return;
    }
    const lint = this.guard(() => this.currentLint(document));
    void c.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: lint ? toDiagnostics(lint.result, this.encoding) : [] });
  }

  private relintAll(): void {
    for (const document of this.documents.all()) this.linter.forget(document.uri);
    if (this.support.pullDiagnostics) {
      if (this.support.diagnosticRefresh) this.connection.languages.diagnostics.refresh();
      return;
    }
    for (const document of this.documents.all()) this.publish(document);
  }

  private guard<T>(work: () => T): T | undefined {
    try {
      return work();
    } catch (error) {
      this.connection.console.error(`synclint: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return undefined;
    }
  }

  private async guardAsync(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.connection.console.error(`synclint: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
}
