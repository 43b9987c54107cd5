import type { OAuthHandlers } from '../../src/handlers/create-handlers';
import {
  createApp,
  createOAuthTestEnv,
  createUser,
  discordErrorOf,
  type OAuthTestEnv,
} from '../support/oauth-test-env';

let env: OAuthTestEnv;
let handlers: OAuthHandlers;
let app: string;
let other: string;
let ada: string;
let bob: string;
const GUILD = '700000000000000001';

beforeAll(async () => {
  env = await createOAuthTestEnv();
  handlers = env.handlers;
  app = (await createApp(env.handlers, { name: 'Shop' })).id as string;
  other = (await createApp(env.handlers, { name: 'Other' })).id as string;
  ada = (await createUser(env.handlers, { username: 'ada' })).id as string;
  bob = (await createUser(env.handlers, { username: 'bob' })).id as string;
});
afterAll(() => env.close());

type Json = Record<string, unknown>;
const parse = <T = Json>(text: string | undefined): T => JSON.parse(text ?? 'null') as T;

async function createSku(applicationId: string, body: object): Promise<Json> {
  const answer = await handlers.CreateSku({ application_id: applicationId, body_json: JSON.stringify(body) });
  return parse(answer.sku_json);
}

/** The events the outbox holds after `since` (a seq), as [subject tail, data]. */
async function eventsAfter(since: bigint): Promise<[string, Json][]> {
  const rows = await env.prisma.outboxEvent.findMany({
    where: { seq: { gt: since } },
    orderBy: { seq: 'asc' },
  });
  return rows.map((r) => {
    const payload = r.payload as { type: string; data: Json };
    return [payload.type, payload.data];
  });
}

async function lastSeq(): Promise<bigint> {
  const row = await env.prisma.outboxEvent.findFirst({ orderBy: { seq: 'desc' } });
  return row?.seq ?? 0n;
}

async function entitlementsOfInvocation(userId: string, guildId = ''): Promise<Json[]> {
  const answer = await handlers.DescribeInvocation({
    application_id: app,
    user_id: userId,
    guild_id: guildId,
    resolve_user_ids: [],
  });
  return parse<Json[]>(answer.entitlements_json);
}

describe('SKUs', () => {
  it('creates each type; a subscription SKU brings its SUBSCRIPTION_GROUP, and the list shows both', async () => {
    const durable = await createSku(app, { type: 2, name: 'Lifetime Pass' });
    expect(durable).toMatchObject({
      type: 2,
      name: 'Lifetime Pass',
      slug: 'lifetime-pass',
      flags: 4,
      application_id: app,
    });
    const sub = await createSku(app, { type: 5, name: 'Premium', flags: 4 | 128 });
    expect(sub).toMatchObject({ type: 5, flags: 132, dependent_sku_id: null, access_type: 1 });
    const listed = parse<Json[]>((await handlers.ListSkus({ application_id: app })).skus_json);
    expect(listed.map((s) => s.type)).toEqual([2, 6, 5]);
    expect(listed[1]).toMatchObject({ name: 'Premium', slug: 'premium' });
  });

  it('refuses bad bodies with 50035 and unknown applications with 10002', async () => {
    const bad = await discordErrorOf(createSku(app, { type: 6, name: '', flags: 1 << 8 }));
    expect(bad.code).toBe(50035);
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(['flags', 'name', 'type']);
    const unknown = await discordErrorOf(createSku('1', { type: 2, name: 'x' }));
    expect([unknown.httpStatus, unknown.code]).toEqual([404, 10002]);
  });
});

