import { Pool } from 'pg';
import { findTestServers, TcpProxy } from '@acs/testing';
import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';
import { GatewayTestClient } from './helpers/gateway-client';
import { WebhookReceiver } from './helpers/webhook-receiver';
import { writeOutboxEvents } from './helpers/write-outbox-event';

let stack: TestStack;
let world: DemoWorld;
let pool: Pool;
let proxy: TcpProxy;
let receiver: WebhookReceiver;

const authorized = () => ({
  application_id: world.application.id,
  integration_type: 1 as const,
  user_id: world.user.id,
  scopes: ['applications.commands'],
});

/** Waits until the receiver has a 204'd delivery of every id; returns the deliveries by id. */
async function waitForAll(ids: string[], timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = new Map<string, number>();
    for (const event of receiver.events())
      counts.set(event.eventId ?? '', (counts.get(event.eventId ?? '') ?? 0) + 1);
    const missing = ids.filter((id) => !counts.has(id));
    if (missing.length === 0) return counts;
    if (Date.now() > deadline) {
      // Lost before the stream (a row left unpublished) or after it (not delivered)?
      const { rows } = await pool.query(
        'SELECT count(*)::int AS n FROM oauth.outbox WHERE id = ANY($1) AND published_at IS NULL',
        [missing],
      );
      // After it: handled by a dispatcher (processed_event) and with what delivery row?
      const handled = await pool.query(
        'SELECT count(*)::int AS n FROM dispatcher.processed_event WHERE id = ANY($1)',
        [missing],
      );
      const deliveries = await pool.query(
        `SELECT status, attempts, leased_until IS NOT NULL AS leased, last_error, count(*)::int AS n
           FROM dispatcher.webhook_delivery WHERE event_id = ANY($1)
          GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC`,
        [missing],
      );
      throw new Error(
        `${missing.length} of ${ids.length} events never arrived (${rows[0].n} of them still unpublished ` +
          `in oauth's outbox, ${handled.rows[0].n} handled by a dispatcher, delivery rows: ` +
          `${JSON.stringify(deliveries.rows)}; first missing: ${missing.slice(0, 3).join(', ')})\n` +
          stack.recentLogs(15),
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every copy of an event carries the same body (same id, same bytes). */
function expectDuplicatesIdentical(): void {
  const bodies = new Map<string, string>();
  for (const event of receiver.events()) {
    const body = JSON.stringify(event.body);
    const first = bodies.get(event.eventId ?? '');
    if (first !== undefined) expect(body).toBe(first);
    else bodies.set(event.eventId ?? '', body);
  }
}

beforeAll(async () => {
  const { natsUrl } = await findTestServers();
  const nats = new URL(natsUrl);
  proxy = new TcpProxy(nats.hostname, Number(nats.port || 4222));
  await proxy.open();
  // Messages held by a killed replica come back after the ack wait, and the deliveries it
  // had claimed after their lease: 5 s and 8 s here (30 s and 60 s by default).
  stack = await startTestStack({
    natsUrl: `nats://127.0.0.1:${proxy.port}`,
    env: { CONSUMER_ACK_WAIT_MS: '5000', WEBHOOK_LEASE_MS: '8000' },
  });
  world = await createDemoWorld(stack);
  pool = new Pool({ connectionString: stack.databaseUrl });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  receiver = await new WebhookReceiver(world.application.verifyKey).start();
  const saved = await stack.admin('PATCH', `/admin/applications/${world.application.id}`, {
    event_webhooks_url: receiver.url,
    event_webhooks_types: ['APPLICATION_AUTHORIZED'],
  });
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  await receiver?.stop();
  await pool?.end();
  await stack?.stop();
  await proxy?.close();
});

it('loses nothing when the dispatcher is killed with 1,000 events in flight', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 10; i++)
    ids.push(
      ...(
        await writeOutboxEvents(pool, 'oauth.application.authorized', Array.from({ length: 100 }, authorized))
      ).ids,
    );
  // Kill it mid-stream: some delivered, most not.
  const deadline = Date.now() + 20_000;
  while (receiver.events().length < 50 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  // Every dispatcher (each replica under ACS_TEST_REPLICAS).
  const dispatchers = stack.processes.filter((p) => p.name.replace(/#\d+$/, '') === 'dispatcher');
  for (const dispatcher of dispatchers) dispatcher.child.kill('SIGKILL');
  await Promise.all(dispatchers.map((dispatcher) => dispatcher.exited));
  const deliveredBeforeKill = new Set(receiver.events().map((e) => e.eventId)).size;
  expect(deliveredBeforeKill).toBeLessThan(1000);
  await stack.restart('dispatcher');

  const counts = await waitForAll(ids, 120_000);
  expect(counts.size).toBeGreaterThanOrEqual(1000);
  expectDuplicatesIdentical();
});

it('loses nothing when NATS is unreachable for 15 s under writes', async () => {
  const ids: string[] = [];
  let writing = true;
  let isCut = false;
  let writtenWhileCut = 0;
  let writeFailures = 0;
  const writer = (async () => {
    while (writing) {
      try {
        const written = await writeOutboxEvents(
          pool,
          'oauth.application.authorized',
          Array.from({ length: 5 }, authorized),
        );
        ids.push(...written.ids);
        if (isCut) writtenWhileCut += written.ids.length;
      } catch {
        writeFailures += 1;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await new Promise((r) => setTimeout(r, 2000));
  await proxy.cut();
  isCut = true;
  await new Promise((r) => setTimeout(r, 15_000));
  isCut = false;
  await proxy.open();
  await new Promise((r) => setTimeout(r, 2000));
  writing = false;
  await writer;

  expect(writeFailures).toBe(0);
  // Writes went on through the outage (however slowly a busy machine made them).
  expect(writtenWhileCut).toBeGreaterThanOrEqual(25);
  await waitForAll(ids, 120_000);
  expectDuplicatesIdentical();
});

it('keeps counting Identifies for session_start_limit across a dispatcher restart', async () => {
  /** The start limit /gateway/bot shows, once the dispatcher answers again. */
  const startLimit = async () => {
    for (const deadline = Date.now() + 15_000; ;) {
      const response = await fetch(`${stack.apiUrl}/api/v10/gateway/bot`, {
        headers: { Authorization: `Bot ${world.application.botToken}` },
      });
      if (response.status === 200) {
        return ((await response.json()) as { session_start_limit: { remaining: number } })
          .session_start_limit;
      }
      if (Date.now() > deadline) throw new Error(`/gateway/bot answered ${response.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const before = await startLimit();
  const client = await GatewayTestClient.connect(`ws://127.0.0.1:${stack.ports.gateway}`);
  await client.identify(world.application.botToken);
  client.close(1000);
  expect((await startLimit()).remaining).toBe(before.remaining - 1);

  // Counted in the database, not in the replica's memory.
  await stack.restart('dispatcher');
  expect((await startLimit()).remaining).toBe(before.remaining - 1);
});
