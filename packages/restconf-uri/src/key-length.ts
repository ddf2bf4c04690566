import type { KeyValue, ResolvedApiPath, ResolvedStep } from './resolve.js';

/** A list key value of a resolved path that is over a length limit. */
export interface LongKey {
  /** The step (list entry) the key belongs to. */
  readonly step: ResolvedStep;
  readonly key: KeyValue;
}

/** The length of `text` in UTF-8 bytes (a lone surrogate counts 3, as U+FFFD would). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The first list key value of `resolved` longer than `maxBytes` UTF-8 bytes, if any. Keys come
 * back in Location headers, error paths and every later request URI, so servers bound them.
 */
export function findLongKey(resolved: ResolvedApiPath, maxBytes: number): LongKey | undefined {
  for (const step of resolved.steps) {
    for (const key of step.keys ?? []) {
      // UTF-8 takes at most 3 bytes per UTF-16 code unit: count only when it could matter.
      if (key.value.length * 3 > maxBytes && utf8Length(key.value) > maxBytes) return { step, key };
    }
  }
  return undefined;
}