describe('purchases, consumption and test entitlements', () => {
  it('buys a consumable, refuses a second one until consumed, and consumes it (40018 for durables)', async () => {
    const potion = await createSku(app, { type: 3, name: 'Potion' });
    const durable = await createSku(app, { type: 2, name: 'Hat' });
    const since = await lastSeq();
    const bought = parse(
      (await handlers.PurchaseSku({ body_json: JSON.stringify({ sku_id: potion.id, user_id: ada }) }))
        .entitlement_json,
    );
    expect(bought).toMatchObject({
      sku_id: potion.id,
      user_id: ada,
      type: 1,
      consumed: false,
      deleted: false,
      ends_at: null,
    });
    expect(await eventsAfter(since)).toEqual([
      ['entitlement.created', { application_id: app, entitlement: bought }],
    ]);
    const again = await discordErrorOf(
      handlers.PurchaseSku({ body_json: JSON.stringify({ sku_id: potion.id, user_id: ada }) }),
    );
    expect([again.httpStatus, again.code]).toEqual([400, 40074]);
    expect((await entitlementsOfInvocation(ada)).map((e) => e.id)).toEqual([bought.id]);

    await handlers.ConsumeEntitlement({
      application_id: app,
      entitlement_id: bought.id as string,
      user_id: '',
    });
    const read = parse(
      (
        await handlers.GetEntitlement({
          application_id: app,
          entitlement_id: bought.id as string,
          user_id: '',
        })
      ).entitlement_json,
    );
    expect(read.consumed).toBe(true);
    expect(await entitlementsOfInvocation(ada)).toEqual([]);
    // Spent, it may be bought again.
    await handlers.PurchaseSku({ body_json: JSON.stringify({ sku_id: potion.id, user_id: ada }) });

    const hat = parse(
      (await handlers.PurchaseSku({ body_json: JSON.stringify({ sku_id: durable.id, user_id: ada }) }))
        .entitlement_json,
    );
    const notConsumable = await discordErrorOf(
      handlers.ConsumeEntitlement({ application_id: app, entitlement_id: hat.id as string, user_id: '' }),
    );
    expect([notConsumable.httpStatus, notConsumable.code]).toEqual([400, 40018]);
    const notTest = await discordErrorOf(
      handlers.DeleteTestEntitlement({ application_id: app, entitlement_id: hat.id as string, user_id: '' }),
    );
    expect([notTest.httpStatus, notTest.code]).toEqual([400, 40019]);
  });

  it('grants test entitlements to users and guilds, partial at creation, and deletes them', async () => {
    const sku = await createSku(app, { type: 2, name: 'Guild Perk' });
    const since = await lastSeq();
    const created = parse(
      (
        await handlers.CreateTestEntitlement({
          application_id: app,
          body_json: JSON.stringify({ sku_id: sku.id, owner_id: GUILD, owner_type: 1 }),
        })
      ).entitlement_json,
    );
    expect(created).toMatchObject({ guild_id: GUILD, type: 4, deleted: false });
    expect(created).not.toHaveProperty('starts_at');
    expect(created).not.toHaveProperty('ends_at');
    expect(created).not.toHaveProperty('subscription_id');
    // Active for anyone invoking in that guild, not elsewhere.
    expect((await entitlementsOfInvocation(bob, GUILD)).map((e) => e.id)).toEqual([created.id]);
    expect(await entitlementsOfInvocation(bob)).toEqual([]);
    await handlers.DeleteTestEntitlement({
      application_id: app,
      entitlement_id: created.id as string,
      user_id: '',
    });
    expect((await eventsAfter(since)).map(([type]) => type)).toEqual([
      'entitlement.created',
      'entitlement.deleted',
    ]);
    expect(await entitlementsOfInvocation(bob, GUILD)).toEqual([]);
    const gone = await discordErrorOf(
      handlers.GetEntitlement({ application_id: app, entitlement_id: created.id as string, user_id: bob }),
    );
    expect([gone.httpStatus, gone.code]).toEqual([404, 10029]);
  });

  it("refuses another application's SKU (50057), unknown SKUs (10027), users (10013) and entitlements (10029)", async () => {
    const foreign = await createSku(other, { type: 2, name: 'Foreign' });
    const body = (skuId: unknown, ownerId = ada) =>
      JSON.stringify({ sku_id: skuId, owner_id: ownerId, owner_type: 2 });
    const cases: [() => Promise<unknown>, number, number][] = [
      [
        () => handlers.CreateTestEntitlement({ application_id: app, body_json: body(foreign.id) }),
        400,
        50057,
      ],
      [() => handlers.CreateTestEntitlement({ application_id: app, body_json: body('12345') }), 404, 10027],
      [
        () => handlers.CreateTestEntitlement({ application_id: app, body_json: body(foreign.id, '999') }),
        400,
        50057,
      ],
      [
        () => handlers.CreateTestEntitlement({ application_id: other, body_json: body(foreign.id, '999') }),
        404,
        10013,
      ],
      [() => handlers.CreateTestEntitlement({ application_id: app, body_json: body('x') }), 400, 50035],
      [() => handlers.CreateTestEntitlement({ application_id: app, body_json: '{"sku_id":' }), 400, 50109],
      [() => handlers.GetEntitlement({ application_id: app, entitlement_id: '1', user_id: '' }), 404, 10029],
      [
        () =>
          handlers.ConsumeEntitlement({
            application_id: app,
            entitlement_id: '99999999999999999999',
            user_id: '',
          }),
        400,
        50035,
      ],
      [() => handlers.RefundEntitlement({ entitlement_id: '5' }), 404, 10029],
      [
        () =>
          handlers.ListSkuSubscriptions({
            application_id: app,
            sku_id: foreign.id as string,
            query: { user_id: ada },
            user_id: '',
          }),
        404,
        10027,
      ],
    ];
    for (const [call, status, code] of cases) {
      const error = await discordErrorOf(call());
      expect([error.httpStatus, error.code]).toEqual([status, code]);
    }
  });
});

