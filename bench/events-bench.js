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
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { randomUUID, randomBytes, createPublicKey, verify } = require('node:crypto');
const { Pool } = require('pg');
const { createBenchDatabase } = require('./bench-database');
const WebSocket = require('ws');
const { startStack } = require('../infra/src/stack');
const { createAdminClient } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

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
  const suffix = randomBytes(4).toString('hex');
  const database = await createBenchDatabase('events');
  const adminToken = randomBytes(24).toString('base64url');
  const stack = await startStack({
    databaseUrl: database.url,
    natsUrl: NATS_URL,
    adminToken,
    ports: 'free',
    logMode: 'quiet',
    events: { stream: `ACS_EVENTS_B${suffix}`, subjectPrefix: `acsb${suffix}` },
    // One load generator on one address: the invalid-request limit would only measure itself.
    env: { ...process.env, LOG_LEVEL: 'warn', INVALID_REQUEST_LIMIT: '0' },
  });
  const pool = new Pool({ connectionString: database.url, max: 4 });
  const receiverServer = http.createServer();
  let socket;
  try {
    const admin = createAdminClient(stack.apiUrl, adminToken);
    const world = await createDemoWorld(admin);
    const app = world.application;

    // Webhook receiver: verifies each signature (as apps must), answers 204 at once.
    const publicKey = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(app.verifyKey, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    const webhookArrivals = new Map();
    receiverServer.on('request', (req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const signed = Buffer.concat([Buffer.from(String(req.headers['x-signature-timestamp'])), ...chunks]);
        const signature = Buffer.from(String(req.headers['x-signature-ed25519'] ?? ''), 'hex');
        if (signature.length !== 64 || !verify(null, signed, publicKey, signature))
          return void res.writeHead(401).end();
        const id = req.headers['x-event-id'];
        if (id && !webhookArrivals.has(id)) webhookArrivals.set(id, Date.now());
        res.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiverServer.listen(0, '127.0.0.1', resolve));
    const saved = await admin('PATCH', `/admin/applications/${app.id}`, {
      event_webhooks_url: `http://127.0.0.1:${receiverServer.address().port}/events`,
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
    socket = new WebSocket(`ws://127.0.0.1:${stack.ports.gateway}/?v=10&encoding=json`);
    await new Promise((resolve, reject) => {
      socket.on('message', (data) => {
        const p = JSON.parse(data.toString());
        if (p.op === 10)
          socket.send(JSON.stringify({ op: 2, d: { token: app.botToken, intents: 0, properties: {} } }));
        if (p.t === 'READY') resolve();
        if (p.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE') gatewayArrivals.set(p.d.id, Date.now());
      });
      socket.on('error', reject);
    });
    const heartbeat = setInterval(() => socket.send(JSON.stringify({ op: 1, d: null })), 10_000);
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
    clearInterval(heartbeat);

    const report = { date: new Date().toISOString(), webhook, gateway };
    console.log('\nEvent delivery, commit → receiver (one machine, whole stack)');
    for (const [name, r] of Object.entries({ webhook, gateway })) {
      console.log(
        `  ${name.padEnd(8)} burst ${r.burst.events} events: ${r.burst.eventsPerSecond} events/s ` +
          `(commits ${r.burst.commitsPerSecond}/s), latency p50 ${r.burst.p50Ms} ms p99 ${r.burst.p99Ms} ms | ` +
          `paced ${r.paced.rate}/s: p50 ${r.paced.p50Ms} ms, p99 ${r.paced.p99Ms} ms`,
      );
    }
    const dir = path.join(__dirname, 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `events-${Date.now()}.json`), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    socket?.close(1000);
    receiverServer.close();
    await pool.end();
    await stack.stop();
    await database.drop();
    const { connect } = require('nats');
    const nats = await connect({ servers: NATS_URL });
    await (await nats.jetstreamManager()).streams.delete(`ACS_EVENTS_B${suffix}`).catch(() => undefined);
    await nats.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
