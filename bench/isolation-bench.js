#!/usr/bin/env node
'use strict';
/**
 * Fair cost (issue 28, item 7): does one user invoking commands slow another tenant down?
 * The probe's method (test/tenant-isolation.e2e.test.ts): tenant B's plain GET of its
 * commands, timed one after another, alone and while tenant A's user invokes A's command
 * (answered inline by A's Interactions Endpoint, a receiver in this process that verifies
 * each signature), in alternating rounds so that both see the same machine.
 *
 * The stack runs with the production limits (RATE_LIMIT_WORK_PER_SECOND 50,
 * RATE_LIMIT_INVOCATION_COST 10: 5 invocations a second per user). Phases, each
 * BENCH_ROUNDS rounds of BENCH_SAMPLES GETs:
 *   - alone: B's GETs, nothing else;
 *   - permitted: A's user invokes at the rate its budget permits (read from the
 *     X-RateLimit-Limit its invocations answer), paced;
 *   - flood: A's user invokes as fast as BENCH_FLOOD_CONCURRENCY loops can (the probe's
 *     50 a second and more): all but the permitted ones are refused with 429.
 * A's invocations run in a worker thread (as another machine would), so that their I/O
 * does not delay the timing of B's requests. Printed: B's p50/p99 per phase and the ratio
 * of each to alone; the goal (issue 28) is B's p99 ≤ 50 ms while A invokes at the
 * permitted rate.
 * Environment: DATABASE_URL (admin URL of PostgreSQL), NATS_URL, BENCH_ROUNDS (3),
 * BENCH_SAMPLES (100), BENCH_FLOOD_CONCURRENCY (8).
 */
