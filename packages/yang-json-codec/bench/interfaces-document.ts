/**
 * The benchmark document: `count` ietf-interfaces entries with ietf-ip IPv4 and IPv6 configuration, as
 * NETCONF XML (what a `<get>` reply carries).
 */
export function interfacesXml(count: number): string {
  const parts: string[] = [
    '<interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces" xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">\n',
  ];
  for (let i = 0; i < count; i++) {
    const a = (i >> 8) & 255;
    const b = i & 255;
    parts.push(
      `  <interface>\n    <name>eth${i}</name>\n    <description>uplink ${i}</description>\n    <type>ianaift:ethernetCsmacd</type>\n    <enabled>${i % 7 === 0 ? 'false' : 'true'}</enabled>\n` +
        `    <ipv4 xmlns="urn:ietf:params:xml:ns:yang:ietf-ip">\n      <mtu>1500</mtu>\n      <address>\n        <ip>10.${a}.${b}.1</ip>\n        <prefix-length>24</prefix-length>\n      </address>\n    </ipv4>\n` +
        `    <ipv6 xmlns="urn:ietf:params:xml:ns:yang:ietf-ip">\n      <address>\n        <ip>2001:db8:${a.toString(16)}:${b.toString(16)}::1</ip>\n        <prefix-length>64</prefix-length>\n      </address>\n    </ipv6>\n  </interface>\n`,
    );
  }
  parts.push('</interfaces>\n');
  return parts.join('');
}
