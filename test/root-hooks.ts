/**
 * Mocha root hooks (loaded by `.mocharc.json`'s `require`). The suite must end by itself: a child process or
 * handle that a test leaves open would keep mocha alive after its summary, and CI would wait on it in silence.
 * So after the last test, anything still open is named on stderr and the run fails instead of hanging.
 */
import { liveTestClients } from "./server/lsp-client";

/** Long enough for children told to exit to finish doing so; short beside CI's limit. */
const GRACE_MS = 30000;

function describeHandle(handle: any): string {
  const kind = handle?.constructor?.name ?? typeof handle;
  if (kind === "ChildProcess") return `child process ${handle.pid}: ${(handle.spawnargs ?? []).join(" ")}`;
  if (kind === "Socket" || kind === "Pipe") return `${kind} (fd ${handle._handle?.fd ?? "?"}, readable ${handle.readable}, writable ${handle.writable})`;
  return kind;
}

export const mochaHooks = {
  afterAll(): void {
    for (const client of liveTestClients()) {
      process.stderr.write(`a test left its language server running (pid ${client.child.pid}); killing it\n`);
      client.kill();
    }
    const timer = setTimeout(() => {
      // Node lists timers among the resources but not the handles; the handles say which child or pipe.
      const handles = ((process as any)._getActiveHandles() as unknown[]).map((h) => `  ${describeHandle(h)}`);
      const resources = process.getActiveResourcesInfo();
      process.stderr.write(`The tests finished ${GRACE_MS / 1000} s ago, but the process is still held open by:\n${handles.join("\n")}\n  (active resources: ${resources.join(", ")})\n`);
      // Mocha sets the exit code from its failures in an 'exit' listener; this one runs after it.
      process.on("exit", () => {
        process.exitCode = 1;
      });
      process.exit(1);
    }, GRACE_MS);
    timer.unref();
  },
};
