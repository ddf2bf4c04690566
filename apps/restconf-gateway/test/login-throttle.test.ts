import { describe, expect, test } from 'vitest';
import { addressKey, LoginThrottle } from '../src/security/login-throttle.js';

/** A throttle on a clock the test moves. */
function throttle(limits: ConstructorParameters<typeof LoginThrottle>[0]) {
  const clock = { now: 0 };
  return { clock, t: new LoginThrottle(limits, () => clock.now) };
}

/** One login that fails. */
function fail(t: LoginThrottle, address: string, user: string): number {
  const wait = t.admit(address, user);
  if (wait === 0) t.settle(address, user, 'failure');
  return wait;
}

describe('LoginThrottle', () => {
  test('lets an address fail as many times as its budget, then makes it wait 1 s', () => {
    const { t } = throttle({ failuresPerAddress: 3 });
    expect([1, 2, 3].map(() => fail(t, '192.0.2.1', 'alice'))).toEqual([0, 0, 0]);
    expect(t.admit('192.0.2.1', 'alice')).toBe(1);
  });

  test('doubles the wait with each failure past the budget', () => {
    const { clock, t } = throttle({ failuresPerAddress: 1 });
    fail(t, '192.0.2.1', 'alice');
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const wait = t.admit('192.0.2.1', 'alice');
      waits.push(wait);
      clock.now += wait * 1000;
      fail(t, '192.0.2.1', 'alice');
    }
    expect(waits).toEqual([1, 2, 4, 8]);
  });

  test('forgets the failures of an address that has not failed for a minute past its wait', () => {
    const { clock, t } = throttle({ failuresPerAddress: 1 });
    fail(t, '192.0.2.1', 'alice');
    clock.now += 61_001;
    expect(t.admit('192.0.2.1', 'alice')).toBe(0);
  });

  test('does not hold back another address for the failures of one', () => {
    const { t } = throttle({ failuresPerAddress: 1 });
    fail(t, '192.0.2.1', 'alice');
    expect(t.admit('192.0.2.2', 'alice')).toBe(0);
  });

  test('holds back logins for a user name that failed its budget from addresses it has not logged in from', () => {
    const { t } = throttle({ failuresPerAddress: 100, failuresPerUser: 3 });
    expect(t.admit('198.51.100.7', 'alice')).toBe(0);
    t.settle('198.51.100.7', 'alice', 'success');
    for (const n of [1, 2, 3]) fail(t, `192.0.2.${n}`, 'alice');
    expect(t.admit('192.0.2.99', 'alice')).toBe(1);
    expect(t.admit('198.51.100.7', 'alice')).toBe(0);
    expect(t.admit('192.0.2.99', 'bob')).toBe(0);
  });

  test('counts unknown user names as it counts known ones', () => {
    const { t } = throttle({ failuresPerAddress: 100, failuresPerUser: 1 });
    fail(t, '192.0.2.1', 'nobody');
    expect(t.admit('192.0.2.2', 'nobody')).toBe(1);
  });

  test('lets an address have a bounded number of logins in progress', () => {
    const { t } = throttle({ inProgressPerAddress: 2 });
    expect([t.admit('192.0.2.1', 'a'), t.admit('192.0.2.1', 'b'), t.admit('192.0.2.1', 'c')]).toEqual([
      0, 0, 1,
    ]);
    t.settle('192.0.2.1', 'a', 'unchecked');
    expect(t.admit('192.0.2.1', 'c')).toBe(0);
  });

  test('does not clear the failures of an address when it logs in', () => {
    const { t } = throttle({ failuresPerAddress: 2 });
    fail(t, '192.0.2.1', 'victim');
    t.admit('192.0.2.1', 'own');
    t.settle('192.0.2.1', 'own', 'success');
    fail(t, '192.0.2.1', 'victim');
    expect(t.admit('192.0.2.1', 'victim')).toBe(1);
  });

  test('counts the addresses of one IPv6 /64 as one', () => {
    const { t } = throttle({ failuresPerAddress: 1 });
    fail(t, '2001:db8:1:2::1', 'alice');
    expect(t.admit('2001:db8:1:2:ffff::9', 'alice')).toBe(1);
    expect(t.admit('2001:db8:1:3::1', 'alice')).toBe(0);
  });
});

describe('addressKey', () => {
  test('keeps IPv4 addresses and unwraps IPv4-mapped ones', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  test('names an IPv6 address by its /64 whatever its notation', () => {
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:0db8:0000:0000:0000:0000:0000:0002')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
