#!/usr/bin/env node
'use strict';
/**
 * Interactions, invocation to app and back (issue 10). Users invoke `/bench marker:<m>`
 * through `POST /api/v10/interactions`; the app receives it either at its Interactions
 * Endpoint URL (a receiver that verifies each Ed25519 signature and answers inline) or
 * as INTERACTION_CREATE on its bot's gateway session (a raw bot that answers through the
 * callback route); one user's gateway session watches the answers arrive as MESSAGE_CREATE.
 *
 * For each delivery:
 *   - paced: BENCH_RATE invocations/s for BENCH_SECONDS: p50/p99 of invocation → app and
 *     of invocation → response seen by the user session;
 *   - saturation: BENCH_CONCURRENCY invocations in flight for BENCH_SECONDS: invocations/s
 *     that reached the app.
 * Baseline, measured in the same run on the same receiver: one Node process that signs and
 * POSTs the same payload straight to it (paced latency and saturation alike).
 * Goals (issue 10): p99 invocation → app < 50 ms at 50/s; saturation ≥ 0.5 × baseline.
 * CPU per invocation (issue 27): each phase reads /proc/<pid>/stat (utime + stime) of every
 * process of the stack, of this database's PostgreSQL backends and of the shared nats-server
 * before and after (1.5 s after the last send, so the work it set going is counted) and
 * divides by the invocations sent; printed as a table of milliseconds per invocation.
 * Environment: DATABASE_URL (admin URL of PostgreSQL), NATS_URL, BENCH_RATE (50),
 * BENCH_SECONDS (10), BENCH_CONCURRENCY (32), BENCH_USERS (16).
 */
const os = require('node:os');
const { randomBytes, generateKeyPairSync, sign } = require('node:crypto');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { connectAdminClient, postgresBackendsOf } = require('./lib/database');
const { pidsNamed, snapshot, cpuBetween, stackProcessGroups } = require('./lib/process-cpu');
const { percentile, round } = require('./lib/stats');
const { paceOpenLoop, runClosedLoops, sleep } = require('./lib/load');
const { publicKeyOf, startSignedReceiver, answerInline } = require('./lib/signed-receiver');
const { openGatewaySession } = require('./lib/gateway-session');
const {
  BENCH_COMMAND,
  slashInvocation,
  createInvokedApp,
  registerGuildCommands,
} = require('./lib/bench-world');
const { writeResults, tableRow, runBench } = require('./lib/report');

const RATE = numberFromEnv('BENCH_RATE', 50);
const SECONDS = numberFromEnv('BENCH_SECONDS', 10);
const CONCURRENCY = numberFromEnv('BENCH_CONCURRENCY', 32);
const USERS = numberFromEnv('BENCH_USERS', 16);

const markerOf = (interaction) => interaction?.data?.options?.[0]?.value;

/**
 * The app's endpoint: verifies the signature with the key of the request's application,
 * records the arrival of each marker, answers a message carrying the marker.
 */
function startReceiver(keys, arrivals) {
  return startSignedReceiver(
    (request) => keys.get(request.body.application_id),
    ({ body }, res) => {
      const marker = body.type === 1 ? undefined : markerOf(body);
      if (marker && !arrivals.has(marker)) arrivals.set(marker, performance.now());
      answerInline(res, body, marker ?? 'ok');
    },
  );
}

/**
 * Paced latency and closed-loop saturation of `send(marker)`, with `arrivals` (marker →
 * time at the app) and, when given, `seen` (marker → time at the user session).
 */
