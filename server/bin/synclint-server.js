#!/usr/bin/env node
// synclint's language server: `synclint-server --stdio` (or `--node-ipc` when started by the VS Code client).
require("../out/main.js");
