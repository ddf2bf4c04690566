/**
 * YANG identifier (RFC 7950 section 6.2, RFC 8040 section 3.5.3 ABNF):
 * `(ALPHA / "_") *(ALPHA / DIGIT / "_" / "-" / ".")`.
 */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** True when `text` is a YANG identifier. */
export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}
