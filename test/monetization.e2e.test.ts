import { Client, Events, GatewayIntentBits } from 'discord.js';
import { expectSchema } from './helpers/openapi-validator';
import { WebhookReceiver } from './helpers/webhook-receiver';
import {
  createApplication,
  createDemoWorld,
  createUser,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';
import { expectAdmin, waitUntil } from './support/stack-steps';

/**
 * Monetization end to end (facts C): the admin API plays the store and the payment system;
 * the application sees what Discord would show it: ENTITLEMENT_* and SUBSCRIPTION_*
 * dispatches in a discord.js bot, ENTITLEMENT_CREATE (and only it) at its event webhook
 * (signatures checked with discord-interactions), the public routes through discord.js and
 * raw HTTP, and the invoker's entitlements in an interaction.
 */
let stack: TestStack;
let world: DemoWorld;
let buyer: { id: string };
let receiver: WebhookReceiver;
let client: Client<true>;
/** Every monetization dispatch the bot got, in order, as the gateway sent it. */
const dispatches: Array<{ t: string; d: any }> = [];
/** The discord.js events they became, in order. */
const events: Array<[string, any]> = [];
const opened: ChatUser[] = [];
const REDIRECT = 'https://shop.example/callback';

const bot = () => `Bot ${world.application.botToken}`;
const appId = () => world.application.id;

const admin = (method: string, path: string, body: unknown, status: number): Promise<any> =>
  expectAdmin(stack, method, path, body, status);

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs?: number): Promise<T> =>
  waitUntil(stack, what, probe, timeoutMs);

/** Waits until the bot has got `count` monetization events since `from`, and answers their names. */
async function eventsSince(from: number, count: number): Promise<Array<[string, any]>> {
  await waitFor(`${count} events (got ${events.length - from})`, () =>
    events.length - from >= count ? true : undefined,
  );
  // Nothing more arrives for this step.
  await new Promise((r) => setTimeout(r, 300));
  return events.slice(from);
}

/** OAS's entitlement type enum lists only 8 and 10; the docs' 1-8 are checked by the tests, the rest by the schema. */
function expectEntitlementSchema(entitlement: Record<string, unknown>): void {
  expectSchema('EntitlementResponse', { ...entitlement, type: 8 });
}

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  buyer = await createUser(stack, { username: 'buyer' });
  await admin('PUT', `/admin/guilds/${world.guild.id}/members/${buyer.id}`, {}, 201);
  receiver = await new WebhookReceiver(world.application.verifyKey).start();
  await admin(
    'PATCH',
    `/admin/applications/${appId()}`,
    {
      event_webhooks_url: receiver.url,
      // The app asks for all three; Discord documents only ENTITLEMENT_CREATE as a webhook event.
      event_webhooks_types: ['ENTITLEMENT_CREATE', 'ENTITLEMENT_UPDATE', 'ENTITLEMENT_DELETE'],
      redirect_uris: [REDIRECT],
    },
    200,
  );
  const discord = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
  discord.on(Events.Raw, (packet: { t?: string; d?: any }) => {
    if (packet.t && /^(ENTITLEMENT|SUBSCRIPTION)_/.test(packet.t))
      dispatches.push({ t: packet.t, d: packet.d });
  });
  discord.on(Events.EntitlementCreate, (e) => events.push(['entitlementCreate', e]));
  discord.on(Events.EntitlementUpdate, (_old, e) => events.push(['entitlementUpdate', e]));
  discord.on(Events.EntitlementDelete, (e) => events.push(['entitlementDelete', e]));
  discord.on(Events.SubscriptionCreate, (s) => events.push(['subscriptionCreate', s]));
  discord.on(Events.SubscriptionUpdate, (_old, s) => events.push(['subscriptionUpdate', s]));
  const ready = new Promise<Client<true>>((resolve) => discord.once(Events.ClientReady, resolve));
  await discord.login(world.application.botToken);
  client = await ready;
});

afterAll(async () => {
  for (const user of opened) user.close();
  await client?.destroy();
  await receiver?.stop();
  await stack?.stop();
});

