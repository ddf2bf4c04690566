import type { ValueCheck } from './value';
import type { ErrorInfo, YangType } from './yang-type';

/**
 * A failed check carrying the failing restriction's error-message / error-app-tag (RFC 7950 7.5.4). The
 * message is built on first read: a union tries members that fail routinely, and their texts are needed
 * only when every member fails.
 */
export function invalid(explain: () => string, info?: ErrorInfo): Failure {
  let message: string | undefined;
  return {
    ok: false,
    errorTag: 'invalid-value',
    get message(): string {
      message ??= explain();
      return message;
    },
    ...(info?.errorAppTag !== undefined ? { errorAppTag: info.errorAppTag } : {}),
    ...(info?.errorMessage !== undefined ? { errorMessage: info.errorMessage } : {}),
  };
}

/** The failure branch of ValueCheck. */
export type Failure = Extract<ValueCheck, { ok: false }>;

/** A successful check. */
export function valid(canonical: string): ValueCheck {
  return { ok: true, canonical };
}

/** Quotes a value for an error message, bounded so huge inputs do not produce huge messages. */
export function quote(text: string): string {
  const shown = text.length > 64 ? `${text.slice(0, 61)}...` : text;
  return JSON.stringify(shown);
}

/** "type int8" or "type m:percent (int8)" for error messages. */
export function describe(type: YangType): string {
  return type.name === type.base ? `type ${type.base}` : `type ${type.name} (${type.base})`;
}
