import { readXmlDocument as parseXml } from '@yangkit/xml';
import { describe, expect, test } from 'vitest';
import { NetconfError } from '../src/errors.js';
import {
  buildCancelCommit,
  buildCommit,
  buildCopyConfig,
  buildCreateSubscription,
  buildDeleteConfig,
  buildEditConfig,
  buildEditData,
  buildEndSubscription,
  buildEstablishSubscription,
  buildFilter,
  buildGet,
  buildGetConfig,
  buildGetData,
  buildGetSchema,
  buildKillSession,
  buildLock,
  buildModifySubscription,
  buildUnlock,
  buildValidate,
} from '../src/operations.js';

describe('RFC 6241 operations', () => {
  test('get carries a subtree filter and with-defaults', () => {
    expect(buildGet({ filter: '<top xmlns="urn:t"/>', withDefaults: 'report-all' })).toBe(
      '<get><filter type="subtree"><top xmlns="urn:t"/></filter><with-defaults xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-with-defaults">report-all</with-defaults></get>',
    );
  });

  test('an xpath filter declares its prefixes and escapes the expression', () => {
    expect(buildFilter({ xpath: "/t:top[t:name='a&b']", namespaces: { t: 'urn:t' } })).toBe(
      '<filter type="xpath" xmlns:t="urn:t" select="/t:top[t:name=\'a&amp;b\']"/>',
    );
  });

  test('get-config names the source datastore', () => {
    expect(buildGetConfig({ source: 'candidate' })).toBe(
      '<get-config><source><candidate/></source></get-config>',
    );
  });

  test('edit-config orders its parameters as RFC 6241 section 7.2 lists them', () => {
    expect(
      buildEditConfig({
        target: 'candidate',
        config: '<a/>',
        defaultOperation: 'none',
        testOption: 'test-then-set',
        errorOption: 'rollback-on-error',
      }),
    ).toBe(
      '<edit-config><target><candidate/></target><default-operation>none</default-operation><test-option>test-then-set</test-option><error-option>rollback-on-error</error-option><config><a/></config></edit-config>',
    );
  });

  test('edit-config takes its config from a URL', () => {
    expect(buildEditConfig({ target: 'running', config: { url: 'file:///a&b.xml' } })).toBe(
      '<edit-config><target><running/></target><url>file:///a&amp;b.xml</url></edit-config>',
    );
  });

  test('copy-config copies inline config into a URL', () => {
    expect(buildCopyConfig({ target: { url: 'file:///x' }, source: { config: '<a/>' } })).toBe(
      '<copy-config><target><url>file:///x</url></target><source><config><a/></config></source></copy-config>',
    );
  });

  test('delete-config, lock and unlock name their target', () => {
    expect(buildDeleteConfig({ target: 'startup' })).toBe(
      '<delete-config><target><startup/></target></delete-config>',
    );
    expect(buildLock({ target: 'running' })).toBe('<lock><target><running/></target></lock>');
    expect(buildUnlock({ target: 'running' })).toBe('<unlock><target><running/></target></unlock>');
  });

  test('refuses a datastore name that is not an identifier', () => {
    expect(() => buildLock({ target: 'run ning/>' })).toThrow(NetconfError);
  });

  test('a plain commit is empty', () => {
    expect(buildCommit()).toBe('<commit/>');
  });

  test('a confirmed commit carries timeout, persist and persist-id', () => {
    expect(buildCommit({ confirmed: true, confirmTimeout: 30, persist: 'p1' })).toBe(
      '<commit><confirmed/><confirm-timeout>30</confirm-timeout><persist>p1</persist></commit>',
    );
    expect(buildCommit({ persistId: 'p1' })).toBe('<commit><persist-id>p1</persist-id></commit>');
  });

  test('refuses a confirm-timeout of zero seconds', () => {
    expect(() => buildCommit({ confirmed: true, confirmTimeout: 0 })).toThrow(NetconfError);
  });

  test('cancel-commit carries an optional persist-id', () => {
    expect(buildCancelCommit()).toBe('<cancel-commit/>');
    expect(buildCancelCommit({ persistId: 'p<1' })).toBe(
      '<cancel-commit><persist-id>p&lt;1</persist-id></cancel-commit>',
    );
  });

  test('validate names a datastore or inline config', () => {
    expect(buildValidate({ source: 'candidate' })).toBe('<validate><source><candidate/></source></validate>');
    expect(buildValidate({ source: { config: '<a/>' } })).toBe(
      '<validate><source><config><a/></config></source></validate>',
    );
  });

  test('kill-session refuses a session-id that is not a positive integer', () => {
    expect(buildKillSession(5)).toBe('<kill-session><session-id>5</session-id></kill-session>');
    expect(() => buildKillSession(0)).toThrow(NetconfError);
  });
});

describe('other RFCs', () => {
  test('get-schema sends the format identity prefixed', () => {
    const xml = buildGetSchema({ identifier: 'ietf-interfaces', version: '2014-05-08', format: 'yang' });
    const el = parseXml(xml);
    expect(el.ns).toBe('urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring');
    expect(xml).toContain(
      '<format xmlns:ncm="urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring">ncm:yang</format>',
    );
  });

  test('get-data names an ietf-datastores identity', () => {
    expect(buildGetData({ datastore: 'operational', filter: '<a/>', maxDepth: 2, withOrigin: true })).toBe(
      '<get-data xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-nmda"><datastore xmlns:ds="urn:ietf:params:xml:ns:yang:ietf-datastores">ds:operational</datastore><subtree-filter><a/></subtree-filter><max-depth>2</max-depth><with-origin/></get-data>',
    );
  });

  test('get-data takes an xpath filter as an element', () => {
    expect(
      buildGetData({ datastore: 'running', filter: { xpath: '/a:b', namespaces: { a: 'urn:a' } } }),
    ).toContain('<xpath-filter xmlns:a="urn:a">/a:b</xpath-filter>');
  });

  test('edit-data carries its config and default-operation', () => {
    expect(buildEditData({ datastore: 'running', config: '<a/>', defaultOperation: 'replace' })).toContain(
      '<default-operation>replace</default-operation><config><a/></config></edit-data>',
    );
  });

  test('create-subscription carries stream, filter and times in RFC 5277 order', () => {
    expect(
      buildCreateSubscription({
        stream: 'NETCONF',
        filter: '<x/>',
        startTime: '2024-01-01T00:00:00Z',
        stopTime: '2024-01-02T00:00:00Z',
      }),
    ).toBe(
      '<create-subscription xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><stream>NETCONF</stream><filter type="subtree"><x/></filter><startTime>2024-01-01T00:00:00Z</startTime><stopTime>2024-01-02T00:00:00Z</stopTime></create-subscription>',
    );
  });

  test('establish-subscription carries a stream filter by name', () => {
    expect(
      buildEstablishSubscription({ stream: 'NETCONF', filter: { name: 'f1' }, encoding: 'encode-xml' }),
    ).toBe(
      '<establish-subscription xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications"><stream>NETCONF</stream><stream-filter-name>f1</stream-filter-name><encoding>encode-xml</encoding></establish-subscription>',
    );
  });

  test('modify-, delete- and kill-subscription name the subscription id', () => {
    expect(buildModifySubscription({ id: 3, stopTime: '2030-01-01T00:00:00Z' })).toContain(
      '<id>3</id><stop-time>',
    );
    expect(buildEndSubscription('delete', 3)).toContain('<delete-subscription');
    expect(buildEndSubscription('kill', 3)).toContain('<kill-subscription');
  });
});
