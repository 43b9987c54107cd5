import { createServer, type Server } from 'node:http';
import express from 'express';
import { verifyKey, verifyKeyMiddleware } from 'discord-interactions';
import { Pool } from 'pg';
import {
  createApplication,
  createDemoWorld,
  createGuild,
  installApplication,
  metricSample,
  scrapeMetrics,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { WebhookReceiver } from './helpers/webhook-receiver';
import { percentile, writeOutboxEvents } from './helpers/write-outbox-event';
import { waitUntil } from './support/stack-steps';

let stack: TestStack;
let world: DemoWorld;
let pool: Pool;
const receivers: WebhookReceiver[] = [];
const servers: Server[] = [];

/** What an interactions endpoint got: the body and whether its signature held. */
interface InteractionRequest {
  body: any;
  signatureValid: boolean;
  userAgent: string | undefined;
}

/**
 * An HTTP endpoint on loopback for interactions. `answer` decides each answer from the
 * request; every request is recorded with its signature checked by discord-interactions.
 */
async function interactionsServer(
  publicKey: string,
  answer: (request: InteractionRequest) => { status: number; body?: unknown },
): Promise<{ url: string; requests: InteractionRequest[] }> {
  const requests: InteractionRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const request: InteractionRequest = {
          body: JSON.parse(raw.toString()),
          signatureValid: await verifyKey(
            raw,
            String(req.headers['x-signature-ed25519']),
            String(req.headers['x-signature-timestamp']),
            publicKey,
          ),
          userAgent: req.headers['user-agent'],
        };
        requests.push(request);
        const { status, body } = answer(request);
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      })();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/interactions`,
    requests,
  };
}

async function receiver(publicKey: string): Promise<WebhookReceiver> {
  const r = await new WebhookReceiver(publicKey).start();
  receivers.push(r);
  return r;
}

function patchApplication(id: string, body: Record<string, unknown>) {
  return stack.admin('PATCH', `/admin/applications/${id}`, body);
}

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs?: number): Promise<T> =>
  waitUntil(stack, what, probe, timeoutMs);

beforeAll(async () => {
  // Retries at 1/100 of real time: 10 ms, 20 ms, 40 ms… within a 6 s budget.
  stack = await startTestStack({
    env: { WEBHOOK_TIME_SCALE: '0.01', WEBHOOK_DISABLE_AFTER_FAILURES: '3', ACS_METRICS: '1' },
  });
  world = await createDemoWorld(stack);
  pool = new Pool({ connectionString: stack.databaseUrl });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await pool?.end();
  await stack?.stop();
});

describe('saving an event webhook URL', () => {
  it('is refused when the URL does not answer a signed PING with 204, or accepts a forged signature', async () => {
    const app = world.application;
    const careless = await receiver(app.verifyKey);
    careless.checkSignatures = false;
    const wrongAnswer = await receiver(app.verifyKey);
    wrongAnswer.pingStatus = 200;

    const accepted = await patchApplication(app.id, { event_webhooks_url: careless.url });
    expect(accepted.status).toBe(400);
    expect(JSON.stringify(accepted.body)).toMatch(/invalid signature/);
    const ping200 = await patchApplication(app.id, { event_webhooks_url: wrongAnswer.url });
    expect(ping200.status).toBe(400);
    expect(JSON.stringify(ping200.body)).toMatch(/must answer 204/);
    const closedPort = await patchApplication(app.id, { event_webhooks_url: 'http://127.0.0.1:1/events' });
    expect(closedPort.status).toBe(400);
    const privateAddress = await patchApplication(app.id, { event_webhooks_url: 'http://10.1.2.3/events' });
    expect(privateAddress.status).toBe(400);
    expect(JSON.stringify(privateAddress.body)).toMatch(/private address/);
    const metadata = await patchApplication(app.id, { event_webhooks_url: 'http://169.254.169.254/latest' });
    expect(JSON.stringify(metadata.body)).toMatch(/link-local address/);
  });

  it('is saved after a PING answered 204 with a verified signature', async () => {
    const good = await receiver(world.application.verifyKey);
    const saved = await patchApplication(world.application.id, {
      event_webhooks_url: good.url,
      event_webhooks_types: ['APPLICATION_AUTHORIZED'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      event_webhooks_url: good.url,
      event_webhooks_types: ['APPLICATION_AUTHORIZED'],
    });
    const pings = good.received.filter((r) => r.body?.type === 0);
    expect(pings.map((p) => p.signatureValid)).toEqual([true, false]);
    expect(pings[0]!.body).toEqual({ version: 1, application_id: world.application.id, type: 0 });
  });
});

describe('saving an interactions endpoint URL', () => {
  const refusal = (body: unknown) =>
    (
      body as {
        errors?: { interactions_endpoint_url?: { _errors?: Array<{ code: string; message: string }> } };
      }
    ).errors?.interactions_endpoint_url?._errors?.[0];

  it("is saved for an app that verifies with discord-interactions' verifyKeyMiddleware", async () => {
    const app = await createApplication(stack, { name: 'Interactions App', owner_id: world.user.id });
    const pings: unknown[] = [];
    const server = express();
    server.post('/interactions', (req, _res, next) => {
      pings.push(req.headers['user-agent']);
      next();
    });
    server.post('/interactions', verifyKeyMiddleware(app.verify_key));
    const listening = server.listen(0, '127.0.0.1');
    servers.push(listening);
    await new Promise((resolve) => listening.once('listening', resolve));
    const port = (listening.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}/interactions`;

    const saved = await patchApplication(app.id, { interactions_endpoint_url: url });
    expect(saved.status).toBe(200);
    expect(saved.body.interactions_endpoint_url).toBe(url);
    expect(pings).toEqual([
      'Discord-Interactions/1.0 (+https://discord.com)',
      'Discord-Interactions/1.0 (+https://discord.com)',
    ]); // the signed PING, then the forged one

    const current = await fetch(`${stack.apiUrl}/api/v10/applications/@me`, {
      headers: { Authorization: `Bot ${app.bot_token}` },
    });
    expect(((await current.json()) as { interactions_endpoint_url: string }).interactions_endpoint_url).toBe(
      url,
    );

    const removed = await patchApplication(app.id, { interactions_endpoint_url: null });
    expect(removed.status).toBe(200);
    expect(removed.body.interactions_endpoint_url).toBeNull();
  });

  it('sends a PING interaction signed with the app key, then one with a forged signature', async () => {
    const app = await createApplication(stack, { name: 'Ping Check App', owner_id: world.user.id });
    const endpoint = await interactionsServer(app.verify_key, (r) =>
      r.signatureValid ? { status: 200, body: { type: 1 } } : { status: 401 },
    );
    expect((await patchApplication(app.id, { interactions_endpoint_url: endpoint.url })).status).toBe(200);
    expect(endpoint.requests.map((r) => r.signatureValid)).toEqual([true, false]);
    expect(endpoint.requests[0]!.body).toEqual({
      app_permissions: '0',
      application_id: app.id,
      authorizing_integration_owners: {},
      entitlements: [],
      id: expect.stringMatching(/^[1-9][0-9]{17,19}$/),
      token: expect.any(String),
      type: 1,
      version: 1,
    });
  });

  it.each([
    [
      'accepts a forged signature',
      () => ({ status: 200, body: { type: 1 } }),
      /not refused with 401 \(answered 200\)/,
    ],
    [
      'refuses a forged signature with 403, not 401',
      (r: InteractionRequest) => (r.signatureValid ? { status: 200, body: { type: 1 } } : { status: 403 }),
      /not refused with 401 \(answered 403\)/,
    ],
    [
      'answers the PING 204, as an event webhook would',
      (r: InteractionRequest) => (r.signatureValid ? { status: 204 } : { status: 401 }),
      /answered the PING with 204; it must answer 200/,
    ],
    [
      'answers the PING 200 without a PONG',
      (r: InteractionRequest) => (r.signatureValid ? { status: 200, body: { type: 4 } } : { status: 401 }),
      /without a PONG/,
    ],
  ])('is refused when the endpoint %s', async (_what, answer, why) => {
    const app = await createApplication(stack, { name: 'Careless App', owner_id: world.user.id });
    const endpoint = await interactionsServer(app.verify_key, answer);
    const refused = await patchApplication(app.id, { interactions_endpoint_url: endpoint.url });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(refusal(refused.body)).toEqual({
      code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
      message: expect.stringMatching(why),
    });
    expect(refusal(refused.body)!.message).toMatch(
      /^The specified interactions endpoint url could not be verified\./,
    );
    // Nothing was saved.
    const after = await patchApplication(app.id, {});
    expect(after.body.interactions_endpoint_url).toBeNull();
  });

  it('is refused for private, link-local and unreachable addresses, and at creation', async () => {
    const app = world.application;
    for (const [url, why] of [
      ['http://10.1.2.3/interactions', /private address/],
      ['http://169.254.169.254/latest', /link-local address/],
      ['http://127.0.0.1:1/interactions', /did not answer the PING/],
    ] as const) {
      const refused = await patchApplication(app.id, { interactions_endpoint_url: url });
      expect(refused.status).toBe(400);
      expect(refusal(refused.body)?.message).toMatch(why);
    }
    const created = await stack.admin('POST', '/admin/applications', {
      name: 'Too Early',
      interactions_endpoint_url: 'https://app.example/interactions',
    });
    expect(created.status).toBe(400);
    expect(refusal(created.body)).toMatchObject({ code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID' });
  });
});

