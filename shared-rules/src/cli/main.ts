/** The `synclint` command line. */
import * as path from "path";
import { parseArgs } from "util";
import { ConfigError, ConfigResolver, CommandLineOverrides, isExcluded, resolveSelector } from "../config";
import { initParser } from "../parser";
import { rules, findRule } from "../rules";
import { ruleDocumentation } from "../docs";
import { collectPythonFiles, projectTextsOutside } from "./files";
import { lintFileText, FileResult } from "./lint-file";
import { lintFiles, projectHotEntries } from "./run-parallel";
import type { WorkerSetup } from "./worker";
import { ResultCache } from "./cache";
import { formatJson } from "./formatters/json";
import { formatStylish } from "./formatters/stylish";
import { formatSarif } from "./formatters/sarif";
import { formatGithub } from "./formatters/github";
import { VERSION } from "./version";
import { readFileText, writeFileText, fixText, addNoqaToText } from "../fixes/files";
import { unifiedDiff } from "../fixes/diff";

const HELP = `synclint ${VERSION} — finds the places where PyTorch code makes the CPU wait for the GPU.

Usage: synclint [options] [paths...]

Lints Python files under each path (default: .), respecting .gitignore and the
configuration's exclude list. Files named explicitly are always linted.

Options:
  -f, --format <name>          stylish (default), json (ESLint's JSON), sarif (SARIF 2.1.0), github
      --select <rules>         only these rules (names, SYN codes or code prefixes; comma-separated)
      --ignore <rules>         skip these rules
      --all                    report cold sites too (the "strict" preset)
      --preset <name>          recommended (hot paths only, default) or strict
      --config <file>          use this pyproject.toml/synclint.toml instead of searching for one
      --stdin-filename <path>  read the source from standard input, lint it as <path>
  -q, --quiet                  report errors only, not warnings
      --max-warnings <n>       exit 1 only if there are errors or more than n warnings
      --report-unused-suppressions
                               report suppression comments that suppress nothing
      --fix                    apply safe fixes in place, then report what is left
                               (with --stdin-filename: print the fixed source)
      --unsafe-fixes           also apply suggestions (fixes that may change behaviour)
      --diff                   print the fixes as a unified diff; change nothing
                               (exit 1 if there is a diff)
      --add-noqa               add \`# synclint: ignore[rule]\` to every finding's line
  -j, --jobs <n>               worker threads (default: one per core)
      --cache                  reuse results of unchanged files from .synclint_cache/
      --cache-location <dir>   keep the cache in <dir> (implies --cache)
      --explain <rule>         print a rule's documentation and exit
      --list-rules             print the rule table and exit
      --no-progress            no progress line on a terminal
  -h, --help                   show this help
  -v, --version                show the version

Suppressions:
  # synclint: ignore                      every rule on this line
  # synclint: ignore[item-in-hot-path]    one rule (names or codes, comma-separated; a reason may follow)
  # noqa: SYN101                          the same, flake8-style
  # synclint: disable-file                the whole file

Configuration: [tool.synclint] in pyproject.toml, or synclint.toml, found by walking
up from each file. Keys: select, ignore, severity, per-file-ignores, exclude, preset,
extra-step-functions. Configuration is data only: nothing is ever executed.

Exit codes: 0 no findings, 1 findings reported, 2 usage or configuration error.
`;

interface Streams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  isTerminal: boolean;
}

const defaultStreams: Streams = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  isTerminal: !!process.stderr.isTTY,
};

class UsageError extends Error {}

function selectors(values: string[] | undefined, flag: string): string[] | undefined {
  if (!values) return undefined;
  const names: string[] = [];
  for (const value of values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean)) {
    const resolved = resolveSelector(value);
    if (resolved.length === 0) throw new UsageError(`${flag}: unknown rule "${value}" (see --list-rules)`);
    names.push(...resolved);
  }
  return names;
}

