import { describe, expect, test } from 'vitest';
import { compileSchema, parseModule } from '../src/index';

// Module bodies follow the examples of RFC 7950 (sections named per test).
const example = parseModule(`
module example-system {
  yang-version 1.1;
  namespace "urn:example:system";
  prefix "sys";

  feature local-storage;
  identity crypto-alg;
  identity des { base crypto-alg; }
  identity des3 { base crypto-alg; }

  container system {
    leaf host-name { type string; description "Hostname for this system."; }
    leaf-list domain-search { type string; description "List of domain names to search."; }
    container login {
      leaf message { type string; }
      list user {
        key "name";
        leaf name { type string; }
        leaf full-name { type string; }
        leaf class { type string; }
      }
    }
    container services {
      container ssh { presence "Enables SSH"; }
    }
    leaf crypto { type identityref { base crypto-alg; } }
    container local-storage { if-feature local-storage; }
  }

  grouping target {
    leaf address { type string; }
    leaf port { type uint16; }
  }
  container peer {
    container destination {
      uses target { refine "address" { description "IP address of the destination."; } }
    }
  }

  container food {
    choice snack {
      case sports-arena { leaf pretzel { type empty; } leaf beer { type empty; } }
      case late-night { leaf chocolate { type enumeration { enum dark; enum milk; enum first-available; } } }
    }
  }

  list interface {
    key "name";
    leaf name { type string; }
    leaf admin-status { type string; }
    list address {
      key "ip";
      leaf ip { type string; }
    }
  }
  leaf mgmt-interface { type leafref { path "../interface/name"; } }
  container default-address {
    leaf ifname { type leafref { path "../../interface/name"; } }
    leaf address {
      type leafref { path "../../interface[name = current()/../ifname]/address/ip"; }
    }
  }

  rpc activate-software-image {
    input { leaf image-name { type string; } }
    output { leaf status { type string; } }
  }
  list server {
    key name;
    leaf name { type string; }
    action reset {
      input { leaf reset-at { type string; mandatory true; } }
      output { leaf reset-finished-at { type string; mandatory true; } }
    }
  }
  notification link-failure {
    leaf if-name { type leafref { path "/interface/name"; } }
    leaf if-admin-status { type string; }
  }
}`);

const ds0 = parseModule(`
module example-ds0 {
  yang-version 1.1;
  namespace "urn:example:ds0";
  prefix ds0;
  import example-system { prefix sys; }
  augment "/sys:interface" {
    when "sys:name = 'ds0'";
    leaf ds0ChannelNumber { type int32; }
  }
  deviation /sys:system/sys:login/sys:user {
    deviate add { max-elements 10; }
  }
  deviation /sys:system/sys:domain-search {
    deviate add { max-elements 3; }
  }
}`);

const tree = compileSchema([example, ds0], { features: { 'example-system': [] } });

describe('RFC 7950 examples', () => {
  test('4.2.2.1-4: container, leaf, leaf-list and list', () => {
    expect(tree.find('/example-system:system/host-name')?.kind).toBe('leaf');
    expect(tree.find('/example-system:system/domain-search')?.kind).toBe('leaf-list');
    expect(tree.find('/example-system:system/login/user')?.keys).toEqual(['name']);
  });

  test('7.5.5: a presence container keeps its meaning', () => {
    expect(tree.find('/example-system:system/services/ssh')?.presence).toBe('Enables SSH');
  });

  test('7.9.6: choice with two cases', () => {
    const snack = tree.find('/example-system:food/snack');
    expect(snack?.children.map((c) => `${c.kind}:${c.name}`)).toEqual([
      'case:sports-arena',
      'case:late-night',
    ]);
    expect(
      tree
        .find('/example-system:food')
        ?.dataChildren()
        .map((c) => c.name),
    ).toEqual(['pretzel', 'beer', 'chocolate']);
  });

  test('7.13.3: refine changes the description of a grouping leaf', () => {
    expect(tree.find('/example-system:peer/destination/address')?.description).toBe(
      'IP address of the destination.',
    );
  });

  test('7.14.5 and 7.15.3: rpc and action with input and output', () => {
    expect(tree.find('/example-system:activate-software-image/output/status')?.isOperation).toBe(true);
    const reset = tree.find('/example-system:server/reset');
    expect(reset?.kind).toBe('action');
    expect(reset?.dataChild('example-system', 'reset-at')?.mandatory).toBe(true);
  });

  test('7.16.3: notification with a leafref to the interface list', () => {
    const ifName = tree.find('/example-system:link-failure/if-name');
    expect(ifName?.type?.leafrefTarget).toBe(tree.find('/example-system:interface/name'));
  });

  test('7.17.5: augment with when adds a node in the augmenting namespace', () => {
    const ch = tree.find('/example-system:interface/example-ds0:ds0ChannelNumber');
    expect(ch?.namespace).toBe('urn:example:ds0');
    expect(ch?.when[0]?.expression).toBe("sys:name = 'ds0'");
  });

  test('7.18.3: identities with a common base', () => {
    expect(tree.isDerivedFrom('example-system:des3', 'example-system:crypto-alg')).toBe(true);
  });

  test('7.20.3.3: deviate add sets max-elements', () => {
    expect(tree.find('/example-system:system/login/user')?.maxElements).toBe(10);
    expect(tree.find('/example-system:system/domain-search')?.maxElements).toBe(3);
  });

  test('7.20.1: a disabled feature removes its nodes', () => {
    expect(tree.find('/example-system:system/local-storage')).toBeUndefined();
  });

  test('9.9.6: leafref paths with "../" steps and a current() predicate', () => {
    const name = tree.find('/example-system:interface/name');
    expect(tree.find('/example-system:mgmt-interface')?.type?.leafrefTarget).toBe(name);
    expect(tree.find('/example-system:default-address/ifname')?.type?.leafrefTarget).toBe(name);
    expect(tree.find('/example-system:default-address/address')?.type?.leafrefTarget).toBe(
      tree.find('/example-system:interface/address/ip'),
    );
  });
});
