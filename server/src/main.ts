/** Entry point: `synclint-server --stdio`, `--node-ipc` or `--socket=N` (chosen by vscode-languageserver). */
import { ProposedFeatures, createConnection } from "vscode-languageserver/node";
import { SynclintServer } from "./server";

const connection = createConnection(ProposedFeatures.all);
process.on("unhandledRejection", (reason) => connection.console.error(`synclint: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
new SynclintServer(connection).listen();
