import { childElement, escapeXmlText, textOf, type XmlElement } from '@yangkit/xml';
import {
  findEntryByKey,
  finishInSlices,
  type InstanceTree,
  ITEMS_PER_STEP,
  leafValue,
  type Steps,
} from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import { NetconfServerError, rpcError } from './errors.js';
import type { NetconfServer } from './server.js';

const JB_NS = 'http://example.com/ns/example-jukebox';
const OPS_NS = 'https://example.com/ns/example-ops';
const ACT_NS = 'https://example.com/ns/example-actions';

/** Options of {@link exampleHandlers}. */
export interface ExampleHandlerOptions {
  /** Called when a reboot's delay has passed (the embedded server itself keeps running). */
  readonly onReboot?: (request: { delay: number; message?: string; language?: string }) => void;
}

function param(input: XmlElement, name: string, ns: string): string | undefined {
  const el = childElement(input, name, ns);
  return el ? textOf(el).trim() : undefined;
}

/**
 * Registers real handlers for the RFC 8040 example modules that are in the server's schema
 * (modules that are absent are skipped, so a deployment without them is unaffected):
 * - example-ops `reboot` (waits `delay` seconds, answers with no output) and `get-reboot-info`;
 * - example-actions `reset` and `get-last-reset-time` on `/interfaces/interface` (an interface
 *   never reset answers the server's start time, "the last reboot time of the device");
 * - example-jukebox library `artist-count`, `album-count`, `song-count` computed from the
 *   configured artists as operational state, and `play` (checks the playlist and song exist).
 */
export function exampleHandlers(server: NetconfServer, options: ExampleHandlerOptions = {}): void {
  const has = (m: string): boolean => server.schema.moduleByName(m)?.implemented === true;
  if (has('example-ops')) {
    let last: { delay: number; message?: string; language?: string } | undefined;
    server.handleRpc('example-ops:reboot', (input) => {
      const delay = Number(param(input, 'delay', OPS_NS) ?? '0');
      const message = param(input, 'message', OPS_NS);
      const language = param(input, 'language', OPS_NS);
      last = {
        delay,
        ...(message !== undefined ? { message } : {}),
        ...(language !== undefined ? { language } : {}),
      };
      const request = last;
      const timer = setTimeout(() => options.onReboot?.(request), delay * 1000);
      timer.unref();
      return undefined;
    });
    server.handleRpc('example-ops:get-reboot-info', () => {
      if (!last) return `<reboot-time xmlns="${OPS_NS}">0</reboot-time>`;
      let out = `<reboot-time xmlns="${OPS_NS}">${last.delay}</reboot-time>`;
      if (last.message !== undefined)
        out += `<message xmlns="${OPS_NS}">${escapeXmlText(last.message)}</message>`;
      if (last.language !== undefined)
        out += `<language xmlns="${OPS_NS}">${escapeXmlText(last.language)}</language>`;
      return out;
    });
  }
  if (has('example-actions')) {
    const lastReset = new Map<string, Date>();
    server.handleAction('/example-actions:interfaces/interface/reset', (input, target) => {
      const delay = Number(param(input, 'delay', ACT_NS) ?? '0');
      const name = leafValue(target, 'name') ?? '';
      const timer = setTimeout(() => lastReset.set(name, new Date()), delay * 1000);
      timer.unref();
      if (delay === 0) {
        clearTimeout(timer);
        lastReset.set(name, new Date());
      }
      return undefined;
    });
    server.handleAction('/example-actions:interfaces/interface/get-last-reset-time', (_input, target) => {
      const name = leafValue(target, 'name') ?? '';
      const t = lastReset.get(name) ?? server.startTime;
      return `<last-reset xmlns="${ACT_NS}">${t.toISOString()}</last-reset>`;
    });
  }
  if (has('example-jukebox')) {
    const jb = server.schema.topLevel('example-jukebox', 'jukebox');
    const library = jb?.dataChild('example-jukebox', 'library');
    const artist = library?.dataChild('example-jukebox', 'artist');
    const album = artist?.dataChild('example-jukebox', 'album');
    const song = album?.dataChild('example-jukebox', 'song');
    const playlist = jb?.dataChild('example-jukebox', 'playlist');
    const playlistSong = playlist?.dataChild('example-jukebox', 'song');
    if (!jb || !library || !artist || !album || !song || !playlist) {
      throw new NetconfServerError(
        'INVALID_OPTION',
        'example-jukebox in the schema lacks the RFC 8040 library',
      );
    }
    // The counts walk the whole library: made once per change of running, not once per read, and in
    // slices, so that a library of many artists does not hold the event loop while it is counted.
    let counted: { readonly running: InstanceTree; readonly xml: Promise<string> } | undefined;
    server.onCommit(() => {
      counted = undefined;
    });
    const librarySchema = { jukebox: jb, library, artist, album, song };
    server.provideState({
      provides: ['example-jukebox:jukebox'],
      get(running) {
        if (counted?.running !== running)
          counted = { running, xml: finishInSlices(libraryCountSteps(running, librarySchema)) };
        return counted.xml;
      },
    });
    server.handleRpc('example-jukebox:play', (input) => {
      const name = param(input, 'playlist', JB_NS) ?? '';
      const number = param(input, 'song-number', JB_NS) ?? '';
      const box = server.running.tree.children.get(jb)?.[0];
      const list = box ? findEntryByKey(box, playlist, name) : undefined;
      if (!list)
        throw rpcError('data-missing', `no playlist "${name}"`, { errorAppTag: 'instance-required' });
      const entry = playlistSong === undefined ? undefined : findEntryByKey(list, playlistSong, number);
      if (entry === undefined) throw rpcError('invalid-value', `playlist "${name}" has no song ${number}`);
      return undefined;
    });
  }
}

/** The schema nodes of the example-jukebox library that its counts walk. */
interface LibrarySchema {
  readonly jukebox: SchemaNode;
  readonly library: SchemaNode;
  readonly artist: SchemaNode;
  readonly album: SchemaNode;
  readonly song: SchemaNode;
}

/**
 * The library's `artist-count`, `album-count` and `song-count` in `running`, as state XML, a step
 * every {@link ITEMS_PER_STEP} artists. Running may change between steps: an artist removed meanwhile
 * may be counted or not, as a count taken while the library changes would be.
 */
function* libraryCountSteps(running: InstanceTree, schema: LibrarySchema): Steps<string> {
  const box = running.children.get(schema.jukebox)?.[0];
  if (box === undefined) return '';
  const artists = box.children?.get(schema.library)?.[0]?.children?.get(schema.artist) ?? [];
  let albums = 0;
  let songs = 0;
  // The length is read again each time: the group may shrink between steps.
  for (let i = 0; i < artists.length; i++) {
    for (const al of artists[i]!.children?.get(schema.album) ?? []) {
      albums++;
      songs += al.children?.get(schema.song)?.length ?? 0;
    }
    if ((i + 1) % ITEMS_PER_STEP === 0) yield;
  }
  return `<jukebox xmlns="${JB_NS}"><library><artist-count>${artists.length}</artist-count><album-count>${albums}</album-count><song-count>${songs}</song-count></library></jukebox>`;
}