describe('listing entitlements', () => {
  it('filters by user, guild and SKUs, pages with before/after and limit, hides deleted and (asked) ended ones', async () => {
    const shop = (await createApp(env.handlers, { name: 'Lister' })).id as string;
    const [a, b] = [
      await createSku(shop, { type: 3, name: 'A' }),
      await createSku(shop, { type: 3, name: 'B' }),
    ];
    const ids: string[] = [];
    for (const [sku, user] of [
      [a, ada],
      [b, ada],
      [a, bob],
      [b, bob],
    ] as const) {
      const e = parse(
        (await handlers.PurchaseSku({ body_json: JSON.stringify({ sku_id: sku.id, user_id: user }) }))
          .entitlement_json,
      );
      ids.push(e.id as string);
    }
    const list = async (query: Record<string, string>, userId = '') =>
      parse<Json[]>(
        (await handlers.ListEntitlements({ application_id: shop, query, user_id: userId })).entitlements_json,
      ).map((e) => e.id);
    expect(await list({})).toEqual([...ids].reverse());
    expect(await list({ user_id: ada })).toEqual([ids[1], ids[0]]);
    expect(await list({ sku_ids: `${a.id as string},${a.id as string}` })).toEqual([ids[2], ids[0]]);
    expect(await list({ limit: '2' })).toEqual([ids[3], ids[2]]);
    expect(await list({ before: ids[2] as string })).toEqual([ids[1], ids[0]]);
    expect(await list({ after: ids[0] as string, limit: '2' })).toEqual([ids[1], ids[2]]);
    // A Bearer caller sees only their own.
    expect(await list({}, bob)).toEqual([ids[3], ids[2]]);
    expect(await list({ user_id: ada }, bob)).toEqual([]);
    await handlers.RefundEntitlement({ entitlement_id: ids[0] as string });
    expect(await list({ user_id: ada })).toEqual([ids[1]]);
    expect(await list({ user_id: ada, exclude_deleted: 'false' })).toEqual([ids[1], ids[0]]);

    const malformed: Record<string, string>[] = [
      { limit: '0' },
      { limit: '101' },
      { limit: 'x' },
      { sku_ids: '1,x' },
      { exclude_ended: 'yes' },
      { before: '-1' },
    ];
    for (const query of malformed) {
      const error = await discordErrorOf(list(query));
      expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    }
  });
});

