/** synclint's engine, with no editor dependency: the CLI, the server and the ESLint plugin build on this. */
export { initParser, isParserReady, parsePython, pythonLanguage } from "./parser";
export type { Tree, Edit } from "./parser";
export { buildSyntaxTree } from "./syntax";
export type { SyntaxNode, SyntaxTree } from "./syntax";
export { SourceText } from "./source-text";
export type { Position, PositionEncoding } from "./source-text";
export { lintSource, lintSyntaxTree } from "./lint";
export type { Finding, LintOptions, LintResult, Problem } from "./lint";
export { rules, findRule, rulesByName } from "./rules";
export type { Fix, Rule, RuleMeta, RuleContext, Severity, TextEdit } from "./rule";
export { ConfigError, ConfigResolver, readConfigFile, resolveConfig, validateConfig } from "./config";
export type { ResolvedConfig, UserConfig } from "./config";
export { FileAnalysis } from "./analysis/file-analysis";
export type { SiteContext } from "./analysis/hot-paths";
export { ruleDocumentation, ruleTable } from "./docs";
export { readSourceFile } from "./read-source";
export type { SourceFile } from "./read-source";
export { ruleHoverMarkdown, ruleDocsHref, type HoverSite } from "./hover";
