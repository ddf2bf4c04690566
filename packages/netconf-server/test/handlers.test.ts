import { encodeJson } from '@yangkit/yang-json-codec';
import { afterEach, expect, test } from 'vitest';
import { exampleHandlers } from '../src/example-handlers.js';
import type { NetconfServer } from '../src/server.js';
import { client, JB, rpcErrorOf, serverWithArtists, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const OPS = 'https://example.com/ns/example-ops';
const ACT = 'https://example.com/ns/example-actions';

async function setup() {
  server = await testServer();
  exampleHandlers(server);
  return client(server);
}

test('reboot answers ok and get-reboot-info reports its parameters', async () => {
  const c = await setup();
  const reply = await c.rpc(
    `<reboot xmlns="${OPS}"><delay>600</delay><message>Going down</message><language>en-US</language></reboot>`,
  );
  expect(reply.ok).toBe(true);
  const info = await c.rpc(`<get-reboot-info xmlns="${OPS}"/>`);
  expect(info.xml).toContain('<reboot-time xmlns="https://example.com/ns/example-ops">600</reboot-time>');
  expect(info.xml).toContain('Going down');
});

test('an rpc input of the wrong type fails with invalid-value', async () => {
  const c = await setup();
  const e = await rpcErrorOf(c.rpc(`<reboot xmlns="${OPS}"><delay>soon</delay></reboot>`));
  expect(e.errors[0]!.errorTag).toBe('invalid-value');
});

test('the reset action runs on an existing interface and sets its last reset time', async () => {
  const c = await setup();
  await c.editConfig({
    target: 'running',
    config: `<interfaces xmlns="${ACT}"><interface><name>eth0</name></interface></interfaces>`,
  });
  const action = (inner: string) =>
    `<action xmlns="urn:ietf:params:xml:ns:yang:1"><interfaces xmlns="${ACT}"><interface><name>eth0</name>${inner}</interface></interfaces></action>`;
  expect((await c.rpc(action('<reset><delay>0</delay></reset>'))).ok).toBe(true);
  const out = await c.rpc(action('<get-last-reset-time/>'));
  expect(out.xml).toMatch(/<last-reset[^>]*>\d{4}-\d\d-\d\dT/);
});

test('get-last-reset-time of an interface never reset answers the server start time', async () => {
  const c = await setup();
  await c.editConfig({
    target: 'running',
    config: `<interfaces xmlns="${ACT}"><interface><name>eth1</name></interface></interfaces>`,
  });
  const out = await c.rpc(
    `<action xmlns="urn:ietf:params:xml:ns:yang:1"><interfaces xmlns="${ACT}"><interface><name>eth1</name><get-last-reset-time/></interface></interfaces></action>`,
  );
  expect(out.xml).toContain(`>${server.startTime.toISOString()}</last-reset>`);
});

test('an action on a missing instance fails with data-missing', async () => {
  const c = await setup();
  const e = await rpcErrorOf(
    c.rpc(
      `<action xmlns="urn:ietf:params:xml:ns:yang:1"><interfaces xmlns="${ACT}"><interface><name>none</name><reset/></interface></interfaces></action>`,
    ),
  );
  expect(e.errors[0]!.errorTag).toBe('data-missing');
});

test('an action on a missing instance names the action and the missing instance in error-path', async () => {
  const c = await setup();
  await c.editConfig({
    target: 'running',
    config: `<interfaces xmlns="${ACT}"><interface><name>eth0</name></interface></interfaces>`,
  });
  const e = await rpcErrorOf(
    c.rpc(
      `<action xmlns="urn:ietf:params:xml:ns:yang:1"><interfaces xmlns="${ACT}"><interface><name>none</name><reset><delay>0</delay></reset></interface></interfaces></action>`,
    ),
  );
  expect(e.errors[0]!.errorMessage).toContain('"reset"');
  expect(e.errors[0]!.errorPath).toBe("/act:interfaces/act:interface[act:name='none']");
});

test('the jukebox library counts are computed from the configured artists', async () => {
  const c = await setup();
  const album = (n: string, songs: number) =>
    `<album><name>${n}</name>${Array.from({ length: songs }, (_, i) => `<song><name>s${i}</name><location>/m/${i}</location><format>MP3</format><length>1</length></song>`).join('')}</album>`;
  await c.editConfig({
    target: 'running',
    config: `<jukebox xmlns="${JB}"><library><artist><name>A</name>${album('x', 2)}${album('y', 1)}</artist><artist><name>B</name>${album('z', 3)}</artist></library></jukebox>`,
  });
  const data = await c.get({
    filter: {
      subtree: `<jukebox xmlns="${JB}"><library><artist-count/><album-count/><song-count/></library></jukebox>`,
    },
  });
  expect(data).toContain(
    '<artist-count>2</artist-count><album-count>3</album-count><song-count>6</song-count>',
  );
});

test('the jukebox library counts follow each change of running after a read', async () => {
  const c = await setup();
  const counts = { subtree: `<jukebox xmlns="${JB}"><library><artist-count/></library></jukebox>` };
  const artist = (name: string) =>
    c.editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><library><artist><name>${name}</name></artist></library></jukebox>`,
    });
  await artist('A');
  expect(await c.get({ filter: counts })).toContain('<artist-count>1</artist-count>');
  await artist('B');
  expect(await c.get({ filter: counts })).toContain('<artist-count>2</artist-count>');
});

test('an rpc of the schema without a handler fails with operation-not-supported', async () => {
  server = await testServer();
  const c = await client(server);
  const e = await rpcErrorOf(c.rpc(`<get-reboot-info xmlns="${OPS}"/>`));
  expect(e.errors[0]!.errorTag).toBe('operation-not-supported');
});

test('an rpc in an unknown namespace fails with unknown-namespace', async () => {
  server = await testServer();
  const c = await client(server);
  const e = await rpcErrorOf(c.rpc('<nope xmlns="urn:example:nope"/>'));
  expect(e.errors[0]!.errorTag).toBe('unknown-namespace');
});

test('the jukebox library counts of a big library are made in slices, the event loop turning meanwhile', async () => {
  server = await serverWithArtists(200_000);
  exampleHandlers(server);
  let counted = false;
  let turns = 0;
  const tick = () => {
    turns++;
    if (!counted) setImmediate(tick);
  };
  setImmediate(tick);
  const [state] = await server.operationalState(undefined, (name) => name === 'example-jukebox:jukebox');
  counted = true;
  expect(encodeJson(state!)).toContain('"artist-count":200000');
  // Counting 200,000 artists takes more than a slice (5 ms): before, it was one run of the event loop.
  expect(turns).toBeGreaterThan(0);
});
