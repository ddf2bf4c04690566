import type { FeatureSelection } from './compiler/context';

/**
 * The union of feature selections, per module: a module gets every feature any of them enables
 * (`'*'` in one of them enables all). Handy when several parties each support features of the same
 * module, e.g. a NETCONF server and the RESTCONF layer in front of it.
 */
export function mergeFeatures(...selections: readonly (FeatureSelection | undefined)[]): FeatureSelection {
  const merged: Record<string, readonly string[] | '*'> = {};
  for (const selection of selections) {
    for (const [module, features] of Object.entries(selection ?? {})) {
      const before = merged[module];
      merged[module] =
        before === '*' || features === '*' ? '*' : [...new Set([...(before ?? []), ...features])];
    }
  }
  return merged;
}