async function measure(name, send, arrivals, seen, cpuGroups) {
  const sentAt = new Map();
  let counter = 0;
  const next = () => `${name}-${++counter}-${randomBytes(3).toString('hex')}`;
  const fire = async () => {
    const marker = next();
    sentAt.set(marker, performance.now());
    await send(marker);
    return marker;
  };
  // Warm-up: connections, caches, JIT.
  for (let i = 0; i < 20; i++) await fire();
  await sleep(500);

  const paced = [];
  const pacedBefore = snapshot(await cpuGroups());
  let pacedErrors = 0;
  // An invocation the stack refuses (a 504 on an overloaded machine) is counted, not fatal.
  const pacedSent = await paceOpenLoop(RATE, SECONDS, () =>
    fire().then(
      (m) => paced.push(m),
      () => pacedErrors++,
    ),
  );
  await sleep(1500);
  const pacedCpu = cpuBetween(pacedBefore, snapshot(await cpuGroups()));
  const toApp = paced.filter((m) => arrivals.has(m)).map((m) => arrivals.get(m) - sentAt.get(m));
  const toUser = seen ? paced.filter((m) => seen.has(m)).map((m) => seen.get(m) - sentAt.get(m)) : [];

  // Saturation: CONCURRENCY workers, each invoking as soon as its previous call returned.
  const before = arrivals.size;
  const saturationBefore = snapshot(await cpuGroups());
  let errors = 0;
  const { calls: saturationSent } = await runClosedLoops(CONCURRENCY, SECONDS, () =>
    fire().catch(() => errors++),
  );
  await sleep(1500);
  const saturationCpu = cpuBetween(saturationBefore, snapshot(await cpuGroups()));
  const perInvocation = (cpu, count) =>
    Object.fromEntries(Object.entries(cpu.used).map(([k, ms]) => [k, round(ms / Math.max(1, count), 2)]));
  const reached = arrivals.size - before;
  return {
    paced: {
      rate: RATE,
      sent: pacedSent,
      errors: pacedErrors,
      reachedApp: toApp.length,
      appP50Ms: round(percentile(toApp, 50)),
      appP99Ms: round(percentile(toApp, 99)),
      ...(seen
        ? {
            seenByUser: toUser.length,
            userP50Ms: round(percentile(toUser, 50)),
            userP99Ms: round(percentile(toUser, 99)),
          }
        : {}),
    },
    saturation: { concurrency: CONCURRENCY, perSecond: Math.round(reached / SECONDS), errors },
    cpuMsPerInvocation: {
      paced: perInvocation(pacedCpu, pacedSent),
      saturation: perInvocation(saturationCpu, saturationSent),
    },
  };
}

