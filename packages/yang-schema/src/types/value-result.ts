import type { ValueCheck } from './value';
import type { ErrorInfo, YangType } from './yang-type';

/**
 * A failed check carrying the failing restriction's error-message / error-app-tag (RFC 7950 7.5.4).
 * Built as a plain object with a fixed field order, which keeps construction cheap on hot paths.
 */
export const invalid: Fail = (explain, args, info) => {
  const message = explain(...args);
  const appTag = info?.errorAppTag;
  const userMessage = info?.errorMessage;
  if (appTag === undefined && userMessage === undefined)
    return { ok: false, errorTag: 'invalid-value', message };
  if (userMessage === undefined)
    return { ok: false, errorTag: 'invalid-value', message, errorAppTag: appTag! };
  if (appTag === undefined)
    return { ok: false, errorTag: 'invalid-value', message, errorMessage: userMessage };
  return { ok: false, errorTag: 'invalid-value', message, errorAppTag: appTag, errorMessage: userMessage };
};

/** The failure branch of ValueCheck. */
export type Failure = Extract<ValueCheck, { ok: false }>;

/**
 * Builds the failure of a check: `invalid`, or `quietly` where only the verdict matters. The message is
 * `explain(...args)`, made only when wanted. `explain` reads nothing but its arguments: a check that held
 * a closure over its own variables would allocate them on every call, passing or failing, and the checks
 * run for every value decoded.
 */
export type Fail = <const A extends readonly unknown[]>(
  explain: (...args: A) => string,
  args: A,
  info?: ErrorInfo,
) => Failure;

const REJECTED: Failure = Object.freeze({ ok: false, errorTag: 'invalid-value', message: 'rejected' });

/**
 * A Fail that skips building the message: a union tries members that fail routinely and needs their
 * explanations only when every member fails.
 */
export const quietly: Fail = () => REJECTED;

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