describe('a subscription life cycle', () => {
  it('creates, renews (period moves, no entitlement event), cancels, ends and refunds, with the events of each step', async () => {
    const premium = await createSku(app, { type: 5, name: 'Gold' });
    const monthly = await createSku(app, { type: 5, name: 'Gold Yearly' });
    env.clock.now = new Date('2026-01-31T12:00:00.000Z');
    let since = await lastSeq();
    const created = parse(
      (await handlers.CreateSubscription({ body_json: JSON.stringify({ sku_id: premium.id, user_id: bob }) }))
        .subscription_json,
    );
    expect(created).toMatchObject({
      user_id: bob,
      sku_ids: [premium.id],
      status: 0,
      renewal_sku_ids: null,
      canceled_at: null,
      current_period_start: '2026-01-31T12:00:00.000000+00:00',
      current_period_end: '2026-02-28T12:00:00.000000+00:00',
    });
    const [entitlementId] = created.entitlement_ids as string[];
    let events = await eventsAfter(since);
    expect(events.map(([t]) => t)).toEqual(['subscription.created', 'entitlement.created']);
    expect(events[1]?.[1].entitlement).toMatchObject({
      id: entitlementId,
      type: 1,
      ends_at: null,
      subscription_id: created.id,
    });
    expect((await entitlementsOfInvocation(bob)).map((e) => e.id)).toContain(entitlementId);
    const twice = await discordErrorOf(
      handlers.CreateSubscription({ body_json: JSON.stringify({ sku_id: premium.id, user_id: bob }) }),
    );
    expect(twice.code).toBe(40074);

    const change = (
      kind: 'SUBSCRIPTION_CHANGE_RENEW' | 'SUBSCRIPTION_CHANGE_CANCEL' | 'SUBSCRIPTION_CHANGE_END',
    ) =>
      handlers
        .ChangeSubscription({ subscription_id: created.id as string, change: kind, body_json: '' })
        .then((r) => parse(r.subscription_json));

    since = await lastSeq();
    const renewed = await change('SUBSCRIPTION_CHANGE_RENEW');
    expect(renewed).toMatchObject({
      status: 0,
      current_period_start: '2026-02-28T12:00:00.000000+00:00',
      current_period_end: '2026-03-28T12:00:00.000000+00:00',
    });
    expect((await eventsAfter(since)).map(([t]) => t)).toEqual(['subscription.updated']);

    since = await lastSeq();
    const renewal = parse(
      (
        await handlers.ChangeSubscription({
          subscription_id: created.id as string,
          change: 'SUBSCRIPTION_CHANGE_RENEWAL_SKUS',
          body_json: JSON.stringify({ renewal_sku_ids: [monthly.id] }),
        })
      ).subscription_json,
    );
    expect(renewal.renewal_sku_ids).toEqual([monthly.id]);

    env.clock.now = new Date('2026-03-01T00:00:00.000Z');
    const canceled = await change('SUBSCRIPTION_CHANGE_CANCEL');
    expect(canceled).toMatchObject({ status: 2, canceled_at: '2026-03-01T00:00:00.000000+00:00' });
    expect((await discordErrorOf(change('SUBSCRIPTION_CHANGE_RENEW'))).code).toBe(50035);

    env.clock.now = new Date('2026-03-28T12:00:00.000Z');
    const ended = await change('SUBSCRIPTION_CHANGE_END');
    expect(ended.status).toBe(1);
    events = await eventsAfter(since);
    expect(events.map(([t]) => t)).toEqual([
      'subscription.updated',
      'subscription.updated',
      'entitlement.updated',
      'subscription.updated',
    ]);
    expect(events[2]?.[1].entitlement).toMatchObject({
      id: entitlementId,
      ends_at: '2026-03-28T12:00:00.000000+00:00',
    });
    // Ended: no longer active (the statement reads the database's clock, past that end).
    expect((await entitlementsOfInvocation(bob)).map((e) => e.id)).not.toContain(entitlementId);

    since = await lastSeq();
    const refunded = parse(
      (await handlers.RefundEntitlement({ entitlement_id: entitlementId as string })).entitlement_json,
    );
    expect(refunded.deleted).toBe(true);
    expect((await eventsAfter(since)).map(([t]) => t)).toEqual([
      'entitlement.deleted',
      'subscription.updated',
    ]);

    const list = parse<Json[]>(
      (
        await handlers.ListSkuSubscriptions({
          application_id: app,
          sku_id: premium.id as string,
          query: { user_id: bob },
          user_id: '',
        })
      ).subscriptions_json,
    );
    expect(list.map((s) => s.id)).toEqual([created.id]);
    const missingUser = await discordErrorOf(
      handlers.ListSkuSubscriptions({
        application_id: app,
        sku_id: premium.id as string,
        query: {},
        user_id: '',
      }),
    );
    expect(missingUser.code).toBe(50035);
    const asBearer = parse<Json[]>(
      (
        await handlers.ListSkuSubscriptions({
          application_id: app,
          sku_id: premium.id as string,
          query: {},
          user_id: bob,
        })
      ).subscriptions_json,
    );
    expect(asBearer).toHaveLength(1);
    const got = await handlers.GetSkuSubscription({
      application_id: app,
      sku_id: premium.id as string,
      subscription_id: created.id as string,
      user_id: '',
    });
    expect(parse(got.subscription_json).status).toBe(1);
    const notAda = await discordErrorOf(
      handlers.GetSkuSubscription({
        application_id: app,
        sku_id: premium.id as string,
        subscription_id: created.id as string,
        user_id: ada,
      }),
    );
    expect(notAda.httpStatus).toBe(404);
  });

  it('renews onto the renewal SKUs: the old entitlement ends with the period, the new SKU gets one', async () => {
    const basic = await createSku(app, { type: 5, name: 'Basic' });
    const plus = await createSku(app, { type: 5, name: 'Plus' });
    env.clock.now = new Date('2026-05-10T00:00:00.000Z');
    const created = parse(
      (await handlers.CreateSubscription({ body_json: JSON.stringify({ sku_id: basic.id, user_id: ada }) }))
        .subscription_json,
    );
    const [oldEntitlement] = created.entitlement_ids as string[];
    await handlers.ChangeSubscription({
      subscription_id: created.id as string,
      change: 'SUBSCRIPTION_CHANGE_RENEWAL_SKUS',
      body_json: JSON.stringify({ renewal_sku_ids: [plus.id] }),
    });
    const since = await lastSeq();
    const renewed = parse(
      (
        await handlers.ChangeSubscription({
          subscription_id: created.id as string,
          change: 'SUBSCRIPTION_CHANGE_RENEW',
          body_json: '',
        })
      ).subscription_json,
    );
    expect(renewed).toMatchObject({
      sku_ids: [plus.id],
      renewal_sku_ids: null,
      current_period_start: '2026-06-10T00:00:00.000000+00:00',
    });
    const events = await eventsAfter(since);
    expect(events.map(([t]) => t)).toEqual([
      'entitlement.updated',
      'entitlement.created',
      'subscription.updated',
    ]);
    expect(events[0]?.[1].entitlement).toMatchObject({
      id: oldEntitlement,
      ends_at: '2026-06-10T00:00:00.000000+00:00',
    });
    const added = events[1]?.[1].entitlement as Json;
    expect(added).toMatchObject({
      sku_id: plus.id,
      user_id: ada,
      subscription_id: created.id,
      starts_at: '2026-06-10T00:00:00.000000+00:00',
      ends_at: null,
    });
    expect(renewed.entitlement_ids).toEqual([oldEntitlement, added.id]);
    // Nothing to change at the next renewal: no entitlement event.
    const again = await lastSeq();
    await handlers.ChangeSubscription({
      subscription_id: created.id as string,
      change: 'SUBSCRIPTION_CHANGE_RENEW',
      body_json: '',
    });
    expect((await eventsAfter(again)).map(([t]) => t)).toEqual(['subscription.updated']);
  });

  it('refuses a durable SKU as a subscription and a subscription SKU as a purchase (50057)', async () => {
    const durable = await createSku(app, { type: 2, name: 'Not a sub' });
    const sub = await createSku(app, { type: 5, name: 'Sub only' });
    const asSub = await discordErrorOf(
      handlers.CreateSubscription({ body_json: JSON.stringify({ sku_id: durable.id, user_id: ada }) }),
    );
    const asPurchase = await discordErrorOf(
      handlers.PurchaseSku({ body_json: JSON.stringify({ sku_id: sub.id, user_id: ada }) }),
    );
    expect([asSub.code, asPurchase.code]).toEqual([50057, 50057]);
  });
});
