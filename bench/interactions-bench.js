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
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { randomBytes, createPublicKey, verify, generateKeyPairSync, sign } = require('node:crypto');
const { Client } = require('pg');
const { createBenchDatabase } = require('./bench-database');
const { pidsNamed, snapshot, cpuBetween } = require('./process-cpu');
const WebSocket = require('ws');
const { startStack } = require('../infra/src/stack');
const { createAdminClient, adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');

const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const USERS = Number(process.env.BENCH_USERS ?? 16);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const keyOf = (hex) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
const markerOf = (interaction) => interaction?.data?.options?.[0]?.value;

/**
 * The app's endpoint: verifies the signature with the key of the request's application,
 * records the arrival of each marker, answers a message carrying the marker.
 */
function startReceiver(keys, arrivals) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8'));
      const key = keys.get(body.application_id);
      const signed = Buffer.concat([Buffer.from(String(req.headers['x-signature-timestamp'])), raw]);
      const signature = Buffer.from(String(req.headers['x-signature-ed25519'] ?? ''), 'hex');
      if (!key || signature.length !== 64 || !verify(null, signed, key, signature))
        return void res.writeHead(401).end();
      if (body.type === 1)
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"type":1}');
      const marker = markerOf(body);
      if (marker && !arrivals.has(marker)) arrivals.set(marker, performance.now());
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ type: 4, data: { content: marker ?? 'ok' } }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A raw gateway session (bot or user): Identify, heartbeats, and `onDispatch` for each event. */
function openSession(url, token, intents, onDispatch) {
  const socket = new WebSocket(`${url}/?v=10&encoding=json`);
  let heartbeat;
  const ready = new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const p = JSON.parse(data.toString());
      if (p.op === 10) {
        socket.send(
          JSON.stringify({
            op: 2,
            d: { token, intents, properties: { os: 'linux', browser: 'bench', device: 'bench' } },
          }),
        );
        heartbeat = setInterval(
          () => socket.send(JSON.stringify({ op: 1, d: null })),
          p.d.heartbeat_interval,
        );
      }
      if (p.t === 'READY') resolve(p.d);
      if (p.op === 0) onDispatch(p);
    });
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`gateway closed ${code}`)));
  });
  return { ready, close: () => (clearInterval(heartbeat), socket.close(1000)) };
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
  const interval = 1000 / RATE;
  const end = performance.now() + SECONDS * 1000;
  const inFlight = [];
  let pacedSent = 0;
  let pacedErrors = 0;
  for (let at = performance.now(); at < end; at += interval) {
    await sleep(Math.max(0, at - performance.now()));
    pacedSent++;
    // An invocation the stack refuses (a 504 on an overloaded machine) is counted, not fatal.
    inFlight.push(
      fire().then(
        (m) => paced.push(m),
        () => pacedErrors++,
      ),
    );
  }
  await Promise.all(inFlight);
  await sleep(1500);
  const pacedCpu = cpuBetween(pacedBefore, snapshot(await cpuGroups()));
  const toApp = paced.filter((m) => arrivals.has(m)).map((m) => arrivals.get(m) - sentAt.get(m));
  const toUser = seen ? paced.filter((m) => seen.has(m)).map((m) => seen.get(m) - sentAt.get(m)) : [];

  // Saturation: CONCURRENCY workers, each invoking as soon as its previous call returned.
  const before = arrivals.size;
  let saturationSent = 0;
  const saturationBefore = snapshot(await cpuGroups());
  const stopAt = performance.now() + SECONDS * 1000;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < stopAt) {
        saturationSent++;
        await fire().catch(() => errors++);
      }
    }),
  );
  await sleep(1500);
  const saturationCpu = cpuBetween(saturationBefore, snapshot(await cpuGroups()));
  const perInvocation = (cpu, count) =>
    Object.fromEntries(Object.entries(cpu.used).map(([k, ms]) => [k, +(ms / Math.max(1, count)).toFixed(2)]));
  const reached = arrivals.size - before;
  return {
    paced: {
      rate: RATE,
      sent: pacedSent,
      errors: pacedErrors,
      reachedApp: toApp.length,
      appP50Ms: +percentile(toApp, 50).toFixed(1),
      appP99Ms: +percentile(toApp, 99).toFixed(1),
      ...(seen
        ? {
            seenByUser: toUser.length,
            userP50Ms: +percentile(toUser, 50).toFixed(1),
            userP99Ms: +percentile(toUser, 99).toFixed(1),
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
  const suffix = randomBytes(4).toString('hex');
  const database = await createBenchDatabase('interactions');
  const adminToken = randomBytes(24).toString('base64url');
  const stack = await startStack({
    databaseUrl: database.url,
    natsUrl: NATS_URL,
    adminToken,
    ports: 'free',
    logMode: 'quiet',
    events: { stream: `ACS_EVENTS_B${suffix}`, subjectPrefix: `acsb${suffix}` },
    env: { ...process.env, LOG_LEVEL: 'warn', INVALID_REQUEST_LIMIT: '0' },
  });
  const sessions = [];
  let receiver;
  const databaseName = new URL(database.url).pathname.slice(1);
  const pg = new Client({
    connectionString: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  });
  await pg.connect();
  /** The processes whose CPU an invocation costs, read afresh for each snapshot. */
  const cpuGroups = async () => {
    const groups = {};
    for (const p of stack.processes) groups[p.name] = [...(groups[p.name] ?? []), p.pid ?? 0];
    const { rows } = await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [databaseName]);
    groups['postgres (this database)'] = rows.map((r) => Number(r.pid));
    groups['nats-server (shared)'] = pidsNamed('nats-server');
    groups['bench (clients + receiver)'] = [process.pid];
    return groups;
  };
  try {
    const admin = createAdminClient(stack.apiUrl, adminToken);
    const api = async (method, route, token, body) => {
      const response = await fetch(`${stack.apiUrl}/api/v10${route}`, {
        method,
        headers: { Authorization: token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    const world = await createDemoWorld(admin);
    const gatewayUrl = `ws://127.0.0.1:${stack.ports.gateway}`;

    // Two apps in the demo guild: one answered over HTTP, the demo app over the gateway.
    const httpApp = await adminExpect(admin, 201, 'POST', '/admin/applications', { name: 'Bench HTTP' });
    await adminExpect(admin, 200, 'POST', '/admin/oauth2/authorize', {
      client_id: httpApp.id,
      user_id: world.user.id,
      scope: 'bot applications.commands',
      guild_id: world.guild.id,
    });
    const appArrivals = new Map();
    const baselineKeys = generateKeyPairSync('ed25519');
    const keys = new Map([
      [httpApp.id, keyOf(httpApp.verify_key)],
      ['baseline', baselineKeys.publicKey],
    ]);
    receiver = await startReceiver(keys, appArrivals);
    const endpoint = `http://127.0.0.1:${receiver.address().port}/interactions`;
    await adminExpect(admin, 200, 'PATCH', `/admin/applications/${httpApp.id}`, {
      interactions_endpoint_url: endpoint,
    });

    const commandBody = [
      {
        name: 'bench',
        description: 'Bench',
        options: [{ name: 'marker', description: 'm', type: 3, required: true }],
      },
    ];
    const register = async (app, token) => {
      const put = await api(
        'PUT',
        `/applications/${app}/guilds/${world.guild.id}/commands`,
        `Bot ${token}`,
        commandBody,
      );
      if (put.status !== 200) throw new Error(`registering failed: ${JSON.stringify(put.body)}`);
      return put.body[0];
    };
    const httpCommand = await register(httpApp.id, httpApp.bot_token);
    const gatewayCommand = await register(world.application.id, world.application.botToken);

    // Invokers: several members, so that per-user limits do not shape the result.
    const tokens = [];
    for (let i = 0; i < USERS; i++) {
      const user = await adminExpect(admin, 201, 'POST', '/admin/users', { username: `bench${i}` });
      await admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, { roles: [world.role.id] });
      tokens.push((await adminExpect(admin, 201, 'POST', `/admin/users/${user.id}/sessions`)).token);
    }

    // The watcher: a user session that sees every answer in the channel.
    const userSeen = new Map();
    const watcher = openSession(gatewayUrl, tokens[0], 0, (p) => {
      if (p.t === 'MESSAGE_CREATE' && !userSeen.has(p.d.content))
        userSeen.set(p.d.content, performance.now());
    });
    sessions.push(watcher);
    await watcher.ready;

    // The gateway bot: answers each INTERACTION_CREATE through the callback route.
    const botArrivals = new Map();
    const bot = openSession(gatewayUrl, world.application.botToken, 1 << 0, (p) => {
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
    const invoke = (app, command) => async (marker) => {
      const token = tokens[turn++ % tokens.length];
      const answer = await fetch(`${stack.apiUrl}/api/v10/interactions`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 2,
          application_id: app,
          guild_id: world.guild.id,
          channel_id: world.channel.id,
          nonce: String((BigInt(Date.now() - 1420070400000) << 22n) | BigInt(turn & 0x3fffff)),
          data: {
            id: command.id,
            name: 'bench',
            type: 1,
            version: command.version,
            options: [{ name: 'marker', type: 3, value: marker }],
          },
        }),
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

    const ratio = (r) => +(r.saturation.perSecond / Math.max(1, baseline.saturation.perSecond)).toFixed(2);
    const report = {
      date: new Date().toISOString(),
      loadAverage: require('node:os').loadavg(),
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
    const names = Object.keys(overHttp.cpuMsPerInvocation.paced);
    const cell = (r, n) =>
      `${r.cpuMsPerInvocation.paced[n] ?? 0} (${r.cpuMsPerInvocation.saturation[n] ?? 0})`.padStart(16);
    console.log('\nCPU ms per invocation, paced (saturation), by process:');
    console.log(
      `  ${'process'.padEnd(28)}${Object.keys(runs)
        .map((k) => k.padStart(16))
        .join('')}`,
    );
    for (const n of names)
      console.log(
        `  ${n.padEnd(28)}${Object.values(runs)
          .map((r) => cell(r, n))
          .join('')}`,
      );
    const total = (r, phase) =>
      +Object.entries(r.cpuMsPerInvocation[phase])
        .filter(([k]) => !k.startsWith('bench'))
        .reduce((a, [, v]) => a + v, 0)
        .toFixed(2);
    console.log(
      `  ${'total (without bench)'.padEnd(28)}${Object.values(runs)
        .map((r) => `${total(r, 'paced')} (${total(r, 'saturation')})`.padStart(16))
        .join('')}`,
    );
    console.log(`  load average at the end: ${report.loadAverage.map((x) => x.toFixed(1)).join(' ')}`);
    const dir = path.join(__dirname, 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `interactions-${Date.now()}.json`),
      `${JSON.stringify(report, null, 2)}\n`,
    );
  } finally {
    for (const s of sessions) s.close();
    receiver?.close();
    await pg.end();
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
