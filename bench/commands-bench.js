#!/usr/bin/env node
'use strict';
/**
 * Command endpoints under load, against a baseline measured in the same run (the
 * machines are shared and noisy: only ratios hold). Starts the whole stack on a fresh
 * database, builds the demo world plus one app holding 50 global commands of ~1 KB,
 * then measures with autocannon:
 *   1. GET /applications/{id}/commands, stack vs baseline (one Express + pg process),
 *      concurrency 50, 10 s after a 3 s warm-up, twice each, alternating;
 *   2. the same at a fixed 50 requests/s (one bot's global limit): p50/p99;
 *   3. POST upserts/s (each a real change);
 *   4. latency of a 100-command bulk overwrite (each a real change).
 * Environment: DATABASE_URL (admin URL of PostgreSQL, default local), NATS_URL,
 * BENCH_SECONDS (default 10).
 */
const http = require('node:http');
const path = require('node:path');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { startBaselineProcess } = require('./lib/baseline-process');
const { createCommandsApp } = require('./lib/bench-world');
const { realisticCommands } = require('./lib/realistic-commands');
const { runAutocannon, summarizeRun, measureAfterWarmUp } = require('./lib/autocannon');
const { paceOpenLoop } = require('./lib/load');
const { writeResults, runBench } = require('./lib/report');

const SECONDS = numberFromEnv('BENCH_SECONDS', 10);

/** A 3 s warm-up then SECONDS at `url` with autocannon. */
const measure = (url, headers, extra = {}) => measureAfterWarmUp(url, headers, SECONDS, extra);

/**
 * 50 requests a second evenly spaced (one every 20 ms, whether or not the previous one
 * answered), for SECONDS after a 2 s warm-up: latency at a steady rate, no bursts.
 */