async function main() {
  const bench = await startBenchStack('interactions', { env: { INVALID_REQUEST_LIMIT: '0' } });
  const { stack, admin } = bench;
  const sessions = [];
  let receiver;
  const pg = await connectAdminClient();
  /** The processes whose CPU an invocation costs, read afresh for each snapshot. */
  const cpuGroups = async () => ({
    ...stackProcessGroups(stack),
    'postgres (this database)': await postgresBackendsOf(pg, bench.databaseName),
    'nats-server (shared)': pidsNamed('nats-server'),
    'bench (clients + receiver)': [process.pid],
  });
  try {
    const world = await createDemoWorld(admin);
    const gatewayUrl = `ws://127.0.0.1:${stack.ports.gateway}`;

    // Two apps in the demo guild: one answered over HTTP, the demo app over the gateway;
    // USERS members invoke them (several, so that per-user limits do not shape the result).
    const appArrivals = new Map();
    const baselineKeys = generateKeyPairSync('ed25519');
    const invoked = await createInvokedApp(stack.apiUrl, admin, world, {
      members: USERS,
      startReceiver: (app) =>
        startReceiver(
          new Map([
            [app.id, publicKeyOf(app.verify_key)],
            ['baseline', baselineKeys.publicKey],
          ]),
          appArrivals,
        ),
    });
    const { app: httpApp, command: httpCommand, tokens } = invoked;
    receiver = invoked.receiver;
    const endpoint = `${receiver.url}/interactions`;
    const [gatewayCommand] = await registerGuildCommands(
      stack.apiUrl,
      { applicationId: world.application.id, botToken: world.application.botToken, world },
      [BENCH_COMMAND],
    );

    // The watcher: a user session that sees every answer in the channel.
    const userSeen = new Map();
    const watcher = openGatewaySession(gatewayUrl, tokens[0], 0, (p) => {
      if (p.t === 'MESSAGE_CREATE' && !userSeen.has(p.d.content))
        userSeen.set(p.d.content, performance.now());
    });
    sessions.push(watcher);
    await watcher.ready;

    // The gateway bot: answers each INTERACTION_CREATE through the callback route.
    const botArrivals = new Map();
    const bot = openGatewaySession(gatewayUrl, world.application.botToken, 1 << 0, (p) => {
      if (p.t !== 'INTERACTION_CREATE') return;
      const marker = markerOf(p.d);
      if (marker && !botArrivals.has(marker)) botArrivals.set(marker, performance.now());
      void fetch(`${stack.apiUrl}/api/v10/interactions/${p.d.id}/${p.d.token}/callback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 4, data: { content: marker } }),
      }).catch(() => undefined);
    });
    sessions.push(bot);
    await bot.ready;

    let turn = 0;
    const invoke = (applicationId, command) => async (marker) => {
      const token = tokens[turn++ % tokens.length];
      const answer = await fetch(`${stack.apiUrl}/api/v10/interactions`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify(slashInvocation({ applicationId, world, command, marker, seq: turn })),
      });
      await answer.arrayBuffer();
      if (answer.status !== 204) throw new Error(`invocation answered ${answer.status}`);
    };

    // Baseline: sign and POST the same kind of payload straight to the receiver.
    const baselineSend = async (marker) => {
      const body = JSON.stringify({
        id: '1',
        application_id: 'baseline',
        type: 2,
        token: 'x',
        version: 1,
        data: {
          id: gatewayCommand.id,
          name: 'bench',
          type: 1,
          options: [{ name: 'marker', type: 3, value: marker }],
        },
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = sign(null, Buffer.from(timestamp + body), baselineKeys.privateKey).toString('hex');
      const answer = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Signature-Ed25519': signature,
          'X-Signature-Timestamp': timestamp,
          'User-Agent': 'Discord-Interactions/1.0 (+https://discord.com)',
        },
        body,
      });
      await answer.arrayBuffer();
    };

    const baseline = await measure('base', baselineSend, appArrivals, undefined, cpuGroups);
    const overHttp = await measure('http', invoke(httpApp.id, httpCommand), appArrivals, userSeen, cpuGroups);
    const overGateway = await measure(
      'gw',
      invoke(world.application.id, gatewayCommand),
      botArrivals,
      userSeen,
      cpuGroups,
    );

    const ratio = (r) => round(r.saturation.perSecond / Math.max(1, baseline.saturation.perSecond), 2);
    const report = {
      date: new Date().toISOString(),
      loadAverage: os.loadavg(),
      baseline,
      http: { ...overHttp, saturationVsBaseline: ratio(overHttp) },
      gateway: { ...overGateway, saturationVsBaseline: ratio(overGateway) },
    };
    console.log('\nInteractions: invocation → app → answer seen by the user (one machine, whole stack)');
    for (const [name, r] of Object.entries({ baseline, http: report.http, gateway: report.gateway })) {
      const p = r.paced;
      console.log(
        `  ${name.padEnd(8)} paced ${p.rate}/s: to app p50 ${p.appP50Ms} ms p99 ${p.appP99Ms} ms (${p.reachedApp}/${p.sent}${p.errors ? `, ${p.errors} errors` : ''})` +
          (p.userP99Ms !== undefined
            ? `, to user p50 ${p.userP50Ms} ms p99 ${p.userP99Ms} ms (${p.seenByUser})`
            : '') +
          ` | saturation ${r.saturation.perSecond}/s` +
          (r.saturationVsBaseline !== undefined ? ` = ${r.saturationVsBaseline}× baseline` : '') +
          (r.saturation.errors ? ` (${r.saturation.errors} errors)` : ''),
      );
    }
    // CPU milliseconds per invocation by process, paced phase (saturation in brackets).
    const runs = { baseline, http: overHttp, gateway: overGateway };
    const total = (r, phase) =>
      round(
        Object.entries(r.cpuMsPerInvocation[phase])
          .filter(([k]) => !k.startsWith('bench'))
          .reduce((a, [, v]) => a + v, 0),
        2,
      );
    const cpuRow = (label, cell) => `  ${tableRow(label, Object.values(runs).map(cell), 28, 16)}`;
    console.log('\nCPU ms per invocation, paced (saturation), by process:');
    console.log(`  ${tableRow('process', Object.keys(runs), 28, 16)}`);
    for (const n of Object.keys(overHttp.cpuMsPerInvocation.paced))
      console.log(
        cpuRow(
          n,
          (r) => `${r.cpuMsPerInvocation.paced[n] ?? 0} (${r.cpuMsPerInvocation.saturation[n] ?? 0})`,
        ),
      );
    console.log(cpuRow('total (without bench)', (r) => `${total(r, 'paced')} (${total(r, 'saturation')})`));
    console.log(`  load average at the end: ${report.loadAverage.map((x) => x.toFixed(1)).join(' ')}`);
    writeResults('interactions', report);
  } finally {
    for (const s of sessions) s.close();
    receiver?.close();
    await pg.end();
    await bench.stop();
  }
}

runBench(main);
