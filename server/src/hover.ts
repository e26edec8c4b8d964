/** Hovers: rule documentation rendered by the engine's `ruleHoverMarkdown`, plus why this site is hot. */
import { FileAnalysis, findRule, ruleHoverMarkdown } from "synclint-rules";
import type { PositionEncoding } from "synclint-rules";
import { itemHoverTarget } from "./hover-support";
import type { Hover } from "vscode-languageserver";
import type { DocumentLint } from "./linting";
import { toRange } from "./positions";

export function hoverAt(lint: DocumentLint, offset: number, encoding: PositionEncoding): Hover | null {
  const { result } = lint;
  const finding = result.findings.find((f) => f.start <= offset && offset <= f.end);
  if (finding) {
    const rule = findRule(finding.rule);
    if (!rule) return null;
    const detectedBy = finding.detectedBy ? findRule(finding.detectedBy)?.meta : undefined;
    return {
      contents: { kind: "markdown", value: ruleHoverMarkdown(rule.meta, { message: finding.message, context: finding.context, detectedBy }) },
      range: toRange(result.source, finding.start, finding.end, encoding),
    };
  }
  const item = itemHoverTarget(lint.syntax.root, lint.text, offset);
  if (!item) return null;
  const rule = findRule("item-in-hot-path")!;
  let context;
  try {
    context = new FileAnalysis(lint.syntax, result.source, { extraStepFunctions: lint.config.extraStepFunctions, hotEntries: lint.hotEntries }).contextOf(item.call);
  } catch {
    context = undefined;
  }
  return {
    contents: { kind: "markdown", value: ruleHoverMarkdown(rule.meta, { context, reported: false }) },
    range: toRange(result.source, item.start, item.end, encoding),
  };
}