async function paced(url, headers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      http
        .get(url, { headers, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
        })
        .on('error', reject);
    });
  const runFor = async (seconds) => {
    const pending = [];
    await paceOpenLoop(50, seconds, async () => void pending.push(once()));
    return Promise.all(pending);
  };
  await runFor(2);
  const times = (await runFor(SECONDS)).sort((a, b) => a - b);
  agent.destroy();
  const at = (q) => +times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  return { requests: times.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

async function main() {
  const bench = await startBenchStack('commands', {
    // The load generator is one credential and one address far above a bot's 50 requests/s:
    // no limiting here.
    env: {
      RATE_LIMIT_GLOBAL_PER_SECOND: '0',
      RATE_LIMIT_ROUTE_LIMIT: '0',
      RATE_LIMIT_WORK_PER_SECOND: '0',
      INVALID_REQUEST_LIMIT: '0',
    },
  });
  const { stack, admin } = bench;
  let baseline;
  try {
    const world = await createDemoWorld(admin);
    const app = await createCommandsApp(stack.apiUrl, admin, world);
    const auth = { Authorization: app.authorization, 'Content-Type': 'application/json' };
    const commandsUrl = `${stack.apiUrl}${app.commandsPath}`;
    const listBody = await (await fetch(commandsUrl, { headers: auth })).text();
    const perCommand = Math.round(listBody.length / 50);

    baseline = await startBaselineProcess(path.join(__dirname, 'baseline-server.js'), bench.databaseUrl);
    const baselineUrl = `${baseline.origin}/api/v10/applications/${app.id}/commands`;

    console.log(`50 commands, ${perCommand} bytes each on the wire; ${SECONDS} s per run after 3 s warm-up`);
    const results = { baseline: [], stack: [] };
    for (let round = 0; round < 2; round++) {
      results.baseline.push(await measure(baselineUrl, {}));
      results.stack.push(await measure(commandsUrl, { Authorization: auth.Authorization }));
    }
    const best = (runs) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    // One connection, as @discordjs/rest sends one route's requests one after another.
    // (autocannon's overallRate over several connections fires each second's quota as a
    // burst, which measures queueing behind the burst rather than latency at 50/s.)
    const fixedBaseline = await measure(baselineUrl, {}, { connections: 1, overallRate: 50 });
    const fixedStack = await measure(
      commandsUrl,
      { Authorization: auth.Authorization },
      { connections: 1, overallRate: 50 },
    );
    const pacedBaseline = await paced(baselineUrl, {});
    const pacedStack = await paced(commandsUrl, { Authorization: auth.Authorization });

    let counter = 0;
    const upserts = summarizeRun(
      await runAutocannon({
        url: commandsUrl,
        method: 'POST',
        headers: auth,
        connections: 10,
        duration: SECONDS,
        requests: [
          {
            setupRequest: (request) => {
              const [command] = realisticCommands(1, `upsert ${counter++}`);
              return { ...request, body: JSON.stringify({ ...command, name: `command-${counter % 50}` }) };
            },
          },
        ],
      }),
    );

    const bulkUrl = `${commandsUrl.replace(app.id, world.application.id)}`;
    const bulkAuth = {
      Authorization: `Bot ${world.application.botToken}`,
      'Content-Type': 'application/json',
    };
    const bulkTimes = [];
    for (let i = 0; i < 12; i++) {
      const body = JSON.stringify(realisticCommands(100, `v${i % 2}`));
      const started = process.hrtime.bigint();
      const response = await fetch(bulkUrl, { method: 'PUT', headers: bulkAuth, body });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`bulk overwrite failed: ${response.status}`);
      if (i >= 2) bulkTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    bulkTimes.sort((a, b) => a - b);

    const b = best(results.baseline);
    const s = best(results.stack);
    const report = {
      date: new Date().toISOString(),
      seconds: SECONDS,
      list_concurrency_50: {
        baseline: results.baseline,
        stack: results.stack,
        throughput_ratio: +(s.rps / b.rps).toFixed(2),
      },
      list_fixed_50_rps: { baseline: fixedBaseline, stack: fixedStack },
      list_paced_50_rps: { baseline: pacedBaseline, stack: pacedStack },
      post_upserts: upserts,
      bulk_overwrite_100_ms: {
        p50: +bulkTimes[Math.floor(bulkTimes.length / 2)].toFixed(1),
        max: +bulkTimes[bulkTimes.length - 1].toFixed(1),
      },
    };
    console.log('');
    console.log('GET commands, concurrency 50      req/s    p50 ms   p99 ms');
    for (const [name, r] of [
      ['baseline (Express + pg)', b],
      ['stack (gateway→gRPC→registry)', s],
    ]) {
      console.log(
        `  ${name.padEnd(31)} ${String(r.rps).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)}`,
      );
    }
    console.log(
      `  throughput ratio stack/baseline: ${report.list_concurrency_50.throughput_ratio}x (goal ≥ 0.7x)`,
    );
    console.log('GET commands at 50 req/s, one connection (autocannon)   p50 ms   p99 ms');
    console.log(
      `  baseline                        ${String(fixedBaseline.p50).padStart(6)} ${String(fixedBaseline.p99).padStart(8)}`,
    );
    console.log(
      `  stack                           ${String(fixedStack.p50).padStart(6)} ${String(fixedStack.p99).padStart(8)}   (goal p99 < 25 ms)`,
    );
    console.log('GET commands, one request every 20 ms (open loop)       p50 ms   p99 ms');
    console.log(
      `  baseline                        ${String(pacedBaseline.p50).padStart(6)} ${String(pacedBaseline.p99).padStart(8)}`,
    );
    console.log(
      `  stack                           ${String(pacedStack.p50).padStart(6)} ${String(pacedStack.p99).padStart(8)}`,
    );
    console.log(
      `POST upserts (real changes), 10 connections: ${upserts.rps} req/s, p50 ${upserts.p50} ms, p99 ${upserts.p99} ms, non-2xx ${upserts.non2xx}`,
    );
    console.log(
      `Bulk overwrite of 100 commands: p50 ${report.bulk_overwrite_100_ms.p50} ms, max ${report.bulk_overwrite_100_ms.max} ms (goal < 150 ms)`,
    );
    writeResults('commands', report);
  } finally {
    await baseline?.stop();
    await bench.stop();
  }
}

runBench(main);
