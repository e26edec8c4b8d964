/**
 * A real editor that no one here wrote: Debian's Neovim (0.7.x), headless, with `vim.lsp.start_client`
 * against `synclint-server --stdio`. It opens a fixture, waits for diagnostics, asks for a hover and the code
 * actions, applies "Disable … for this line" and waits for the new diagnostics; the Lua script writes what it
 * saw to a JSON file that this test checks. Skipped only when `nvim` is missing and CI is not set.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawn, spawnSync } from "child_process";
import { SERVER } from "./lsp-client";

const TRAIN = [
  "import torch",
  "",
  "def train(model, loader, optimizer, device=\"cuda\"):",
  "    for step, (x, y) in enumerate(loader):",
  "        loss = model(x).mean()",
  "        loss.backward()",
  "        optimizer.step()",
  "        print(loss.item())",
  "",
].join("\n");

const SCRIPT = path.join(__dirname, "..", "..", "..", "test", "server", "fixtures", "neovim-client.lua");

describe("language server in Neovim (headless)", function () {
  this.timeout(90000);

  it("shows diagnostics, a hover and a code action that Neovim applies", async function () {
    const probe = spawnSync("nvim", ["--version"], { encoding: "utf8" });
    if (probe.error) {
      if (process.env.CI) assert.fail(`nvim is not installed but CI is set (${probe.error.message}); install Debian's neovim`);
      this.skip();
    }
    assert.match(probe.stdout, /^NVIM v0\.(\d+)/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-nvim-"));
    const fixture = path.join(dir, "train.py");
    const out = path.join(dir, "result.json");
    fs.writeFileSync(fixture, TRAIN);
    const child = spawn("nvim", ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", `luafile ${SCRIPT}`], {
      env: { ...process.env, SYNCLINT_SERVER: SERVER, SYNCLINT_FIXTURE: fixture, SYNCLINT_NVIM_OUT: out, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`nvim did not finish in 60 s; output:\n${output}`)), 60000);
        child.on("exit", (status) => {
          clearTimeout(timer);
          resolve(status);
        });
      });
      assert.ok(fs.existsSync(out), `nvim wrote no result (exit ${code}); output:\n${output}`);
      const result = JSON.parse(fs.readFileSync(out, "utf8"));
      assert.strictEqual(result.error, null, `${result.error}\nsteps: ${result.steps.join(", ")}\n${output}`);
      assert.strictEqual(result.ok, true);
      // Diagnostics as Neovim stored them (0-based line and column).
      const item = result.diagnostics.find((d: any) => /loss\.item\(\)/.test(d.message));
      assert.ok(item, JSON.stringify(result.diagnostics));
      assert.deepStrictEqual([item.lnum, item.col, item.end_col, item.severity, item.source], [7, 19, 25, 2, "synclint"]);
      assert.match(result.hover, /cudaStreamSynchronize/);
      assert.match(result.hover, /train\(\)/);
      assert.ok(result.action_titles.includes("Show documentation for `item-in-hot-path`"), result.action_titles.join());
      assert.strictEqual(result.lines_after[7], "        print(loss.item())  # synclint: ignore[item-in-hot-path]");
      assert.ok(!result.codes_after.includes("item-in-hot-path"), result.codes_after.join());
      assert.deepStrictEqual(result.steps, ["initialized", "diagnostics", "hover", "code action", "applied", "diagnostics after"]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }
    }
  });
});
