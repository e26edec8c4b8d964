/**
 * synclint's VS Code extension: a thin client over the language server in `dist/server.js`.
 *
 * Everything about PyTorch lives in the server (`server/`) and the engine (`shared-rules/`). This file only starts
 * the server over Node IPC, forwards the `synclint.*` settings (the server pulls them with
 * `workspace/configuration`), shows a language status item, adds four commands, and restarts the server with a
 * clear message when it crashes.
 */
import * as fs from "fs";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import type {
  CloseHandlerResult,
  DynamicFeature,
  ErrorHandler,
  ErrorHandlerResult,
  ExecuteCommandRegistrationOptions,
  LanguageClientOptions,
  RegistrationData,
  ServerOptions,
  StaticFeature,
} from "vscode-languageclient/node";

const CLIENT_ID = "synclint";
const CLIENT_NAME = "synclint";
const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append("synclint");
/** Commands the extension registers itself; the server may also list some of them (see `withoutClientCommands`). */
const CLIENT_COMMANDS = new Set(["synclint.lintWorkspace", "synclint.fixAll", "synclint.restartServer", "synclint.showOutput"]);
/** Names under which a server may offer "lint the whole workspace" through `workspace/executeCommand`. */
const SERVER_LINT_WORKSPACE = ["synclint.lintWorkspace", "synclint.server.lintWorkspace"];
const RESTART_WINDOW_MS = 3 * 60 * 1000;
const MAX_RESTARTS = 4;

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("synclint");
  context.subscriptions.push(output);
  const status = new SyncStatus();
  context.subscriptions.push(status);

  const serverModule = context.asAbsolutePath("dist/server.js");
  if (!fs.existsSync(serverModule)) {
    output.appendLine(`synclint: the bundled server is missing (${serverModule}); run \`npm run package\` or \`node scripts/bundle-extension.js\`.`);
  }
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6019"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
    ],
    outputChannel: output,
    traceOutputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    errorHandler: new RestartingErrorHandler(output),
    initializationOptions: { settings: vscode.workspace.getConfiguration("synclint") },
    diagnosticCollectionName: "synclint",
  };

  const languageClient = new SynclintLanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client = languageClient;
  context.subscriptions.push(languageClient.onDidChangeState(({ newState }) => status.setServerState(newState)));

  context.subscriptions.push(
    vscode.commands.registerCommand("synclint.showOutput", () => output.show(true)),
    vscode.commands.registerCommand("synclint.restartServer", () => restartServer(languageClient, output)),
    vscode.commands.registerCommand("synclint.lintWorkspace", () => lintWorkspace(languageClient)),
    vscode.commands.registerCommand("synclint.fixAll", () => fixAll()),
    vscode.languages.onDidChangeDiagnostics((event) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (active && event.uris.some((uri) => uri.toString() === active)) status.update(true);
    }),
    vscode.window.onDidChangeActiveTextEditor(() => status.update(false)),
  );

  try {
    await languageClient.start();
  } catch (error) {
    output.appendLine(`synclint: the language server did not start: ${describe(error)}`);
    void vscode.window.showErrorMessage("synclint: the language server did not start. The output channel has the details.", "Show Output").then((choice) => {
      if (choice) output.show(true);
    });
  }
  status.update(false);
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}

/**
 * `vscode-languageclient` registers a VS Code command for every command the server lists in
 * `executeCommandProvider`; registering one of ours a second time would make the client fail to start. This client
 * removes our own command names from what its execute-command feature registers (ours forward to the server
 * themselves) and remembers what the server offers.
 */
class SynclintLanguageClient extends LanguageClient {
  override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    const dynamic = feature as Partial<DynamicFeature<ExecuteCommandRegistrationOptions>>;
    if (dynamic.registrationType?.method === ExecuteCommandRequest.method && typeof dynamic.register === "function") {
      const register = dynamic.register.bind(feature);
      dynamic.register = (data: RegistrationData<ExecuteCommandRegistrationOptions>) => {
        const commands = data.registerOptions.commands ?? [];
        serverCommands = [...new Set([...serverCommands, ...commands])];
        register({ ...data, registerOptions: { ...data.registerOptions, commands: commands.filter((command) => !CLIENT_COMMANDS.has(command)) } });
      };
    }
    super.registerFeature(feature);
  }
}

/** The commands the running server offers, read before the client filters them. */
let serverCommands: string[] = [];

async function restartServer(languageClient: LanguageClient, output: vscode.OutputChannel): Promise<void> {
  output.appendLine(`synclint: restarting the language server (${new Date().toLocaleTimeString()})`);
  try {
    if (languageClient.state === State.Running) await languageClient.restart();
    else await languageClient.start();
  } catch (error) {
    output.appendLine(`synclint: restart failed: ${describe(error)}`);
    void vscode.window.showErrorMessage(`synclint: the language server did not restart: ${describe(error)}`);
  }
}

