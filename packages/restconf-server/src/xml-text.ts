/** Escapes XML text content (XML 1.0 section 2.4). */
export function escapeText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s;
}

/** Escapes an attribute value written in double quotes (XML 1.0 section 3.1). */
export function escapeAttr(s: string): string {
  return /[&<"]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;') : s;
}
