import { CodecError } from './errors';

/** XML 1.0 section 3.3.3: literal whitespace characters in attribute values read as spaces. */
export function normalizeAttribute(value: string): string {
  return /[\t\r\n]/.test(value) ? value.replace(/[\t\r\n]/g, ' ') : value;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references (XML 1.0 section 4.1); refuses others. */
export function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) {
      throw new CodecError('XML_MALFORMED', 'bare "&" in text', { errorTag: 'malformed-message' });
    }
    const named = PREDEFINED[ref];
    if (named !== undefined) return named;
    let code = Number.NaN;
    if (/^#x[0-9a-fA-F]{1,6}$/.test(ref)) code = Number.parseInt(ref.slice(2), 16);
    else if (/^#[0-9]{1,7}$/.test(ref)) code = Number.parseInt(ref.slice(1), 10);
    else {
      throw new CodecError('XML_FORBIDDEN', `undeclared entity "&${ref};"`, {
        errorTag: 'malformed-message',
      });
    }
    if (!isXmlChar(code)) {
      throw new CodecError('XML_MALFORMED', `character reference "&${ref};" is not an XML character`, {
        errorTag: 'malformed-message',
      });
    }
    return String.fromCodePoint(code);
  });
}

function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}
