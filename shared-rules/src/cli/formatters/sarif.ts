/** SARIF 2.1.0 with every rule's metadata and help text (rendered from the same metadata as the docs). */
import * as path from "path";
import { pathToFileURL } from "url";
import type { FileResult } from "../lint-file";
import { rules } from "../../rules";
import { ruleDocumentation, ruleDocsUrl } from "../../docs";
import { VERSION } from "../version";

const LEVEL = { error: "error", warning: "warning", info: "note" } as const;

export function formatSarif(results: FileResult[]): string {
  const root = process.cwd();
  const ruleIndex = new Map(rules.map((rule, index) => [rule.meta.name, index]));
  const sarifResults = results.flatMap((result) =>
    result.messages.map((m) => {
      const relative = path.relative(root, result.filePath);
      const inside = !relative.startsWith("..") && !path.isAbsolute(relative);
      const location = {
        physicalLocation: {
          artifactLocation: inside ? { uri: relative.split(path.sep).map(encodeURIComponent).join("/"), uriBaseId: "%SRCROOT%" } : { uri: pathToFileURL(result.filePath).href },
          region: { startLine: m.line, startColumn: m.column, endLine: m.endLine, endColumn: m.endColumn },
        },
      };
      const index = m.ruleId ? ruleIndex.get(m.ruleId) : undefined;
      return {
        ruleId: m.ruleId ?? (m.fatal ? "parse-error" : "synclint"),
        ...(index !== undefined ? { ruleIndex: index } : {}),
        level: LEVEL[m.severity],
        message: { text: m.message },
        locations: [location],
        ...(m.fixes && m.fixes.length > 0
          ? {
              fixes: m.fixes.map((fix) => ({
                description: { text: `${fix.title}${fix.safe ? "" : " (suggestion: may change behaviour)"}` },
                artifactChanges: [
                  {
                    artifactLocation: location.physicalLocation.artifactLocation,
                    replacements: fix.edits.map((edit) => ({
                      deletedRegion: { charOffset: edit.start, charLength: edit.end - edit.start },
                      ...(edit.text ? { insertedContent: { text: edit.text } } : {}),
                    })),
                  },
                ],
                properties: { safe: fix.safe },
              })),
            }
          : {}),
      };
    }),
  );
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "synclint",
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: "https://github.com/synclint/synclint",
            rules: rules.map((rule) => ({
              id: rule.meta.name,
              name: rule.meta.name,
              shortDescription: { text: rule.meta.description },
              fullDescription: { text: rule.meta.docs.why },
              helpUri: ruleDocsUrl(rule.meta),
              help: { text: rule.meta.docs.why, markdown: ruleDocumentation(rule.meta) },
              defaultConfiguration: { level: LEVEL[rule.meta.defaultSeverity] },
              properties: { tags: ["performance", "pytorch", rule.meta.category], code: rule.meta.code },
            })),
          },
        },
        originalUriBaseIds: { "%SRCROOT%": { uri: pathToFileURL(root + path.sep).href } },
        columnKind: "utf16CodeUnits",
        results: sarifResults,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