export async function main(argv: string[], streams: Streams = defaultStreams): Promise<number> {
  try {
    return await run(argv, streams);
  } catch (error) {
    if (error instanceof UsageError) {
      streams.stderr(`synclint: ${error.message}\nRun \`synclint --help\` for usage.\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      streams.stderr(`synclint: configuration error: ${error.message}\n`);
      return 2;
    }
    streams.stderr(`synclint: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return 2;
  }
}

async function run(argv: string[], streams: Streams): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: "string", short: "f", default: "stylish" },
        select: { type: "string", multiple: true },
        ignore: { type: "string", multiple: true },
        all: { type: "boolean" },
        preset: { type: "string" },
        config: { type: "string" },
        "stdin-filename": { type: "string" },
        quiet: { type: "boolean", short: "q" },
        "max-warnings": { type: "string" },
        "report-unused-suppressions": { type: "boolean" },
        fix: { type: "boolean" },
        "unsafe-fixes": { type: "boolean" },
        diff: { type: "boolean" },
        "add-noqa": { type: "boolean" },
        jobs: { type: "string", short: "j" },
        explain: { type: "string" },
        "list-rules": { type: "boolean" },
        "no-progress": { type: "boolean" },
        cache: { type: "boolean" },
        "cache-location": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    streams.stdout(HELP);
    return 0;
  }
  if (values.version) {
    streams.stdout(`${VERSION}\n`);
    return 0;
  }
  if (values.explain !== undefined) {
    const rule = findRule(values.explain);
    if (!rule) throw new UsageError(`--explain: unknown rule "${values.explain}"`);
    streams.stdout(`${ruleDocumentation(rule.meta, 1)}\n`);
    return 0;
  }
  if (values["list-rules"]) {
    for (const rule of rules) streams.stdout(`${rule.meta.code}  ${rule.meta.name.padEnd(28)} ${rule.meta.defaultSeverity.padEnd(8)} ${rule.meta.description}\n`);
    return 0;
  }
  const format = values.format!;
  if (!["stylish", "json", "sarif", "github"].includes(format)) throw new UsageError(`--format: expected stylish, json, sarif or github, got "${format}"`);
  const preset = values.all ? "strict" : values.preset;
  if (preset !== undefined && preset !== "recommended" && preset !== "strict") throw new UsageError(`--preset: expected recommended or strict, got "${preset}"`);
  const maxWarnings = values["max-warnings"] === undefined ? undefined : Number(values["max-warnings"]);
  if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) throw new UsageError(`--max-warnings: expected a non-negative integer, got "${values["max-warnings"]}"`);
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1)) throw new UsageError(`--jobs: expected a positive integer, got "${values.jobs}"`);

  const overrides: CommandLineOverrides = { select: selectors(values.select, "--select"), ignore: selectors(values.ignore, "--ignore"), preset };
  const setup = { overrides, configFile: values.config, cwd: process.cwd(), options: { reportUnusedSuppressions: !!values["report-unused-suppressions"] } };
  const resolver = new ConfigResolver(overrides, values.config);

  const fixing = !!(values.fix || values["unsafe-fixes"] || values.diff);
  if (values["add-noqa"] && fixing) throw new UsageError("--add-noqa cannot be combined with --fix, --unsafe-fixes or --diff");
  if (fixing || values["add-noqa"]) {
    return runFixes({ diff: !!values.diff, unsafe: !!values["unsafe-fixes"], addNoqa: !!values["add-noqa"], stdinFilename: values["stdin-filename"], positionals, resolver, setup, jobs, format, quiet: !!values.quiet, maxWarnings }, streams);
  }

  let results: FileResult[];
  if (values["stdin-filename"] !== undefined) {
    if (positionals.length > 0) throw new UsageError("--stdin-filename reads standard input; do not also give paths");
    const text = await streams.readStdin();
    await initParser();
    const filePath = path.resolve(values["stdin-filename"]);
    results = [lintFileText(filePath, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, resolver, setup.options)];
  } else {
    const paths = positionals.length > 0 ? positionals : ["."];
    const { files, missing } = collectPythonFiles(paths);
    for (const name of missing) streams.stderr(`synclint: ${name}: no such file or directory\n`);
    if (missing.length > 0 && files.length === 0) return 2;
    // Resolving every file's configuration up front turns a bad config into exit 2 before any work.
    const included = files.filter((file) => !isExcluded(file, resolver.forFile(file)));
    const showProgress = streams.isTerminal && !values["no-progress"] && included.length > 200;
    results = await lintFiles(included, {
      setup,
      jobs,
      outside: projectTextsOutside(paths, included),
      cache: values.cache || values["cache-location"] ? new ResultCache(path.resolve(values["cache-location"] ?? ".synclint_cache")) : undefined,
      onProgress: showProgress ? (done, total) => streams.stderr(`\rsynclint: ${done}/${total} files`) : undefined,
    });
    if (showProgress) streams.stderr("\r\u001b[K");
  }

  if (values.quiet) results = results.map((r) => ({ ...r, messages: r.messages.filter((m) => m.severity === "error") }));
  const output =
    format === "json" ? formatJson(results) : format === "sarif" ? formatSarif(results) : format === "github" ? formatGithub(results) : formatStylish(results, !!process.stdout.isTTY && !process.env.NO_COLOR);
  if (output) streams.stdout(output.endsWith("\n") ? output : `${output}\n`);

  const messages = results.flatMap((r) => r.messages);
  const errors = messages.filter((m) => m.severity === "error").length;
  const warnings = messages.length - errors;
  if (maxWarnings !== undefined) return errors > 0 || warnings > maxWarnings ? 1 : 0;
  return messages.length > 0 ? 1 : 0;
}

interface FixRun {
  diff: boolean;
  unsafe: boolean;
  addNoqa: boolean;
  stdinFilename?: string;
  positionals: string[];
  resolver: ConfigResolver;
  setup: WorkerSetup;
  jobs?: number;
  format: string;
  quiet: boolean;
  maxWarnings?: number;
}