describe('a subscription life cycle', () => {
  it('reaches the bot and the event webhook with exactly the events Discord sends', async () => {
    const sku = await admin('POST', `/admin/applications/${appId()}/skus`, { type: 5, name: 'Premium' }, 201);
    expect(sku).toMatchObject({
      type: 5,
      name: 'Premium',
      slug: 'premium',
      flags: 4 | 256,
      application_id: appId(),
    });
    const skus = await client.application.fetchSKUs();
    expect([...skus.values()].map((s) => [s.type, s.name])).toEqual([
      [6, 'Premium'],
      [5, 'Premium'],
    ]);

    const from = events.length;
    const webhooksBefore = receiver.events().length;
    const created = await admin('POST', '/admin/subscriptions', { sku_id: sku.id, user_id: buyer.id }, 201);
    expectSchema('SubscriptionResponse', created);
    expect(created).toMatchObject({ user_id: buyer.id, sku_ids: [sku.id], status: 0, renewal_sku_ids: null });
    const [entitlementId] = created.entitlement_ids as string[];
    const path = `/admin/subscriptions/${created.id as string}`;

    const renewed = await admin('POST', `${path}/renew`, undefined, 200);
    expect(renewed.current_period_start).toBe(created.current_period_end);
    const changed = await admin('PATCH', path, { renewal_sku_ids: [sku.id] }, 200);
    expect(changed.renewal_sku_ids).toEqual([sku.id]);
    const canceled = await admin('POST', `${path}/cancel`, undefined, 200);
    expect(canceled.status).toBe(2);
    expect(canceled.canceled_at).toEqual(expect.any(String));
    const ended = await admin('POST', `${path}/end`, undefined, 200);
    expect(ended.status).toBe(1);
    const refunded = await admin(
      'POST',
      `/admin/entitlements/${entitlementId as string}/refund`,
      undefined,
      200,
    );
    expect(refunded).toMatchObject({ id: entitlementId, deleted: true });

    const seen = await eventsSince(from, 9);
    expect(seen.map(([name]) => name)).toEqual([
      'subscriptionCreate',
      'entitlementCreate', // since the Oct 2024 migration: once, ends_at null
      'subscriptionUpdate', // renewed: the period moves, no entitlement event
      'subscriptionUpdate', // renewal_sku_ids
      'subscriptionUpdate', // canceled: ENDING
      'entitlementUpdate', // ended: ends_at set
      'subscriptionUpdate', // INACTIVE
      'entitlementDelete', // refunded
      'subscriptionUpdate', // INACTIVE after the refund
    ]);
    const entitlementOf = (i: number) => seen[i]?.[1];
    // discord.js keeps one Entitlement per id and patches it: by now it has ended.
    expect(entitlementOf(1)).toMatchObject({ id: entitlementId, skuId: sku.id, userId: buyer.id });
    expect(entitlementOf(5).endsTimestamp).toEqual(expect.any(Number));
    // The raw dispatches are the API's objects.
    const raw = dispatches.slice(-9);
    for (const { t, d } of raw) {
      if (t.startsWith('SUBSCRIPTION_')) expectSchema('SubscriptionResponse', d);
      else expectEntitlementSchema(d);
    }
    expect(raw.map(({ t }) => t)).toEqual([
      'SUBSCRIPTION_CREATE',
      'ENTITLEMENT_CREATE',
      'SUBSCRIPTION_UPDATE',
      'SUBSCRIPTION_UPDATE',
      'SUBSCRIPTION_UPDATE',
      'ENTITLEMENT_UPDATE',
      'SUBSCRIPTION_UPDATE',
      'ENTITLEMENT_DELETE',
      'SUBSCRIPTION_UPDATE',
    ]);
    expect(raw[0]?.d).toMatchObject({ id: created.id, status: 0, entitlement_ids: [entitlementId] });
    expect(raw[1]?.d).toMatchObject({ type: 1, ends_at: null, subscription_id: created.id });
    expect(raw[2]?.d.current_period_end).toBe(renewed.current_period_end);
    expect(raw[3]?.d.renewal_sku_ids).toEqual([sku.id]);
    expect(raw[4]?.d).toMatchObject({ status: 2, canceled_at: canceled.canceled_at });
    expect(raw[5]?.d).toMatchObject({ id: entitlementId, ends_at: expect.any(String), deleted: false });
    expect(raw[6]?.d.status).toBe(1);
    expect(raw[7]?.d).toMatchObject({ id: entitlementId, deleted: true });

    // The webhook: ENTITLEMENT_CREATE only, signed, with the entitlement as its data.
    const webhooks = await waitFor('the ENTITLEMENT_CREATE webhook', () =>
      receiver.events().length > webhooksBefore ? receiver.events().slice(webhooksBefore) : undefined,
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.events().slice(webhooksBefore)).toHaveLength(1);
    // Every event delivery is signed (saving the URL sent a forged probe on purpose).
    const deliveries = receiver.received.filter((r) => r.body?.type === 1);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((r) => r.signatureValid)).toBe(true);
    expect(webhooks[0]?.body).toMatchObject({
      version: 1,
      application_id: appId(),
      type: 1,
      event: { type: 'ENTITLEMENT_CREATE', data: { id: entitlementId, sku_id: sku.id, user_id: buyer.id } },
    });

    // The public routes show where it ended.
    const listed = await api(stack, 'GET', `/skus/${sku.id as string}/subscriptions?user_id=${buyer.id}`, {
      token: bot(),
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    for (const subscription of listed.body) expectSchema('SubscriptionResponse', subscription);
    const one = await api(stack, 'GET', `/skus/${sku.id as string}/subscriptions/${created.id as string}`, {
      token: bot(),
    });
    expect(one.body).toMatchObject({ id: created.id, status: 1, renewal_sku_ids: [sku.id] });
    const noUser = await api(stack, 'GET', `/skus/${sku.id as string}/subscriptions`, { token: bot() });
    expect([noUser.status, noUser.body.code]).toEqual([400, 50035]);
    const kept = await client.application.entitlements.fetch({ user: buyer.id, excludeDeleted: false });
    expect(kept.get(entitlementId as string)?.deleted).toBe(true);
    expect(
      (await client.application.entitlements.fetch({ user: buyer.id, skus: [sku.id] })).has(
        entitlementId as string,
      ),
    ).toBe(false);
  });
});

describe('one-time purchases and test entitlements', () => {
  it('consumes consumables, grants and deletes test entitlements, and refuses what Discord refuses', async () => {
    const coins = await admin('POST', `/admin/applications/${appId()}/skus`, { type: 3, name: 'Coins' }, 201);
    const hat = await admin('POST', `/admin/applications/${appId()}/skus`, { type: 2, name: 'Hat' }, 201);
    const from = events.length;
    const bought = await admin('POST', '/admin/entitlements', { sku_id: coins.id, user_id: buyer.id }, 201);
    expectEntitlementSchema(bought);
    const again = await stack.admin('POST', '/admin/entitlements', { sku_id: coins.id, user_id: buyer.id });
    expect([again.status, again.body.code]).toEqual([400, 40074]);

    const [, entitlement] = (await eventsSince(from, 1))[0] ?? [];
    expect(entitlement).toMatchObject({ id: bought.id, consumed: false });
    await entitlement.consume();
    const read = await api(stack, 'GET', `/applications/${appId()}/entitlements/${bought.id as string}`, {
      token: bot(),
    });
    expect(read.body).toMatchObject({ id: bought.id, consumed: true });
    // Spent: it may be bought again.
    await admin('POST', '/admin/entitlements', { sku_id: coins.id, user_id: buyer.id }, 201);

    const lifetime = await admin('POST', '/admin/entitlements', { sku_id: hat.id, user_id: buyer.id }, 201);
    const route = `/applications/${appId()}/entitlements/${lifetime.id as string}`;
    const notConsumable = await api(stack, 'POST', `${route}/consume`, { token: bot() });
    expect([notConsumable.status, notConsumable.body]).toEqual([
      400,
      { code: 40018, message: 'Only consumable SKUs can be consumed' },
    ]);
    const notTest = await api(stack, 'DELETE', route, { token: bot() });
    expect([notTest.status, notTest.body.code]).toEqual([400, 40019]);

    // Test entitlements: partial when created, deleted with ENTITLEMENT_DELETE.
    const created = await api(stack, 'POST', `/applications/${appId()}/entitlements`, {
      token: bot(),
      body: { sku_id: hat.id, owner_id: world.guild.id, owner_type: 1 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ sku_id: hat.id, guild_id: world.guild.id, type: 4, deleted: false });
    expect(Object.keys(created.body)).not.toEqual(expect.arrayContaining(['starts_at']));
    expect(created.body).not.toHaveProperty('ends_at');
    const twice = await api(stack, 'POST', `/applications/${appId()}/entitlements`, {
      token: bot(),
      body: { sku_id: hat.id, owner_id: world.guild.id, owner_type: 1 },
    });
    expect(twice.body.code).toBe(40074);
    const before = events.length;
    const forUser = await client.application.entitlements.createTest({ sku: coins.id, user: world.user.id });
    expect(forUser.type).toBe(4);
    await waitFor('the test ENTITLEMENT_CREATE', () => (events.length > before ? true : undefined));
    await client.application.entitlements.deleteTest(forUser);
    const testEvents = (await eventsSince(before, 2)).filter(([, e]) => e.id === forUser.id);
    expect(testEvents.map(([name]) => name)).toEqual(['entitlementCreate', 'entitlementDelete']);
    expect(testEvents[1]?.[1].deleted).toBe(true);

    // Unknown and foreign things, malformed filters: Discord's errors.
    const foreign = await createApplication(stack, { name: 'Other Shop' });
    const foreignSku = await admin(
      'POST',
      `/admin/applications/${foreign.id}/skus`,
      { type: 2, name: 'Theirs' },
      201,
    );
    const cases: Array<[string, string, unknown, number, number]> = [
      [
        'POST',
        `/applications/${appId()}/entitlements`,
        { sku_id: foreignSku.id, owner_id: buyer.id, owner_type: 2 },
        400,
        50057,
      ],
      [
        'POST',
        `/applications/${appId()}/entitlements`,
        { sku_id: '123', owner_id: buyer.id, owner_type: 2 },
        404,
        10027,
      ],
      [
        'POST',
        `/applications/${appId()}/entitlements`,
        { sku_id: hat.id, owner_id: buyer.id, owner_type: 3 },
        400,
        50035,
      ],
      ['GET', `/applications/${appId()}/entitlements/123`, undefined, 404, 10029],
      ['GET', `/applications/${appId()}/entitlements?limit=0`, undefined, 400, 50035],
      ['GET', `/applications/${appId()}/entitlements?sku_ids=1,abc`, undefined, 400, 50035],
      ['GET', `/applications/${appId()}/entitlements?exclude_ended=maybe`, undefined, 400, 50035],
      ['GET', `/applications/${foreign.id}/entitlements`, undefined, 403, 20012],
      ['GET', `/skus/${foreignSku.id as string}/subscriptions?user_id=${buyer.id}`, undefined, 404, 10027],
      ['GET', `/users/@me/applications/${appId()}/entitlements`, undefined, 403, 20001],
    ];
    for (const [method, path, body, status, code] of cases) {
      const answer = await api(stack, method, path, { token: bot(), body });
      expect({ path, status: answer.status, code: answer.body?.code }).toEqual({ path, status, code });
    }
    const noGuild = await api(stack, 'POST', `/applications/${appId()}/entitlements`, {
      token: bot(),
      body: { sku_id: hat.id, owner_id: '123456789012345678', owner_type: 1 },
    });
    expect([noGuild.status, noGuild.body.code]).toEqual([404, 10004]);
    const noGuildPurchase = await stack.admin('POST', '/admin/entitlements', {
      sku_id: hat.id,
      guild_id: '123456789012345678',
    });
    expect([noGuildPurchase.status, Object.keys(noGuildPurchase.body.errors ?? {})]).toEqual([
      400,
      ['guild_id'],
    ]);
    const durable = await stack.admin('POST', '/admin/subscriptions', { sku_id: hat.id, user_id: buyer.id });
    expect([durable.status, durable.body.code]).toEqual([400, 50057]);
    const unknownEntitlement = await stack.admin('POST', '/admin/entitlements/123/refund');
    expect([unknownEntitlement.status, unknownEntitlement.body.code]).toEqual([404, 10029]);

    // The buyer's own entitlements, with a Bearer token holding applications.entitlements.
    const consent = await admin(
      'POST',
      '/admin/oauth2/authorize',
      {
        client_id: appId(),
        user_id: buyer.id,
        scope: 'identify applications.entitlements',
        redirect_uri: REDIRECT,
      },
      200,
    );
    const token = await fetch(`${stack.apiUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: consent.code,
        redirect_uri: REDIRECT,
        client_id: appId(),
        client_secret: world.application.clientSecret,
      }),
    });
    const bearer = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
    const mine = await api(stack, 'GET', `/users/@me/applications/${appId()}/entitlements`, {
      token: bearer,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.length).toBeGreaterThan(0);
    expect(mine.body.every((e: any) => e.user_id === buyer.id)).toBe(true);
    for (const e of mine.body) expectEntitlementSchema(e);
    const viaApp = await api(stack, 'GET', `/applications/${appId()}/entitlements?user_id=${world.user.id}`, {
      token: bearer,
    });
    expect(viaApp.body).toEqual([]);
  });
});

describe('an interaction', () => {
  it("carries the invoker's active entitlements: their own and the guild's", async () => {
    const pro = await admin('POST', `/admin/applications/${appId()}/skus`, { type: 2, name: 'Pro' }, 201);
    const perk = await admin(
      'POST',
      `/admin/applications/${appId()}/skus`,
      { type: 2, name: 'Guild Perk' },
      201,
    );
    const mine = await admin('POST', '/admin/entitlements', { sku_id: pro.id, user_id: buyer.id }, 201);
    const guilds = await admin(
      'POST',
      '/admin/entitlements',
      { sku_id: perk.id, guild_id: world.guild.id },
      201,
    );
    const refunded = await admin('POST', '/admin/entitlements', { sku_id: perk.id, user_id: buyer.id }, 201);
    await admin('POST', `/admin/entitlements/${refunded.id as string}/refund`, undefined, 200);

    const put = await api(stack, 'PUT', `/applications/${appId()}/guilds/${world.guild.id}/commands`, {
      token: bot(),
      body: [{ name: 'premium', description: 'Premium only' }],
    });
    expect(put.status).toBe(200);
    const command = put.body[0];
    const received = new Promise<string[]>((resolve) => {
      client.on(Events.InteractionCreate, (interaction) => {
        if (!interaction.isChatInputCommand() || interaction.commandName !== 'premium') return;
        resolve([...interaction.entitlements.keys()]);
        const premium = interaction.entitlements.some((e) => e.skuId === pro.id && e.isActive());
        void interaction.reply(premium ? 'Welcome, premium user' : 'Buy Pro first');
      });
    });
    const user = await ChatUser.open(stack, buyer.id);
    opened.push(user);
    const invoked = await user.invoke({
      type: 2,
      application_id: appId(),
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: { id: command.id, name: command.name, type: 1, version: command.version },
    });
    expect(invoked.status).toBe(200);
    // Theirs and the guild's (earlier tests left more of both), never a refunded one.
    const ids = await received;
    expect(ids).toEqual(expect.arrayContaining([mine.id, guilds.id]));
    expect(ids).not.toContain(refunded.id);
    const delivered = invoked.body.interaction.entitlements as Array<Record<string, any>>;
    expect(delivered.map((e) => e.id).sort()).toEqual([...ids].sort());
    for (const e of delivered) {
      expect(e.user_id === buyer.id || e.guild_id === world.guild.id).toBe(true);
      expect([e.deleted, e.consumed]).toEqual([false, false]);
    }
    expect(invoked.body.messages[0].content).toBe('Welcome, premium user');
  });
});
