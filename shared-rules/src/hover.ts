/**
 * Hover Markdown rendered from rule metadata, so editors never carry a second copy of the rule docs.
 * Every sentence comes from a rule's `meta` (written against `pytorch-sync-facts.md`) or from the hot-path
 * analysis of the site.
 */
import type { RuleMeta } from "./rule";
import type { SiteContext } from "./analysis/hot-paths";
import { ruleDocsUrl } from "./docs";

export interface HoverSite {
  /** The finding's message, when the site was reported. */
  message?: string;
  /** The hot-path context of the site. */
  context?: Pick<SiteContext, "hot" | "where" | "frequency" | "reason">;
  /** The rule that detected the hazard when `meta` is `sync-in-compiled-region`. */
  detectedBy?: RuleMeta;
  /** The site was not reported (a cold `.item()`, a suppressed line, a disabled rule). */
  reported?: boolean;
}

/** Markdown for a hover over a site of `meta`'s hazard. */
export function ruleHoverMarkdown(meta: RuleMeta, site: HoverSite = {}): string {
  const lines: string[] = [];
  lines.push(`**synclint** · \`${meta.name}\` (${meta.code}) — ${meta.description}`);
  if (site.message) lines.push("", site.message);
  if (site.context) {
    const hotness = site.context.hot ? `This site is considered hot: it runs ${site.context.frequency}, ${site.context.where}.` : `This site is not considered hot (${site.context.where}).`;
    lines.push("", `**Why this site${site.context.hot ? " is considered hot" : ""}:** ${hotness} ${site.context.reason}`.trim());
  }
  if (site.reported === false) lines.push("", "_Not reported here; shown because the call still synchronizes when the tensor is on a GPU._");
  const explained = site.detectedBy ?? meta;
  if (explained !== meta) lines.push("", `Detected by \`${explained.name}\` (${explained.code}).`);
  lines.push("", "**Why it costs**", "", explained.docs.why);
  if (explained.mechanism && explained.mechanism.length > 0) {
    lines.push("", "**What happens**", "", ...explained.mechanism.map((layer, index) => `${index + 1}. ${layer}`));
  }
  if (explained !== meta) lines.push("", meta.docs.why);
  lines.push("", "**Use instead**", "", "```python", explained.docs.useInstead, "```", "", `**Fix safety:** ${explained.docs.fixSafety}`);
  lines.push("", `[Documentation for ${meta.name}](${ruleDocsUrl(meta)}) · suppress with \`# synclint: ignore[${meta.name}]\``);
  return lines.join("\n");
}

/** The URL of a rule's documentation, for `codeDescription.href` and "Show documentation". */
export function ruleDocsHref(meta: RuleMeta): string {
  return ruleDocsUrl(meta);
}
