/** A stream entry of `ietf-restconf-monitoring:restconf-state/streams` (RFC 8040 section 9.2.3). */
export interface StreamInfo {
  readonly name: string;
  readonly description?: string;
  readonly replaySupport: boolean;
  /** The stream's URLs by encoding (`json`, `xml`). */
  readonly access: readonly { readonly encoding: string; readonly location: string }[];
}

/**
 * Reads the stream list from the JSON of
 * `GET {+restconf}/data/ietf-restconf-monitoring:restconf-state/streams`:
 *
 *     { "ietf-restconf-monitoring:streams": { "stream": [ { "name": "NETCONF",
 *       "replay-support": true, "access": [ { "encoding": "json", "location": "..." } ] } ] } }
 *
 * Entries without a name and access entries without encoding or location are skipped.
 */
export function parseStreams(data: unknown): StreamInfo[] {
  const streams = (data as Record<string, { stream?: unknown }> | undefined)?.[
    'ietf-restconf-monitoring:streams'
  ];
  const list = Array.isArray(streams?.stream) ? streams.stream : [];
  return list.flatMap((entry: Record<string, unknown>) => {
    if (typeof entry !== 'object' || entry === null || typeof entry.name !== 'string') return [];
    const access = (Array.isArray(entry.access) ? entry.access : []).filter(
      (a): a is { encoding: string; location: string } =>
        typeof a?.encoding === 'string' && typeof a?.location === 'string',
    );
    return [
      {
        name: entry.name,
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
        replaySupport: entry['replay-support'] === true,
        access,
      },
    ];
  });
}