async function lintWorkspace(languageClient: LanguageClient): Promise<void> {
  if (languageClient.state !== State.Running) {
    void vscode.window.showWarningMessage("synclint: the language server is not running (run “synclint: Restart Language Server”).");
    return;
  }
  const command = SERVER_LINT_WORKSPACE.find((name) => serverCommands.includes(name));
  if (!command) {
    void vscode.window.showWarningMessage("synclint: this version of the language server cannot lint a whole workspace; open a Python file to lint it.");
    return;
  }
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "synclint: linting the workspace" }, async () => {
    try {
      await languageClient.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] });
    } catch (error) {
      void vscode.window.showErrorMessage(`synclint: linting the workspace failed: ${describe(error)}`);
    }
  });
  await vscode.commands.executeCommand("workbench.panel.markers.view.focus");
}

/** Applies the server's `source.fixAll.synclint` action to the active file (as `codeActionsOnSave` does). */
async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "python") {
    void vscode.window.showInformationMessage("synclint: open a Python file to fix it.");
    return;
  }
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>("vscode.executeCodeActionProvider", document.uri, whole, FIX_ALL_KIND.value)) ?? [];
  const fixes = actions.filter((action): action is vscode.CodeAction => "kind" in action && action.kind !== undefined && FIX_ALL_KIND.contains(action.kind));
  if (fixes.length === 0) {
    void vscode.window.showInformationMessage("synclint: nothing in this file can be fixed automatically.");
    return;
  }
  for (const fix of fixes) {
    if (fix.edit) await vscode.workspace.applyEdit(fix.edit);
    if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
  }
}

/** Restarts a crashed server up to four times in three minutes, saying so; then stops and offers a manual restart. */
class RestartingErrorHandler implements ErrorHandler {
  private readonly restarts: number[] = [];

  constructor(private readonly output: vscode.OutputChannel) {}

  error(error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
    this.output.appendLine(`synclint: connection error: ${describe(error)}`);
    return { action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
  }

  closed(): CloseHandlerResult {
    const now = Date.now();
    this.restarts.push(now);
    while (this.restarts.length > 0 && now - this.restarts[0] > RESTART_WINDOW_MS) this.restarts.shift();
    if (this.restarts.length <= MAX_RESTARTS) {
      const message = `synclint: the language server stopped unexpectedly and is being restarted (${this.restarts.length} of ${MAX_RESTARTS} in 3 minutes).`;
      this.output.appendLine(message);
      void vscode.window.showWarningMessage(message, "Show Output").then((choice) => {
        if (choice) this.output.show(true);
      });
      return { action: CloseAction.Restart, handled: true };
    }
    const message = `synclint: the language server crashed ${this.restarts.length} times in 3 minutes and was not restarted. The output channel has its last messages.`;
    this.output.appendLine(message);
    void vscode.window.showErrorMessage(message, "Show Output", "Restart").then((choice) => {
      if (choice === "Show Output") this.output.show(true);
      if (choice === "Restart") void vscode.commands.executeCommand("synclint.restartServer");
    });
    return { action: CloseAction.DoNotRestart, handled: true };
  }
}

/** The language status item: "synclint: 3 syncs in this file", the last lint time, click → Problems. */
class SyncStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem("synclint.status", { language: "python" });
  private serverState: State = State.Starting;
  private lastLint: Date | undefined;

  constructor() {
    this.item.name = "synclint";
    this.item.text = "synclint: starting";
  }

  setServerState(state: State): void {
    this.serverState = state;
    this.update(false);
  }

  update(linted: boolean): void {
    if (linted) this.lastLint = new Date();
    const item = this.item;
    if (this.serverState === State.Stopped) {
      item.text = "synclint: stopped";
      item.detail = "the language server is not running";
      item.severity = vscode.LanguageStatusSeverity.Error;
      item.command = { title: "Restart", command: "synclint.restartServer" };
      return;
    }
    if (this.serverState === State.Starting) {
      item.text = "synclint: starting";
      item.detail = undefined;
      item.severity = vscode.LanguageStatusSeverity.Information;
      item.command = { title: "Show Output", command: "synclint.showOutput" };
      return;
    }
    const document = vscode.window.activeTextEditor?.document;
    const count = document ? vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === "synclint").length : 0;
    item.text = `synclint: ${count} sync${count === 1 ? "" : "s"} in this file`;
    item.detail = this.lastLint ? `last lint ${this.lastLint.toLocaleTimeString()}` : undefined;
    item.severity = vscode.LanguageStatusSeverity.Information;
    item.command = { title: "Show Problems", command: "workbench.panel.markers.view.focus" };
  }

  dispose(): void {
    this.item.dispose();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
