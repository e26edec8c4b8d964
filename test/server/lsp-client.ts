/** A small LSP client over stdio for protocol-level tests of the real server process. */
import * as path from "path";
import { ChildProcess, spawn } from "child_process";
import { MessageConnection, StreamMessageReader, StreamMessageWriter, createMessageConnection } from "vscode-jsonrpc/node";

export const SERVER = path.join(__dirname, "..", "..", "..", "server", "bin", "synclint-server.js");

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: any[];
}

const live = new Set<TestClient>();

/** Clients whose server process has not exited yet. */
export function liveTestClients(): TestClient[] {
  return [...live];
}

export class TestClient {
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  readonly published: PublishedDiagnostics[] = [];
  readonly logs: string[] = [];
  /** `window/showMessage` notifications, `$/progress` notifications and `window/workDoneProgress/create` tokens. */
  readonly messages: Array<{ type: number; message: string }> = [];
  readonly progress: Array<{ token: string | number; value: any }> = [];
  readonly progressCreated: Array<string | number> = [];
  /** `synclint/timing` notifications (sent with `initializationOptions.reportTimings`). */
  readonly timings: Array<{ uri: string; version: number; milliseconds: number }> = [];
  /** `workspace/diagnostic/refresh` requests received. */
  refreshes = 0;
  /** `synclint/settled` notifications (with `reportTimings`): the diagnostics of that version are final. */
  readonly settled: Array<{ uri: string; version: number }> = [];
  /** `synclint/indexed` notifications (with `reportTimings`): the workspace index finished a job. */
  indexed = 0;
  /** When set, `window/workDoneProgress/create` is answered with an error. */
  refuseProgress = false;
  settings: unknown = {};
  exitCode: Promise<number | null>;
  private waiters: Array<() => void> = [];

  constructor() {
    this.child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr!.on("data", (chunk) => this.logs.push(String(chunk)));
    live.add(this);
    this.exitCode = new Promise((resolve) =>
      this.child.on("exit", (code) => {
        live.delete(this);
        resolve(code);
      }),
    );
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification("textDocument/publishDiagnostics", (params: PublishedDiagnostics) => {
      this.published.push(params);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.connection.onNotification("window/logMessage", (params: { message: string }) => this.logs.push(params.message));
    this.connection.onRequest("workspace/configuration", (params: { items: unknown[] }) => params.items.map(() => this.settings));
    this.connection.onRequest("client/registerCapability", () => null);
    this.connection.onRequest("window/showDocument", () => ({ success: true }));
    this.connection.onRequest("workspace/diagnostic/refresh", () => {
      this.refreshes++;
      for (const wake of this.waiters.splice(0)) wake();
      return null;
    });
    this.connection.onNotification("window/showMessage", (params: { type: number; message: string }) => this.messages.push(params));
    this.connection.onNotification("synclint/timing", (params: { uri: string; version: number; milliseconds: number }) => this.timings.push(params));
    this.connection.onNotification("synclint/settled", (params: { uri: string; version: number }) => {
      this.settled.push(params);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.connection.onNotification("synclint/indexed", () => {
      this.indexed++;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.connection.onNotification("$/progress", (params: { token: string | number; value: any }) => this.progress.push(params));
    this.connection.onRequest("window/workDoneProgress/create", (params: { token: string | number }) => {
      if (this.refuseProgress) throw new Error("no progress here");
      this.progressCreated.push(params.token);
      return null;
    });
    this.connection.listen();
  }

  async initialize(capabilities: Record<string, unknown> = {}, rootUri: string | null = null, initializationOptions?: unknown): Promise<any> {
    const result = await this.connection.sendRequest("initialize", { processId: process.pid, rootUri, capabilities, initializationOptions });
    await this.connection.sendNotification("initialized", {});
    return result;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version, text } });
  }

  change(uri: string, version: number, contentChanges: unknown[]): Promise<void> {
    return this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges });
  }

  request<T = any>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  /** Waits for diagnostics of `uri` at `version` (or any version) published after `since` messages. */
  async diagnostics(uri: string, version?: number, since = 0, timeoutMs = 10000): Promise<PublishedDiagnostics> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.published.slice(since).reverse().find((p) => p.uri === uri && (version === undefined || p.version === version));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} v${version}; server log:\n${this.logs.join("")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The final diagnostics of `uri` at `version`: those published before the server said they are settled (a
   * provisional tree replaced by a fresh parse). Needs `initializationOptions.reportTimings`.
   */
  async settledDiagnostics(uri: string, version: number, timeoutMs = 10000): Promise<PublishedDiagnostics> {
    await this.until(() => this.settled.some((s) => s.uri === uri && s.version === version), `settled diagnostics for ${uri} v${version}`, timeoutMs);
    return this.diagnostics(uri, version);
  }

  /** Waits until `check` holds, polling; fails with the server log after `timeoutMs`. */
  async until<T>(check: () => T | undefined | false, what: string, timeoutMs = 10000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server log:\n${this.logs.join("")}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The latest diagnostics published for `uri`, if any. */
  latest(uri: string): PublishedDiagnostics | undefined {
    return this.published.filter((p) => p.uri === uri).at(-1);
  }

  async shutdown(): Promise<number | null> {
    await this.connection.sendRequest("shutdown");
    await this.connection.sendNotification("exit");
    return this.exitCode;
  }

  kill(): void {
    this.connection.dispose();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}
