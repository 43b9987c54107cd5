#!/usr/bin/env node
'use strict';
/**
 * What each service costs per request, for the capacity note (k8s/README.md, issue 15).
 * Starts the whole stack (one replica, rate limits counted in Redis at limits too high to
 * refuse any) on a fresh database, then measures three workloads at a fixed rate, each for
 * BENCH_SECONDS (default 20) after a warm-up:
 *   - read:   GET /applications/{id}/commands (50 commands of ~1 KB), BENCH_READ_RATE/s (200);
 *   - upsert: POST /applications/{id}/commands, each a real change of one of the 50
 *             (an update and its event), BENCH_WRITE_RATE/s (50);
 *   - invoke: POST /interactions by 8 members, the app answering inline at its Interactions
 *             Endpoint URL (a receiver in this process), BENCH_WRITE_RATE/s (50).
 * For each: the CPU time of every service process and of this database's PostgreSQL
 * backends (from /proc, less what each used at rest, measured first for BENCH_SECONDS),
 * divided by the requests served: CPU-ms per request, which is also the cores needed per
 * 1,000 requests/s. Also per request: PostgreSQL commits and rows written in this database
 * (pg_stat_database), WAL bytes (server-wide: other databases' writes count too), events
 * stored in the stack's JetStream stream and NATS messages on the stack's subjects (events
 * and the dispatcher's gateway fan-out). nats-server and redis-server are shared with
 * whatever else runs on the machine: their CPU is shown, for what it is worth.
 * Environment: DATABASE_URL (admin URL of PostgreSQL, default local), NATS_URL, REDIS_URL,
 * BENCH_SECONDS, BENCH_READ_RATE, BENCH_WRITE_RATE.
 */
const { randomBytes, createPublicKey, verify } = require('node:crypto');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { connect } = require('nats');
const { startStack } = require('../infra/src/stack');
const { createAdminClient, adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { realisticCommands } = require('./realistic-commands');
const { createBenchDatabase } = require('./bench-database');
const { pidsNamed, snapshot, cpuBetween } = require('./process-cpu');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 200);
const WRITE_RATE = Number(process.env.BENCH_WRITE_RATE ?? 50);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** Counted on every request, never reached. */
const LIMITS = {
  RATE_LIMIT_GLOBAL_PER_SECOND: '1000000000',
  RATE_LIMIT_ROUTE_LIMIT: '1000000000',
  RATE_LIMIT_WEBHOOK_LIMIT: '0',
  RATE_LIMIT_WORK_PER_SECOND: '0',
  INVALID_REQUEST_LIMIT: '1000000000',
};
const USERS = 8;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

