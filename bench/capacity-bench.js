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
const os = require('node:os');
const { Client } = require('pg');
const { connect } = require('nats');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv, serverUrls } = require('./lib/env');
const { startBenchStack, UNREACHED_LIMITS } = require('./lib/bench-stack');
const { connectAdminClient, postgresBackendsOf } = require('./lib/database');
const { slashInvocation, createInvokedApp, createCommandsApp } = require('./lib/bench-world');
const { realisticCommands } = require('./lib/realistic-commands');
const { pidsNamed, snapshot, cpuBetween, stackProcessGroups } = require('./lib/process-cpu');
const { startInlineAppReceiver } = require('./lib/signed-receiver');
const { runAutocannon } = require('./lib/autocannon');
const { percentile, round } = require('./lib/stats');
const { timePaced, sleep } = require('./lib/load');
const { writeResults, tableRow, runBench } = require('./lib/report');

const SECONDS = numberFromEnv('BENCH_SECONDS', 20);
const READ_RATE = numberFromEnv('BENCH_READ_RATE', 200);
const WRITE_RATE = numberFromEnv('BENCH_WRITE_RATE', 50);
const USERS = 8;

/** `send()` at `rate`/s for `seconds` (open loop: late answers do not slow the pace); latencies in ms. */
async function paced(rate, seconds, send) {
  const { latencies, failures } = await timePaced(rate, seconds, send);
  return { ok: latencies.length, failures, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function main() {
  const bench = await startBenchStack('capacity', { redis: true, env: UNREACHED_LIMITS });
  const { stack, admin, events, databaseName } = bench;
  const pg = await connectAdminClient();
  const inDatabase = new Client({ connectionString: bench.databaseUrl });
  await inDatabase.connect();
  const nats = await connect({ servers: serverUrls().natsUrl });
  let receiver;
  try {
    const apiUrl = stack.apiUrl;
    const world = await createDemoWorld(admin);

    // The read and upsert app: 50 global commands of ~1 KB.
    const app = await createCommandsApp(apiUrl, admin, world);
    const commandsUrl = `${apiUrl}${app.commandsPath}`;
    const botAuth = { Authorization: app.authorization, 'Content-Type': 'application/json' };

    // The invoked app: in the demo guild, answering at its endpoint.
    const invoked = await createInvokedApp(apiUrl, admin, world, {
      members: USERS,
      startReceiver: (a) => startInlineAppReceiver(a.verify_key, 'ok'),
    });
    const { app: httpApp, command, tokens } = invoked;
    receiver = invoked.receiver;

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
      ...stackProcessGroups(stack),
      'PostgreSQL (this database)': [],
      'nats-server (shared)': pidsNamed('nats-server'),
      'redis-server (shared)': pidsNamed('redis-server'),
    };
    const backends = () => postgresBackendsOf(pg, databaseName);
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
        body: JSON.stringify(
          slashInvocation({ applicationId: httpApp.id, world, command, marker: `m${turn}`, seq: turn }),
        ),
      });
      await answer.arrayBuffer();
      if (answer.status !== 204) throw new Error(`invocation answered ${answer.status}`);
    };
    const upsert = async () => {
      const answer = await fetch(commandsUrl, { method: 'POST', headers: botAuth, body: upsertBody() });
      await answer.arrayBuffer();
      if (answer.status !== 200 && answer.status !== 201) throw new Error(`upsert answered ${answer.status}`);
    };
    await runAutocannon({ url: commandsUrl, headers: botAuth, connections: 10, duration: 3 });
    await paced(WRITE_RATE, 3, upsert);
    await paced(WRITE_RATE, 3, invoke);

    const results = [];
    results.push(
      await measured('rest', 0, async () => (await sleep(SECONDS * 1000), { ok: 0, failures: 0 })),
    );
    results.push(
      await measured('read', READ_RATE, async () => {
        const r = await runAutocannon({
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
          p50Ms: round(Number(r.p50)),
          p99Ms: round(Number(r.p99)),
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
    const workloadsHeader = report.workloads.map((w) => `${w.name} ${w.rate}/s`);
    console.log(tableRow('CPU-ms per request', [...workloadsHeader, 'at rest (cores)'], 30, 14));
    for (const g of Object.keys(groups)) {
      const perRequest = report.workloads.map((w) => w.cpuMsPerRequest[g].toFixed(2));
      console.log(tableRow(g, [...perRequest, report.rest[g].toFixed(3)], 30, 14));
    }
    const row = (label, f) => console.log(tableRow(label, report.workloads.map(f), 30, 14));
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

    writeResults('capacity', report);
  } finally {
    receiver?.close();
    await pg.end();
    await inDatabase.end();
    await nats.close();
    await bench.stop();
  }
}

runBench(main);
