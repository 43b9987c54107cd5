import { Pool } from 'pg';
import {
  createApplication,
  createDemoWorld,
  createGuild,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { WebhookReceiver } from './helpers/webhook-receiver';
import { percentile, writeOutboxEvents } from './helpers/write-outbox-event';

let stack: TestStack;
let world: DemoWorld;
let pool: Pool;
const receivers: WebhookReceiver[] = [];

async function receiver(publicKey: string): Promise<WebhookReceiver> {
  const r = await new WebhookReceiver(publicKey).start();
  receivers.push(r);
  return r;
}

function patchApplication(id: string, body: Record<string, unknown>) {
  return stack.admin('PATCH', `/admin/applications/${id}`, body);
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stack.recentLogs(10)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  // Retries at 1/100 of real time: 10 ms, 20 ms, 40 ms… within a 6 s budget.
  stack = await startTestStack({ env: { WEBHOOK_TIME_SCALE: '0.01', WEBHOOK_DISABLE_AFTER_FAILURES: '3' } });
  world = await createDemoWorld(stack);
  pool = new Pool({ connectionString: stack.databaseUrl });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
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
      integration_type: 1,
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
    await writeOutboxEvents(pool, 'oauth', 'application.authorized', [event, event, event, event]);
    const first = await settled(4);
    expect(first.disabled).toBe(true);
    expect(first.failed).toBeGreaterThanOrEqual(3);
    expect(broken.events().length).toBeGreaterThan(3 * 3); // each retried several times

    const attempts = broken.events().length;
    await writeOutboxEvents(pool, 'oauth', 'application.authorized', [event]);
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
      integration_type: 1,
      user_id: world.user.id,
      scopes: ['applications.commands'],
    });
    await writeOutboxEvents(
      pool,
      'oauth',
      'application.authorized',
      Array.from({ length: 50 }, () => authorized(slowApp.id)),
    );
    const latencies: number[] = [];
    for (let round = 0; round < 10; round++) {
      const { ids, committedAt } = await writeOutboxEvents(
        pool,
        'oauth',
        'application.authorized',
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
