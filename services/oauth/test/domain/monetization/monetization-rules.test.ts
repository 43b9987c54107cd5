import {
  addOnePeriod,
  planSubscriptionChange,
} from '../../../src/domain/monetization/plan-subscription-change';
import {
  readEntitlementQuery,
  readSubscriptionQuery,
} from '../../../src/domain/monetization/read-monetization-queries';
import { isEntitlementActive, renderEntitlement } from '../../../src/domain/monetization/render-monetization';
import {
  slugify,
  validateGrantBody,
  validateNewSku,
  validateRenewalSkusBody,
  validateTestEntitlementBody,
} from '../../../src/domain/monetization/validate-monetization-bodies';
import type { EntitlementRecord } from '../../../src/domain/monetization/monetization-records';
import { formErrorsOf, oneError } from '../../support/form-errors-of';

const entitlement: EntitlementRecord = {
  id: '10',
  applicationId: '1',
  skuId: '2',
  userId: '3',
  guildId: null,
  type: 1,
  deleted: false,
  consumed: false,
  startsAt: new Date('2026-01-01T00:00:00Z'),
  endsAt: null,
  subscriptionId: null,
};

describe('monetization rules', () => {
  it('reads List Entitlements queries with their defaults and refuses malformed ones', () => {
    expect(readEntitlementQuery({})).toEqual({
      userId: null,
      guildId: null,
      skuIds: null,
      before: null,
      after: null,
      limit: 100,
      excludeEnded: false,
      excludeDeleted: true,
    });
    expect(
      readEntitlementQuery({ sku_ids: '5,6,5', exclude_ended: 'True', exclude_deleted: '0' }),
    ).toMatchObject({
      skuIds: ['5', '6'],
      excludeEnded: true,
      excludeDeleted: false,
    });
    expect(formErrorsOf(() => readEntitlementQuery({ limit: '101' }))).toEqual(
      oneError(['limit'], 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 100.'),
    );
    expect(
      Object.keys(formErrorsOf(() => readEntitlementQuery({ user_id: 'me', sku_ids: ',', after: '1e3' }))),
    ).toEqual(['user_id', 'sku_ids', 'after']);
    expect(
      formErrorsOf(() => readEntitlementQuery({ sku_ids: Array(101).fill('1').join(',') })),
    ).toHaveProperty('sku_ids');
    expect(readSubscriptionQuery({}, true).limit).toBe(50);
    expect(formErrorsOf(() => readSubscriptionQuery({}, false))).toHaveProperty('user_id');
  });

  it('validates SKU, grant and renewal bodies', () => {
    expect(validateNewSku({ type: 5, name: '  Gold Tier! ' })).toEqual({
      type: 5,
      name: 'Gold Tier!',
      slug: 'gold-tier',
      flags: 260,
    });
    expect(validateNewSku({ type: 3, name: 'x', slug: 'my-x', flags: 0 })).toEqual({
      type: 3,
      name: 'x',
      slug: 'my-x',
      flags: 0,
    });
    expect(
      Object.keys(formErrorsOf(() => validateNewSku({ type: 5, name: 'x', flags: 4 | 128 | 256 }))),
    ).toEqual(['flags']);
    expect(Object.keys(formErrorsOf(() => validateNewSku({ type: 2, name: 'x', slug: 'A B' })))).toEqual([
      'slug',
    ]);
    expect(slugify('***')).toBe('sku');
    expect(validateTestEntitlementBody({ sku_id: '1', owner_id: '2', owner_type: 1 })).toEqual({
      skuId: '1',
      owner: { userId: null, guildId: '2' },
    });
    expect(Object.keys(formErrorsOf(() => validateTestEntitlementBody({ owner_type: 3 })))).toEqual([
      'sku_id',
      'owner_id',
      'owner_type',
    ]);
    expect(validateGrantBody({ sku_id: '1', guild_id: '9' }, false).owner).toEqual({
      userId: null,
      guildId: '9',
    });
    expect(Object.keys(formErrorsOf(() => validateGrantBody({ sku_id: '1', guild_id: '9' }, true)))).toEqual([
      'user_id',
    ]);
    expect(validateRenewalSkusBody({ renewal_sku_ids: null })).toBeNull();
    expect(validateRenewalSkusBody({ renewal_sku_ids: ['1', 1, '1'] })).toEqual(['1']);
    expect(Object.keys(formErrorsOf(() => validateRenewalSkusBody({})))).toEqual(['renewal_sku_ids']);
  });

  it('moves periods by a calendar month, clamped to the month end, and plans each change', () => {
    expect(addOnePeriod(new Date('2026-01-31T08:00:00Z')).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(addOnePeriod(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    const now = new Date('2026-02-01T00:00:00Z');
    const subscription = {
      id: '1',
      applicationId: '2',
      userId: '3',
      skuIds: ['4'],
      renewalSkuIds: null,
      status: 0 as const,
      currentPeriodStart: new Date('2026-01-01T00:00:00Z'),
      currentPeriodEnd: new Date('2026-02-01T00:00:00Z'),
      canceledAt: null,
    };
    expect(planSubscriptionChange(subscription, 'end', now)).toMatchObject({
      subscription: { status: 1 },
      endEntitlementsAt: now,
    });
    const ending = planSubscriptionChange(subscription, 'cancel', now).subscription;
    expect(ending).toMatchObject({ status: 2, canceledAt: now });
    expect(formErrorsOf(() => planSubscriptionChange(ending, 'renew', now))).toHaveProperty('status');
  });

  it('counts an entitlement active while it is neither deleted, consumed, unstarted nor ended', () => {
    const at = new Date('2026-06-01T00:00:00Z');
    expect(isEntitlementActive(entitlement, at)).toBe(true);
    expect(isEntitlementActive({ ...entitlement, consumed: true }, at)).toBe(false);
    expect(isEntitlementActive({ ...entitlement, deleted: true }, at)).toBe(false);
    expect(isEntitlementActive({ ...entitlement, endsAt: at }, at)).toBe(false);
    expect(isEntitlementActive({ ...entitlement, startsAt: new Date('2026-07-01T00:00:00Z') }, at)).toBe(
      false,
    );
    expect(renderEntitlement({ ...entitlement, type: 4, startsAt: null }, true)).not.toHaveProperty(
      'starts_at',
    );
    expect(renderEntitlement(entitlement)).toMatchObject({
      starts_at: '2026-01-01T00:00:00.000000+00:00',
      ends_at: null,
    });
  });
});
