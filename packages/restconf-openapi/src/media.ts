/** The media types of RFC 8040 section 11.3 and RFC 8072 section 2.1 a RESTCONF server speaks. */
export const MEDIA = {
  dataJson: 'application/yang-data+json',
  dataXml: 'application/yang-data+xml',
  patchJson: 'application/yang-patch+json',
  patchXml: 'application/yang-patch+xml',
  eventStream: 'text/event-stream',
} as const;