const http = require('node:http');
const { Worker } = require('node:worker_threads');
const { adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { createApiClient } = require('./lib/api-client');
const { startInlineAppReceiver } = require('./lib/signed-receiver');
const { setInteractionsEndpoint } = require('./lib/bench-world');
const { percentile } = require('./lib/stats');
const { sleep } = require('./lib/load');
const { runBench } = require('./lib/report');

const ROUNDS = numberFromEnv('BENCH_ROUNDS', 3);
const SAMPLES = numberFromEnv('BENCH_SAMPLES', 100);
const FLOOD_CONCURRENCY = numberFromEnv('BENCH_FLOOD_CONCURRENCY', 8);

/**
 * A's user, in a worker: invokes `body` either every `intervalMs` (paced) or from
 * `concurrency` loops back to back; on 'stop', answers the statuses it got.
 */
const INVOKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { Agent, request } = require('node:http');
const { url, token, body, intervalMs, concurrency } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: Math.max(concurrency, 4) });
const statuses = {};
let running = true;
let n = 0;
function send() {
  const nonce = String((BigInt(Date.now() - 1420070400000) << 22n) | BigInt(n++ & 0x3fffff));
  const payload = Buffer.from(JSON.stringify({ ...body, nonce }));
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { Authorization: token, 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => { statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1; resolve(); });
    });
    req.on('error', () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
    req.end(payload);
  });
}
let loops;
if (intervalMs > 0) {
  const inFlight = new Set();
  const timer = setInterval(() => { const p = send(); inFlight.add(p); p.then(() => inFlight.delete(p)); }, intervalMs);
  loops = new Promise((resolve) => parentPort.once('message', () => { clearInterval(timer); resolve(Promise.all(inFlight)); }));
} else {
  loops = new Promise((resolve) => parentPort.once('message', () => { running = false; resolve(); }));
  loops = Promise.all([loops, ...Array.from({ length: concurrency }, async () => { while (running) await send(); })]);
}
loops.then(() => { agent.destroy(); parentPort.postMessage(statuses); });
`;

function startInvoker(workerData) {
  const worker = new Worker(INVOKER, { eval: true, workerData });
  return {
    stop: async () => {
      const statuses = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const answer = await statuses;
      await worker.terminate();
      return answer;
    },
  };
}

async function main() {
  // The production limits, but for the invalid-request block (one address sends it all).
  const bench = await startBenchStack('isolation', { env: { INVALID_REQUEST_LIMIT: '0' } });
  const { stack, admin } = bench;
  let receiver;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const attacker = await createDemoWorld(admin, {
      username: 'invoker',
      guildName: 'Guild A',
      applicationName: 'Tenant A',
    });
    const victim = await createDemoWorld(admin, {
      username: 'reader',
      guildName: 'Guild B',
      applicationName: 'Tenant B',
    });
    receiver = await startInlineAppReceiver(attacker.application.verifyKey, 'done');
    await setInteractionsEndpoint(admin, attacker.application.id, `${receiver.url}/interactions`);
    const api = createApiClient(stack.apiUrl);
    const put = await api(
      'PUT',
      `/applications/${attacker.application.id}/guilds/${attacker.guild.id}/commands`,
      `Bot ${attacker.application.botToken}`,
      [{ name: 'work', description: 'Works' }],
    );
    if (put.status !== 200) throw new Error(`registering failed: ${JSON.stringify(put.body)}`);
    const command = put.body[0];
    for (const name of ['alpha', 'beta', 'gamma']) {
      const created = await api(
        'POST',
        `/applications/${victim.application.id}/commands`,
        `Bot ${victim.application.botToken}`,
        {
          name,
          description: `Does ${name}`,
        },
      );
      if (created.status !== 201) throw new Error(`B's command: ${created.status}`);
    }
    const session = (await adminExpect(admin, 201, 'POST', `/admin/users/${attacker.user.id}/sessions`))
      .token;
    const invocation = {
      type: 2,
      application_id: attacker.application.id,
      guild_id: attacker.guild.id,
      channel_id: attacker.channel.id,
      data: { id: command.id, name: 'work', type: 1, version: command.version },
    };
    // The permitted rate, as the invocation route tells it.
    const probe = await api('POST', '/interactions', session, { ...invocation, nonce: '1' });
    if (probe.status !== 204) throw new Error(`invocation answered ${probe.status}`);
    const permitted = Number(probe.headers.get('x-ratelimit-limit'));
    await sleep(1100);

    const victimUrl = new URL(`${stack.apiUrl}/api/v10/applications/${victim.application.id}/commands`);
    /** B's answers other than 200, by phase: counted and shown, not thrown. */
    const failures = {};
    let phase = 'warm-up';
    const timeVictim = async (count) => {
      const times = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const { status, text } = await new Promise((resolve, reject) => {
          const req = http.request(
            victimUrl,
            { agent, headers: { Authorization: `Bot ${victim.application.botToken}` } },
            (res) => {
              const chunks = [];
              res.on('data', (c) => chunks.push(c));
              res.on('end', () =>
                resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }),
              );
            },
          );
          req.on('error', reject);
          req.end();
        });
        times.push(performance.now() - started);
        if (status !== 200) {
          const key = `${phase}: ${status} ${text.slice(0, 120)}`;
          failures[key] = (failures[key] ?? 0) + 1;
        }
      }
      return times;
    };
    const invoker = (mode) =>
      startInvoker({
        url: `${stack.apiUrl}/api/v10/interactions`,
        token: session,
        body: invocation,
        intervalMs: mode === 'permitted' ? 1000 / permitted : 0,
        concurrency: mode === 'permitted' ? 1 : FLOOD_CONCURRENCY,
      });

    // Warm up every path (JIT, connections, caches).
    await timeVictim(30);
    const warm = invoker('permitted');
    await timeVictim(30);
    await warm.stop();

    const samples = { alone: [], permitted: [], flood: [] };
    const statuses = { permitted: {}, flood: {} };
    const started = { permitted: 0, flood: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      phase = 'alone';
      samples.alone.push(...(await timeVictim(SAMPLES)));
      for (const mode of ['permitted', 'flood']) {
        phase = mode;
        const run = invoker(mode);
        const t0 = performance.now();
        samples[mode].push(...(await timeVictim(SAMPLES)));
        const got = await run.stop();
        started[mode] += (performance.now() - t0) / 1000;
        for (const [status, count] of Object.entries(got))
          statuses[mode][status] = (statuses[mode][status] ?? 0) + count;
        phase = 'alone';
        samples.alone.push(...(await timeVictim(Math.round(SAMPLES / 2))));
      }
    }

    const alone = { p50: percentile(samples.alone, 50), p99: percentile(samples.alone, 99) };
    const row = (name, values, extra = '') => {
      const p50 = percentile(values, 50);
      const p99 = percentile(values, 99);
      console.log(
        `${name.padEnd(34)} ${p50.toFixed(1).padStart(7)} ${p99.toFixed(1).padStart(7)}` +
          `   ×${(p50 / alone.p50).toFixed(2)} ×${(p99 / alone.p99).toFixed(2)}${extra}`,
      );
    };
    const rateOf = (mode) => {
      const ok = statuses[mode]['204'] ?? 0;
      const refused = statuses[mode]['429'] ?? 0;
      const other = Object.entries(statuses[mode]).filter(([s]) => s !== '204' && s !== '429');
      return (
        `   (A: ${(ok / started[mode]).toFixed(1)} invocations/s taken, ` +
        `${(refused / started[mode]).toFixed(1)}/s refused 429` +
        `${other.length ? `, other: ${JSON.stringify(Object.fromEntries(other))}` : ''})`
      );
    };
    console.log(`\nTenant isolation (issue 28, item 7): B's GET /commands, ${ROUNDS} rounds × ${SAMPLES}`);
    console.log(`A's permitted invocation rate (X-RateLimit-Limit): ${permitted}/s per user\n`);
    console.log(
      `${'phase'.padEnd(34)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}   ratio to alone (p50, p99)`,
    );
    row('alone', samples.alone);
    row('A invokes at the permitted rate', samples.permitted, rateOf('permitted'));
    row(`A floods (${FLOOD_CONCURRENCY} loops)`, samples.flood, rateOf('flood'));
    if (Object.keys(failures).length > 0)
      console.log(`\nB's answers other than 200: ${JSON.stringify(failures, null, 1)}`);
    const goal = percentile(samples.permitted, 99);
    console.log(
      `\nGoal: B's p99 ≤ 50 ms while A invokes at the permitted rate: ${goal.toFixed(1)} ms (${goal <= 50 ? 'met' : 'NOT met'})`,
    );
  } finally {
    agent.destroy();
    receiver?.close();
    await bench.stop();
  }
}

runBench(main);
