#!/usr/bin/env node
'use strict';
/**
 * Event delivery from commit to receiver: events written to a service's outbox (as the
 * services do) travel relay → JetStream → dispatcher → an app's webhook receiver or a
 * bot's gateway session. For each path:
 *   - burst: BENCH_EVENTS events committed in batches of 100 as fast as possible;
 *     events/s from the first commit to the last arrival;
 *   - paced: BENCH_RATE events/s for BENCH_SECONDS; p50/p99 commit-to-delivery latency.
 * Starts the whole stack on a fresh database and its own stream.
 * Environment: DATABASE_URL (admin URL of PostgreSQL), NATS_URL, BENCH_EVENTS (5000),
 * BENCH_RATE (200), BENCH_SECONDS (10).
 */
const { randomUUID, randomBytes } = require('node:crypto');
const { Pool } = require('pg');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { percentile } = require('./lib/stats');
const { sleep } = require('./lib/load');
const { publicKeyOf, startSignedReceiver } = require('./lib/signed-receiver');
const { openGatewaySession } = require('./lib/gateway-session');
const { writeResults, runBench } = require('./lib/report');

const EVENTS = numberFromEnv('BENCH_EVENTS', 5000);
const RATE = numberFromEnv('BENCH_RATE', 200);
const SECONDS = numberFromEnv('BENCH_SECONDS', 10);

/** Commits events to `schema`'s outbox in one transaction; returns their ids and the commit time. */
async function commit(pool, schema, type, data) {
  const ids = data.map(() => randomUUID());
  const client = await pool.connect();
  try {
    const now = new Date().toISOString();
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO "${schema}"."outbox" (id, subject, payload) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`,
      [
        ids,
        ids.map(() => `acs.${schema}.${type}`),
        ids.map((id, i) => JSON.stringify({ id, type, occurred_at: now, data: data[i] })),
      ],
    );
    await client.query(`SELECT pg_notify('${schema}_outbox', '')`);
    await client.query('COMMIT');
    return { ids, at: Date.now() };
  } finally {
    client.release();
  }
}

/**
 * Runs one path: `write(n)` commits n events and returns {ids, at}; `arrivals` maps an
 * id to its arrival time. Burst throughput, then paced latency.
 */
async function measure(name, write, arrivals) {
  const committed = new Map();
  const waitAll = async (ids, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !arrivals.has(id))) {
      if (Date.now() > deadline)
        throw new Error(`${name}: ${ids.filter((id) => !arrivals.has(id)).length} events missing`);
      await sleep(10);
    }
  };
  // Burst.
  const burstIds = [];
  const started = Date.now();
  for (let n = 0; n < EVENTS; n += 100) {
    const { ids, at } = await write(Math.min(100, EVENTS - n));
    ids.forEach((id) => committed.set(id, at));
    burstIds.push(...ids);
  }
  const committedAllAt = Date.now();
  await waitAll(burstIds, 120_000);
  const lastArrival = Math.max(...burstIds.map((id) => arrivals.get(id)));
  const burst = {
    events: EVENTS,
    commitsPerSecond: Math.round(EVENTS / ((committedAllAt - started) / 1000)),
    eventsPerSecond: Math.round(EVENTS / ((lastArrival - started) / 1000)),
    p50Ms: percentile(
      burstIds.map((id) => arrivals.get(id) - committed.get(id)),
      50,
    ),
    p99Ms: percentile(
      burstIds.map((id) => arrivals.get(id) - committed.get(id)),
      99,
    ),
  };
  await sleep(1000);
  // Paced: batches of 10 at RATE events/s.
  const pacedIds = [];
  const interval = 1000 / (RATE / 10);
  const end = Date.now() + SECONDS * 1000;
  for (let next = Date.now(); next < end; next += interval) {
    await sleep(Math.max(0, next - Date.now()));
    const { ids, at } = await write(10);
    ids.forEach((id) => committed.set(id, at));
    pacedIds.push(...ids);
  }
  await waitAll(pacedIds, 60_000);
  const latencies = pacedIds.map((id) => arrivals.get(id) - committed.get(id));
  const paced = {
    rate: RATE,
    events: pacedIds.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
  return { burst, paced };
}

async function main() {
  // One load generator on one address: the invalid-request limit would only measure itself.
  const bench = await startBenchStack('events', { env: { INVALID_REQUEST_LIMIT: '0' } });
  const { stack, admin } = bench;
  const pool = new Pool({ connectionString: bench.databaseUrl, max: 4 });
  let receiver;
  let session;
  try {
    const world = await createDemoWorld(admin);
    const app = world.application;

    // Webhook receiver: verifies each signature (as apps must), answers 204 at once.
    const publicKey = publicKeyOf(app.verifyKey);
    const webhookArrivals = new Map();
    receiver = await startSignedReceiver(
      () => publicKey,
      ({ req }, res) => {
        const id = req.headers['x-event-id'];
        if (id && !webhookArrivals.has(id)) webhookArrivals.set(id, Date.now());
        res.writeHead(204).end();
      },
    );
    const saved = await admin('PATCH', `/admin/applications/${app.id}`, {
      event_webhooks_url: `${receiver.url}/events`,
      event_webhooks_types: ['APPLICATION_AUTHORIZED'],
    });
    if (saved.status !== 200)
      throw new Error(`could not save the webhook URL: ${JSON.stringify(saved.body)}`);
    const authorized = {
      application_id: app.id,
      integration_type: 1,
      user_id: world.user.id,
      scopes: ['applications.commands'],
    };
    const webhook = await measure(
      'webhook',
      (n) =>
        commit(
          pool,
          'oauth',
          'application.authorized',
          Array.from({ length: n }, () => authorized),
        ),
      webhookArrivals,
    );

    // Gateway: one bot session; each event is a permissions update carrying a marker id.
    const gatewayArrivals = new Map();
    session = openGatewaySession(`ws://127.0.0.1:${stack.ports.gateway}`, app.botToken, 0, (p) => {
      if (p.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE') gatewayArrivals.set(p.d.id, Date.now());
    });
    await session.ready;
    // Markers double as event ids: commit() assigns ids, so the marker is set after. The
    // marker is the entry's `id`, which the event catalog wants a snowflake.
    const gateway = await measure(
      'gateway',
      async (n) => {
        const markers = Array.from({ length: n }, () =>
          BigInt(`0x${randomBytes(7).toString('hex')}`).toString(),
        );
        const { at } = await commit(
          pool,
          'permissions',
          'application_command_permissions.updated',
          markers.map((id) => ({ id, application_id: app.id, guild_id: world.guild.id, permissions: [] })),
        );
        return { ids: markers, at };
      },
      gatewayArrivals,
    );

    const report = { date: new Date().toISOString(), webhook, gateway };
    console.log('\nEvent delivery, commit → receiver (one machine, whole stack)');
    for (const [name, r] of Object.entries({ webhook, gateway })) {
      console.log(
        `  ${name.padEnd(8)} burst ${r.burst.events} events: ${r.burst.eventsPerSecond} events/s ` +
          `(commits ${r.burst.commitsPerSecond}/s), latency p50 ${r.burst.p50Ms} ms p99 ${r.burst.p99Ms} ms | ` +
          `paced ${r.paced.rate}/s: p50 ${r.paced.p50Ms} ms, p99 ${r.paced.p99Ms} ms`,
      );
    }
    writeResults('events', report);
  } finally {
    session?.close();
    receiver?.close();
    await pool.end();
    await bench.stop();
  }
}

runBench(main);
