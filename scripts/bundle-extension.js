#!/usr/bin/env node
/**
 * Bundles the VS Code extension into dist/ with esbuild:
 *   dist/extension.js  the client (client/src/extension.ts; `vscode` stays external)
 *   dist/server.js     the language server (client/src/server-entry.ts → server/out/main.js, run `tsc -b` first)
 *   dist/tree-sitter.wasm, dist/tree-sitter-python.wasm  the parser, loaded by the server from its own folder
 * `--dev` keeps names and adds source maps.
 */
const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const dev = process.argv.includes("--dev");

async function main() {
  if (!fs.existsSync(path.join(root, "server/out/main.js"))) throw new Error("server/out/main.js is missing: run `npx tsc -b` first");
  fs.rmSync(dist, { recursive: true, force: true });
  fs.mkdirSync(dist, { recursive: true });
  const common = {
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: !dev,
    keepNames: true,
    sourcemap: dev ? "linked" : false,
    logLevel: "warning",
    absWorkingDir: root,
    legalComments: "linked",
  };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: { extension: "client/src/extension.ts" }, outdir: dist, external: ["vscode"], tsconfig: "client/tsconfig.json" }),
    esbuild.build({ ...common, entryPoints: { server: "client/src/server-entry.ts" }, outdir: dist, tsconfig: "client/tsconfig.json",
      // Only reached without `wasmDirectory`, which the server entry always passes.
      external: ["web-tree-sitter/tree-sitter.wasm", "tree-sitter-python/package.json"] }),
  ]);
  const wasm = {
    "tree-sitter.wasm": require.resolve("web-tree-sitter/tree-sitter.wasm", { paths: [path.join(root, "shared-rules")] }),
    "tree-sitter-python.wasm": path.join(path.dirname(require.resolve("tree-sitter-python/package.json", { paths: [path.join(root, "shared-rules")] })), "tree-sitter-python.wasm"),
  };
  for (const [name, from] of Object.entries(wasm)) fs.copyFileSync(from, path.join(dist, name));
  for (const file of fs.readdirSync(dist).sort()) console.log(`dist/${file}  ${(fs.statSync(path.join(dist, file)).size / 1024).toFixed(0)} KiB`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