describe('webhook event delivery', () => {
  it('retries a failing endpoint with fresh signatures until it accepts, same event id every time', async () => {
    const flaky = await receiver(world.application.verifyKey);
    flaky.respond = (_r, attempt) => (attempt <= 2 ? 500 : 204);
    expect((await patchApplication(world.application.id, { event_webhooks_url: flaky.url })).status).toBe(
      200,
    );

    const guild = await createGuild(stack, { name: 'Webhook Guild', owner_id: world.user.id });
    await installApplication(stack, {
      applicationId: world.application.id,
      userId: world.user.id,
      guildId: guild.id,
    });
    const attempts = await waitFor('three attempts', () => {
      const events = flaky.events();
      return events.length >= 3 ? events : undefined;
    });
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 204]);
    expect(new Set(attempts.map((a) => a.eventId)).size).toBe(1);
    expect(attempts.every((a) => a.signatureValid)).toBe(true);
    expect(attempts[0]!.body).toEqual({
      version: 1,
      application_id: world.application.id,
      type: 1,
      event: {
        type: 'APPLICATION_AUTHORIZED',
        timestamp: expect.any(String),
        data: {
          integration_type: 0,
          scopes: ['bot', 'applications.commands'],
          user: expect.objectContaining({ id: world.user.id }),
          guild: expect.objectContaining({ id: guild.id }),
        },
      },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(flaky.events()).toHaveLength(3); // nothing after the 204
  });

  it('gives up after the retry budget, and disables an endpoint that keeps failing', async () => {
    const app = await createApplication(stack, { name: 'Failing App', owner_id: world.user.id });
    const broken = await receiver(app.verify_key);
    expect(
      (
        await patchApplication(app.id, {
          event_webhooks_url: broken.url,
          event_webhooks_types: ['APPLICATION_AUTHORIZED'],
        })
      ).status,
    ).toBe(200);
    broken.respond = () => 503;
    const event = {
      application_id: app.id,
      integration_type: 1 as const,
      user_id: world.user.id,
      scopes: ['applications.commands'],
    };
    // Deliveries of one app run concurrently: how many of the four were already in flight
    // when the third failure disabled the endpoint depends on timing, so the count of
    // failures is at least three; what follows the disabling is never attempted.
    const settled = async (expected: number) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { rows } = await pool.query(
          `SELECT count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
                  bool_or(e.disabled_at IS NOT NULL) AS disabled
             FROM dispatcher.webhook_delivery d LEFT JOIN dispatcher.webhook_endpoint e USING (application_id)
            WHERE d.application_id = $1`,
          [app.id],
        );
        const state = rows[0] as { failed: number; skipped: number; disabled: boolean } | undefined;
        if (state && state.failed + state.skipped === expected) return state;
        if (Date.now() > deadline) throw new Error(`deliveries did not end: ${JSON.stringify(state)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await writeOutboxEvents(pool, 'oauth.application.authorized', [event, event, event, event]);
    const first = await settled(4);
    expect(first.disabled).toBe(true);
    expect(first.failed).toBeGreaterThanOrEqual(3);
    expect(broken.events().length).toBeGreaterThan(3 * 3); // each retried several times

    const attempts = broken.events().length;
    await writeOutboxEvents(pool, 'oauth.application.authorized', [event]);
    const after = await settled(5);
    expect(after.skipped).toBe(first.skipped + 1);
    expect(broken.events()).toHaveLength(attempts);

    // The application shows it (DISABLED_BY_DISCORD), until its URL is saved, and verified, again.
    let status = 0;
    for (const deadline = Date.now() + 10_000; status !== 3 && Date.now() < deadline;) {
      status = ((await patchApplication(app.id, {})).body as { event_webhooks_status: number })
        .event_webhooks_status;
      if (status !== 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(3);
    const saved = await patchApplication(app.id, { event_webhooks_url: broken.url });
    expect(saved.status).toBe(200);
    expect(saved.body.event_webhooks_status).toBe(2);

    // The dispatcher counted each outcome (this file's earlier deliveries included).
    const text = await scrapeMetrics(stack, 'dispatcher');
    const count = (outcome: string) =>
      metricSample(text, 'acs_dispatcher_deliveries_total', {
        acs_delivery_channel: 'webhook',
        acs_delivery_outcome: outcome,
      }) ?? 0;
    expect(count('failed')).toBeGreaterThanOrEqual(3);
    expect(count('retry')).toBeGreaterThanOrEqual(3);
    expect(count('delivered')).toBeGreaterThanOrEqual(1);
  });

  it("keeps one app's stalled endpoint from delaying another app's events (p99 < 1 s)", async () => {
    const slowApp = await createApplication(stack, { name: 'Slow App', owner_id: world.user.id });
    const fastApp = await createApplication(stack, { name: 'Fast App', owner_id: world.user.id });
    const slow = await receiver(slowApp.verify_key);
    const fast = await receiver(fastApp.verify_key);
    for (const [app, r] of [
      [slowApp, slow],
      [fastApp, fast],
    ] as const) {
      expect(
        (
          await patchApplication(app.id, {
            event_webhooks_url: r.url,
            event_webhooks_types: ['APPLICATION_AUTHORIZED'],
          })
        ).status,
      ).toBe(200);
    }
    slow.respond = () => 'stall'; // holds every request for good (the dispatcher gives up after 3 s)
    const authorized = (applicationId: string) => ({
      application_id: applicationId,
      integration_type: 1 as const,
      user_id: world.user.id,
      scopes: ['applications.commands'],
    });
    await writeOutboxEvents(
      pool,
      'oauth.application.authorized',
      Array.from({ length: 50 }, () => authorized(slowApp.id)),
    );
    const latencies: number[] = [];
    for (let round = 0; round < 10; round++) {
      const { ids, committedAt } = await writeOutboxEvents(
        pool,
        'oauth.application.authorized',
        Array.from({ length: 10 }, () => authorized(fastApp.id)),
      );
      const arrivals = await waitFor('the fast app', () => {
        const got = fast.events().filter((e) => ids.includes(e.eventId ?? ''));
        return got.length === ids.length ? got : undefined;
      });
      latencies.push(...arrivals.map((a) => a.at - committedAt));
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(percentile(latencies, 99)).toBeLessThan(1000);
    expect(slow.events().length).toBeGreaterThan(0);
  });
});
