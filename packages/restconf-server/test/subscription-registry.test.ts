import { describe, expect, test } from 'vitest';
import { RestconfError } from '../src/errors.js';
import { SubscriptionRegistry } from '../src/subscriptions/registry.js';
import { SUBSCRIPTION_DEFAULTS, subscriptionSettings } from '../src/subscriptions/subscription-options.js';

function refusal(run: () => unknown): RestconfError {
  try {
    run();
  } catch (error) {
    if (RestconfError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('subscriptionSettings', () => {
  test('fills in the defaults', () => {
    expect(subscriptionSettings()).toEqual({
      maxPerUser: SUBSCRIPTION_DEFAULTS.maxPerUser,
      maxTotal: SUBSCRIPTION_DEFAULTS.maxTotal,
      receiveWithinMs: SUBSCRIPTION_DEFAULTS.receiveWithinSeconds * 1000,
      admins: new Set(),
    });
  });

  test('refuses a limit that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(refusal(() => subscriptionSettings({ maxPerUser: bad })).code).toBe('INVALID_OPTION');
    expect(refusal(() => subscriptionSettings({ receiveWithinSeconds: 0 })).code).toBe('INVALID_OPTION');
  });
});

describe('SubscriptionRegistry', () => {
  const registry = (maxPerUser: number, maxTotal: number) =>
    new SubscriptionRegistry(subscriptionSettings({ maxPerUser, maxTotal }));

  test('refuses a place past the limit of a user with resource-denied and insufficient-resources', () => {
    const r = registry(2, 10);
    r.reserve('alice');
    r.reserve('alice');
    const e = refusal(() => r.reserve('alice'));
    expect(e).toMatchObject({
      code: 'RESOURCE_DENIED',
      errorType: 'application',
      errorTag: 'resource-denied',
      errorAppTag: 'ietf-subscribed-notifications:insufficient-resources',
      status: 409,
    });
  });

  test('counts the places of each user apart, and all of them against the total', () => {
    const r = registry(2, 3);
    r.reserve('alice');
    r.reserve('alice');
    r.reserve('bob');
    expect(refusal(() => r.reserve('bob')).message).toContain('the server holds 3');
  });

  test('the unauthenticated clients share the places of one user', () => {
    const r = registry(1, 10);
    r.reserve(undefined);
    expect(refusal(() => r.reserve(undefined)).code).toBe('RESOURCE_DENIED');
  });

  test('a place given back is free again, and giving it back twice frees only one', () => {
    const r = registry(1, 1);
    const release = r.reserve('alice');
    release();
    release();
    r.reserve('bob');
    expect(refusal(() => r.reserve('alice')).code).toBe('RESOURCE_DENIED');
  });
});