function autocannonRun(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** `send()` at `rate`/s for `seconds` (open loop: late answers do not slow the pace); latencies in ms. */
async function paced(rate, seconds, send) {
  const latencies = [];
  let failures = 0;
  const inFlight = [];
  const end = performance.now() + seconds * 1000;
  for (let at = performance.now(); at < end; at += 1000 / rate) {
    await sleep(Math.max(0, at - performance.now()));
    const started = performance.now();
    inFlight.push(
      send().then(
        () => latencies.push(performance.now() - started),
        () => failures++,
      ),
    );
  }
  await Promise.all(inFlight);
  return { ok: latencies.length, failures, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * The app's Interactions Endpoint: verifies each signature with the app's key (ACS checks
 * that an endpoint does), answers every interaction inline (PING with PONG).
 */
function startReceiver(verifyKeyHex) {
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(verifyKeyHex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signed = Buffer.concat([Buffer.from(String(req.headers['x-signature-timestamp'])), raw]);
      const signature = Buffer.from(String(req.headers['x-signature-ed25519'] ?? ''), 'hex');
      if (signature.length !== 64 || !verify(null, signed, key, signature))
        return void res.writeHead(401).end();
      const body = JSON.parse(raw.toString('utf8'));
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(body.type === 1 ? { type: 1 } : { type: 4, data: { content: 'ok' } }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const suffix = randomBytes(4).toString('hex');
  const events = { stream: `ACS_EVENTS_C${suffix}`, subjectPrefix: `acsc${suffix}` };
  const database = await createBenchDatabase('capacity');
  const databaseName = new URL(database.url).pathname.slice(1);
  const adminToken = randomBytes(24).toString('base64url');
  const pg = new Client({ connectionString: ADMIN_URL });
  await pg.connect();
  const inDatabase = new Client({ connectionString: database.url });
  await inDatabase.connect();
  const nats = await connect({ servers: NATS_URL });
  let stack;
  let receiver;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl: NATS_URL,
      adminToken,
      ports: 'free',
      logMode: 'quiet',
      events,
      env: { ...process.env, LOG_LEVEL: 'warn', REDIS_URL, REDIS_KEY_PREFIX: `bench:${suffix}:`, ...LIMITS },
    });
    const apiUrl = stack.apiUrl;
    const admin = createAdminClient(apiUrl, adminToken);
    const world = await createDemoWorld(admin);

    // The read and upsert app: 50 global commands of ~1 KB.
    const app = await adminExpect(admin, 201, 'POST', '/admin/applications', {
      name: 'Bench App',
      owner_id: world.user.id,
    });
    const commandsUrl = `${apiUrl}/api/v10/applications/${app.id}/commands`;
    const botAuth = { Authorization: `Bot ${app.bot_token}`, 'Content-Type': 'application/json' };
    const put = await fetch(commandsUrl, {
      method: 'PUT',
      headers: botAuth,
      body: JSON.stringify(realisticCommands(50)),
    });
    if (put.status !== 200) throw new Error(`seeding commands failed: ${put.status} ${await put.text()}`);

    // The invoked app: in the demo guild, answering at its endpoint.
    const httpApp = await adminExpect(admin, 201, 'POST', '/admin/applications', { name: 'Bench HTTP' });
    await adminExpect(admin, 200, 'POST', '/admin/oauth2/authorize', {
      client_id: httpApp.id,
      user_id: world.user.id,
      scope: 'bot applications.commands',
      guild_id: world.guild.id,
    });
    receiver = await startReceiver(httpApp.verify_key);
    await adminExpect(admin, 200, 'PATCH', `/admin/applications/${httpApp.id}`, {
      interactions_endpoint_url: `http://127.0.0.1:${receiver.address().port}/interactions`,
    });
    const registered = await fetch(
      `${apiUrl}/api/v10/applications/${httpApp.id}/guilds/${world.guild.id}/commands`,
      {
        method: 'PUT',
        headers: { Authorization: `Bot ${httpApp.bot_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify([
          {
            name: 'bench',
            description: 'Bench',
            options: [{ name: 'marker', description: 'm', type: 3, required: true }],
          },
        ]),
      },
    );
    if (registered.status !== 200) throw new Error(`registering /bench failed: ${registered.status}`);
    const [command] = await registered.json();
    const tokens = [];
    for (let i = 0; i < USERS; i++) {
      const user = await adminExpect(admin, 201, 'POST', '/admin/users', { username: `bench${i}` });
      await admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, { roles: [world.role.id] });
      tokens.push((await adminExpect(admin, 201, 'POST', `/admin/users/${user.id}/sessions`)).token);
    }

    // NATS messages on this stack's subjects: events and the dispatcher's gateway fan-out.
    let natsMessages = 0;
    for (const subject of [
      `${events.subjectPrefix}.>`,
      `${events.subjectPrefix}_gateway.>`,
      `${events.subjectPrefix}_gateway_user.>`,
      `${events.subjectPrefix}_gateway_guild.>`,
    ]) {
      nats.subscribe(subject, { callback: () => void natsMessages++ });
    }
    const jsm = await nats.jetstreamManager();
    const storedEvents = async () => (await jsm.streams.info(events.stream)).state.messages;
    const consumers = (await jsm.consumers.list(events.stream).next()).map((c) => c.name);

    const groups = {
      ...Object.fromEntries(stack.processes.map((p) => [p.name, [p.pid ?? 0]])),
      'PostgreSQL (this database)': [],
      'nats-server (shared)': pidsNamed('nats-server'),
      'redis-server (shared)': pidsNamed('redis-server'),
    };
    const backends = async () => {
      const { rows } = await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [databaseName]);
      return rows.map((r) => Number(r.pid));
    };
    const counters = async () => {
      const { rows } = await pg.query(
        `SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, pg_current_wal_lsn() AS lsn
           FROM pg_stat_database WHERE datname = $1`,
        [databaseName],
      );
      const r = rows[0];
      const [hi, lo] = String(r.lsn).split('/');
      // Rows written by schema: each service keeps its tables in a schema of its own.
      const { rows: schemas } = await inDatabase.query(
        `SELECT schemaname, sum(n_tup_ins + n_tup_upd + n_tup_del)::bigint AS written
           FROM pg_stat_user_tables GROUP BY schemaname`,
      );
      return {
        ...Object.fromEntries(schemas.map((x) => [`rows written in ${x.schemaname}`, Number(x.written)])),
        commits: Number(r.xact_commit),
        rowsWritten: Number(r.tup_inserted) + Number(r.tup_updated) + Number(r.tup_deleted),
        walBytes: Number((BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`)),
        events: await storedEvents(),
        natsMessages,
      };
    };
    /** Runs `work` (resolves with { ok, p50, p99 }) between two readings of everything. */
    const measured = async (name, rate, work) => {
      groups['PostgreSQL (this database)'] = await backends();
      // PostgreSQL publishes a backend's counters when it is idle, at most once a second.
      await sleep(1500);
      const countersBefore = await counters();
      const before = snapshot(groups);
      const result = await work();
      await sleep(1500); // what the requests set going (events, deliveries) finishes
      groups['PostgreSQL (this database)'] = [
        ...new Set([...groups['PostgreSQL (this database)'], ...(await backends())]),
      ];
      const cpu = cpuBetween(before, snapshot(groups));
      await sleep(1500);
      const countersAfter = await counters();
      const delta = Object.fromEntries(
        Object.keys(countersAfter).map((k) => [k, countersAfter[k] - (countersBefore[k] ?? 0)]),
      );
      return { name, rate, ...result, cpu, delta };
    };

    // Warm-up of every path (connections, caches, JIT).
    let upsertCounter = 0;
    const upsertBody = () => {
      const [c] = realisticCommands(1, `upsert ${upsertCounter++}`);
      return JSON.stringify({ ...c, name: `command-${upsertCounter % 50}` });
    };
    let turn = 0;
    const invoke = async () => {
      const token = tokens[turn++ % tokens.length];
      const answer = await fetch(`${apiUrl}/api/v10/interactions`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 2,
          application_id: httpApp.id,
          guild_id: world.guild.id,
          channel_id: world.channel.id,
          nonce: String((BigInt(Date.now() - 1420070400000) << 22n) | BigInt(turn & 0x3fffff)),
          data: {
            id: command.id,
            name: 'bench',
            type: 1,
            version: command.version,
            options: [{ name: 'marker', type: 3, value: `m${turn}` }],
          },
        }),
      });
      await answer.arrayBuffer();
      if (answer.status !== 204) throw new Error(`invocation answered ${answer.status}`);
    };
    const upsert = async () => {
      const answer = await fetch(commandsUrl, { method: 'POST', headers: botAuth, body: upsertBody() });
      await answer.arrayBuffer();
      if (answer.status !== 200 && answer.status !== 201) throw new Error(`upsert answered ${answer.status}`);
    };
    await autocannonRun({ url: commandsUrl, headers: botAuth, connections: 10, duration: 3 });
    await paced(WRITE_RATE, 3, upsert);
    await paced(WRITE_RATE, 3, invoke);

    const results = [];
    results.push(
      await measured('rest', 0, async () => (await sleep(SECONDS * 1000), { ok: 0, failures: 0 })),
    );
    results.push(
      await measured('read', READ_RATE, async () => {
        const r = await autocannonRun({
          url: commandsUrl,
          headers: botAuth,
          connections: 10,
          overallRate: READ_RATE,
          duration: SECONDS,
        });
        return {
          ok: r['2xx'],
          failures: r.non2xx + r.errors + r.timeouts,
          p50: r.latency.p50,
          p99: r.latency.p99,
        };
      }),
    );
    results.push(await measured('upsert', WRITE_RATE, () => paced(WRITE_RATE, SECONDS, upsert)));
    results.push(await measured('invoke', WRITE_RATE, () => paced(WRITE_RATE, SECONDS, invoke)));

    const rest = results[0];
    const restRate = (group) => rest.cpu.used[group] / rest.cpu.wallMs; // CPU-ms per wall-ms at rest
    const report = {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      seconds: SECONDS,
      consumers,
      rest: Object.fromEntries(Object.keys(groups).map((g) => [g, +restRate(g).toFixed(3)])),
      workloads: results.slice(1).map((r) => {
        const perRequest = Object.fromEntries(
          Object.keys(groups).map((g) => [
            g,
            +Math.max(0, (r.cpu.used[g] - restRate(g) * r.cpu.wallMs) / r.ok).toFixed(3),
          ]),
        );
        const acs = Object.entries(perRequest)
          .filter(([g]) => !g.includes('(shared)'))
          .reduce((sum, [, ms]) => sum + ms, 0);
        return {
          name: r.name,
          rate: r.rate,
          ok: r.ok,
          failures: r.failures,
          p50Ms: +Number(r.p50).toFixed(1),
          p99Ms: +Number(r.p99).toFixed(1),
          cpuMsPerRequest: perRequest,
          cpuMsPerRequestStackAndPostgres: +acs.toFixed(2),
          perRequest: Object.fromEntries(
            Object.entries(r.delta).map(([k, v]) => [k, +(v / r.ok).toFixed(k === 'walBytes' ? 0 : 2)]),
          ),
        };
      }),
    };

    console.log(
      `\n${report.cpus} CPUs; ${SECONDS} s per workload; JetStream consumers: ${consumers.join(', ')}`,
    );
    const names = Object.keys(groups);
    const header = [
      'CPU-ms per request',
      ...report.workloads.map((w) => `${w.name} ${w.rate}/s`),
      'at rest (cores)',
    ];
    console.log(header.map((h, i) => (i === 0 ? h.padEnd(30) : h.padStart(14))).join(''));
    for (const g of names) {
      console.log(
        [
          g.padEnd(30),
          ...report.workloads.map((w) => w.cpuMsPerRequest[g].toFixed(2).padStart(14)),
          report.rest[g].toFixed(3).padStart(14),
        ].join(''),
      );
    }
    const row = (label, f) =>
      console.log([label.padEnd(30), ...report.workloads.map((w) => String(f(w)).padStart(14))].join(''));
    row('total, services + PostgreSQL', (w) => w.cpuMsPerRequestStackAndPostgres.toFixed(2));
    row('served (failed)', (w) => `${w.ok} (${w.failures})`);
    row('latency p50 / p99 ms', (w) => `${w.p50Ms} / ${w.p99Ms}`);
    row('PG commits / request', (w) => w.perRequest.commits);
    row('PG rows written / request', (w) => w.perRequest.rowsWritten);
    row('WAL bytes / request (server)', (w) => w.perRequest.walBytes);
    row('events stored / request', (w) => w.perRequest.events);
    row('NATS msgs (our subjects) / req', (w) => w.perRequest.natsMessages);
    const schemaKeys = [
      ...new Set(
        report.workloads.flatMap((w) =>
          Object.keys(w.perRequest).filter((k) => k.startsWith('rows written in')),
        ),
      ),
    ].sort();
    for (const k of schemaKeys)
      row(`  ${k.replace('rows written in ', 'rows in ')}`, (w) => w.perRequest[k] ?? 0);

    const dir = path.join(__dirname, 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `capacity-${Date.now()}.json`), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    receiver?.close();
    await stack?.stop();
    await pg.end();
    await inDatabase.end();
    await (await nats.jetstreamManager()).streams.delete(events.stream).catch(() => undefined);
    await nats.close();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
