import { bench, describe } from 'vitest';
import { classifyTarget, formatApiPath, parseApiPath, parseQuery } from '../src/index.js';

/** Representative api-paths: RFC 8040 examples, IETF models, encoded and non-ASCII keys. */
const PATHS = [
  '/example-jukebox:jukebox',
  '/example-jukebox:jukebox/library',
  '/example-jukebox:jukebox/library/artist=Foo%20Fighters',
  '/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light',
  '/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light/song=Rope/location',
  '/example-jukebox:jukebox/playlist=Foo-One/song=1',
  '/example-jukebox:jukebox/player/gap',
  '/example-top:top/list1=key1,key2,key3/list2=key4,key5/X',
  '/example-top:top/Y=instance-value',
  '/example-top:top/list1=%2C%27"%3A"%20%2F,,foo',
  '/ietf-interfaces:interfaces/interface=eth0',
  '/ietf-interfaces:interfaces/interface=eth0/ietf-ip:ipv4/address=192.0.2.1',
  '/ietf-interfaces:interfaces/interface=GigabitEthernet0%2F0%2F1/description',
  '/ietf-routing:routing/control-plane-protocols/control-plane-protocol=ietf-ospf:ospfv2,1',
  '/ietf-system:system/clock/timezone-name',
  '/ietf-netconf-acm:nacm/rule-list=admin/rule=permit-all',
  '/ietf-restconf-monitoring:restconf-state/streams/stream=NETCONF',
  '/ietf-yang-library:yang-library/module-set=complete/module=ietf-interfaces',
  '/example-jukebox:jukebox/library/artist=Mot%C3%B6rhead/album=Ace%20of%20Spades',
  '/openconfig-network-instance:network-instances/network-instance=default/protocols/protocol=BGP,bgp/bgp/neighbors/neighbor=fe80::1',
];
const FULL = PATHS.map((p) => `/restconf/data${p}`);
const PARSED = PATHS.map((p) => parseApiPath(p));
const BASE = 'http://localhost';
/** Longer runs than the default keep the ratios steady on a busy machine. */
const OPTIONS = { time: 2000, warmupTime: 500 };

describe('api-path parsing (20 paths per iteration)', () => {
  bench(
    'baseline: new URL() on the same strings',
    () => {
      for (const p of PATHS) new URL(p, BASE);
    },
    OPTIONS,
  );

  bench(
    'parseApiPath',
    () => {
      for (const p of PATHS) parseApiPath(p);
    },
    OPTIONS,
  );

  bench(
    'classifyTarget on /restconf/data + path',
    () => {
      for (const p of FULL) classifyTarget(p);
    },
    OPTIONS,
  );

  bench(
    'formatApiPath',
    () => {
      for (const p of PARSED) formatApiPath(p);
    },
    OPTIONS,
  );
});

const QUERIES = [
  'depth=2',
  'content=config&depth=unbounded',
  'fields=ietf-yang-library:modules-state/module(name;revision)',
  'with-defaults=report-all-tagged&with-etag',
  'depth=3&fields=library/artist(name;album/name)&content=nonconfig&acme:trace=on',
];

describe('query parsing (5 queries per iteration)', () => {
  bench(
    'baseline: new URLSearchParams() on the same strings',
    () => {
      for (const q of QUERIES) new URLSearchParams(q).forEach(() => {});
    },
    OPTIONS,
  );

  bench(
    'parseQuery (GET on a data resource)',
    () => {
      for (const q of QUERIES) parseQuery(q, { method: 'GET', resource: 'data' });
    },
    OPTIONS,
  );
});
