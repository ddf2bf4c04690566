/**
 * The `Authorization` value of HTTP Basic authentication (RFC 7617): `Basic ` and the base64
 * of the UTF-8 bytes of `user:password`. Uses `btoa`, so it runs in browsers too.
 */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
