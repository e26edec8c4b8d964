/** The rule catalogue, in the order of their codes. */
import type { Rule } from "../rule";
import { itemInHotPath } from "./item-in-hot-path";
import { hostTransferInHotPath } from "./host-transfer-in-hot-path";
import { implicitHostRead } from "./implicit-host-read";
import { tensorFormatting } from "./tensor-formatting";
import { dataDependentShape } from "./data-dependent-shape";
import { explicitSynchronize } from "./explicit-synchronize";
import { blockingHostToDevice } from "./blocking-host-to-device";
import { dataloaderPinMemory } from "./dataloader-pin-memory";
import { hostIndex } from "./host-index";
import { syncInCompiledRegion } from "./sync-in-compiled-region";

export const rules: readonly Rule[] = [
  itemInHotPath,
  hostTransferInHotPath,
  implicitHostRead,
  tensorFormatting,
  dataDependentShape,
  explicitSynchronize,
  blockingHostToDevice,
  dataloaderPinMemory,
  hostIndex,
  syncInCompiledRegion,
];

export const rulesByName: ReadonlyMap<string, Rule> = new Map(rules.map((rule) => [rule.meta.name, rule]));
export const rulesByCode: ReadonlyMap<string, Rule> = new Map(rules.map((rule) => [rule.meta.code, rule]));

/** A rule by name (`item-in-hot-path`) or code (`SYN101`, any case). */
export function findRule(nameOrCode: string): Rule | undefined {
  return rulesByName.get(nameOrCode) ?? rulesByCode.get(nameOrCode.toUpperCase());
}

export { syncInCompiledRegion };
