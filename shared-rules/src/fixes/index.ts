export { applyEdits, applyFixes, chosenFix, editsConflict, parsesCleanly } from "./apply";
export type { AppliedFix, ApplyFixesOptions, ApplyFixesResult } from "./apply";
export { noqaEdits } from "./noqa";
export { unifiedDiff } from "./diff";
export { bindsTorch, ensureTorchImport } from "./imports";
export { lineEnding, statementIndent } from "./indentation";