/** `--fix`, `--unsafe-fixes`, `--diff`, `--add-noqa`: in-process, one file at a time. */
async function runFixes(run: FixRun, streams: Streams): Promise<number> {
  await initParser();
  if (run.stdinFilename !== undefined) {
    if (run.positionals.length > 0) throw new UsageError("--stdin-filename reads standard input; do not also give paths");
    const raw = await streams.readStdin();
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    const filePath = path.resolve(run.stdinFilename);
    const config = run.resolver.forFile(filePath);
    if (run.addNoqa) {
      streams.stdout(addNoqaToText(text, filePath, config).text);
      return 0;
    }
    const fixed = fixText(text, filePath, config, run.unsafe);
    if (run.diff) {
      const diff = unifiedDiff(text, fixed.text, run.stdinFilename, run.stdinFilename);
      if (diff) streams.stdout(diff);
      return diff ? 1 : 0;
    }
    streams.stdout(fixed.text);
    return fixed.findings.length > 0 ? 1 : 0;
  }
  const paths = run.positionals.length > 0 ? run.positionals : ["."];
  const { files, missing } = collectPythonFiles(paths);
  for (const name of missing) streams.stderr(`synclint: ${name}: no such file or directory\n`);
  if (missing.length > 0 && files.length === 0) return 2;
  const included = files.filter((file) => !isExcluded(file, run.resolver.forFile(file)));
  // Fixed with what the project says of them, as `synclint` reports them: a function another file calls from a hot path is hot.
  const hotEntries = await projectHotEntries(included, { setup: run.setup, jobs: run.jobs, outside: projectTextsOutside(paths, included) });
  const results: FileResult[] = [];
  let changedFiles = 0;
  let appliedFixes = 0;
  let rejectedFixes = 0;
  let diffs = 0;
  for (const file of included) {
    const source = readFileText(file);
    if ("error" in source) {
      results.push({ filePath: file, messages: [{ ruleId: null, severity: "error", fatal: true, message: source.error, line: 1, column: 1, endLine: 1, endColumn: 1 }] });
      continue;
    }
    const config = run.resolver.forFile(file);
    const relative = path.relative(process.cwd(), file);
    const display = relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative.split(path.sep).join("/") : file;
    if (run.addNoqa) {
      const noqa = addNoqaToText(source.text, file, config, hotEntries.get(file));
      if (noqa.added > 0 && source.writable) {
        writeFileText(file, source, noqa.text);
        appliedFixes += noqa.added;
        changedFiles++;
      }
      continue;
    }
    const fixed = fixText(source.text, file, config, run.unsafe, hotEntries.get(file));
    appliedFixes += fixed.applied.length;
    rejectedFixes += fixed.rejected.length;
    if (run.diff) {
      const inside = display !== file;
      const diff = unifiedDiff(source.text, fixed.text, inside ? `a/${display}` : file, inside ? `b/${display}` : file);
      if (diff) {
        streams.stdout(diff);
        diffs++;
      }
      continue;
    }
    if (fixed.changed) {
      if (!source.writable) {
        streams.stderr(`synclint: ${display}: not written back (not UTF-8); use --diff to see the fixes\n`);
      } else {
        writeFileText(file, source, fixed.text);
        changedFiles++;
      }
    }
    results.push(lintFileText(file, fixed.changed && source.writable ? fixed.text : source.text, run.resolver, run.setup.options, hotEntries.get(file)));
  }
  if (run.addNoqa) {
    streams.stderr(`synclint: added ${appliedFixes} suppression comment${appliedFixes === 1 ? "" : "s"} in ${changedFiles} file${changedFiles === 1 ? "" : "s"}\n`);
    return 0;
  }
  if (run.diff) {
    streams.stderr(`synclint: ${appliedFixes} fix${appliedFixes === 1 ? "" : "es"} in ${diffs} file${diffs === 1 ? "" : "s"} would be applied${rejectedFixes ? ` (${rejectedFixes} rejected: the result did not parse)` : ""}\n`);
    return diffs > 0 ? 1 : 0;
  }
  streams.stderr(`synclint: applied ${appliedFixes} fix${appliedFixes === 1 ? "" : "es"} in ${changedFiles} file${changedFiles === 1 ? "" : "s"}${rejectedFixes ? ` (${rejectedFixes} rejected: the result did not parse)` : ""}\n`);
  let reported = run.quiet ? results.map((r) => ({ ...r, messages: r.messages.filter((m) => m.severity === "error") })) : results;
  reported = reported.filter((r) => r.messages.length > 0 || run.format !== "stylish");
  const output = run.format === "json" ? formatJson(reported) : run.format === "sarif" ? formatSarif(reported) : run.format === "github" ? formatGithub(reported) : formatStylish(reported, !!process.stdout.isTTY && !process.env.NO_COLOR);
  if (output) streams.stdout(output.endsWith("\n") ? output : `${output}\n`);
  const messages = reported.flatMap((r) => r.messages);
  const errors = messages.filter((m) => m.severity === "error").length;
  if (run.maxWarnings !== undefined) return errors > 0 || messages.length - errors > run.maxWarnings ? 1 : 0;
  return messages.length > 0 ? 1 : 0;
}
