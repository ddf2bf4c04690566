import { RestconfClient, RestconfResponseError } from '@yangkit/restconf-client';

/** Adds an artist to the RFC 8040 example jukebox and reads it back; tells a duplicate apart. */
export async function addArtist(baseUrl: string, name: string): Promise<string> {
  const client = new RestconfClient({ baseUrl }); // the root comes from /.well-known/host-meta
  try {
    await client.create('/example-jukebox:jukebox/library', { 'example-jukebox:artist': [{ name }] });
  } catch (error) {
    if (RestconfResponseError.isInstance(error) && error.errorTag === 'data-exists') return 'exists';
    throw error;
  }
  // Segments instead of text: restconf-uri percent-encodes the key ("AC/DC" -> AC%2FDC).
  const { data, etag } = await client.get([
    { module: 'example-jukebox', name: 'jukebox' },
    { name: 'library' },
    { name: 'artist', keys: [name] },
  ]);
  return `${JSON.stringify(data)} ${etag}`;
}
