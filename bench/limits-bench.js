#!/usr/bin/env node
'use strict';
/**
 * The rate limits counted in Redis against the same limits counted in memory, in the same
 * run (the machines are shared and noisy: only the ratio holds). Starts the whole stack on
 * a fresh database and one app holding 50 global commands of ~1 KB, then two more
 * api-gateway processes against its services, alike but for where they count: one in
 * memory (no REDIS_URL), one in Redis (REDIS_URL, a key prefix of this run's own). Both
 * count every request (global, per-route and invalid-request limits) at limits too high to
 * refuse any. Measures GET /applications/{id}/commands through each with autocannon,
 * concurrency 50, BENCH_SECONDS (default 10) after a 3 s warm-up, three times each,
 * alternating. Goal: Redis ≥ 0.9× memory.
 * Environment: DATABASE_URL (admin URL of PostgreSQL, default local), NATS_URL, REDIS_URL
 * (default redis://127.0.0.1:6379), BENCH_SECONDS.
 */
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { REPO_ROOT } = require('../infra/src/stack');
const { spawnService } = require('../infra/src/spawn-service');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv, serverUrls } = require('./lib/env');
const { startBenchStack, UNREACHED_LIMITS } = require('./lib/bench-stack');
const { createCommandsApp } = require('./lib/bench-world');
const { measureAfterWarmUp } = require('./lib/autocannon');
const { medianByRps } = require('./lib/stats');
const { writeResults, runBench } = require('./lib/report');

const SECONDS = numberFromEnv('BENCH_SECONDS', 10);

/**
 * An api-gateway against the bench stack's services (and its events stream) with `env` on
 * top; resolves with its origin once it listens.
 */
async function spawnGateway({ stack, adminToken, events }, name, env) {
  const gateway = spawnService({
    name,
    main: path.join(REPO_ROOT, 'services', 'api-gateway', 'dist', 'main.js'),
    cwd: path.join(REPO_ROOT, 'services', 'api-gateway'),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_TOKEN: adminToken,
      COMMAND_REGISTRY_GRPC_URL: stack.grpcTargets.registry,
      PERMISSIONS_GRPC_URL: stack.grpcTargets.permissions,
      OAUTH_GRPC_URL: stack.grpcTargets.oauth,
      DISPATCHER_GRPC_URL: stack.grpcTargets.dispatcher,
      INTERACTIONS_GRPC_URL: stack.grpcTargets.interactions,
      NATS_URL: serverUrls().natsUrl,
      EVENTS_STREAM: events.stream,
      EVENTS_SUBJECT_PREFIX: events.subjectPrefix,
      LOG_LEVEL: 'warn',
      ...UNREACHED_LIMITS,
      ...env,
    },
    onLine: () => undefined,
  });
  const ports = await gateway.listening;
  if (!ports?.http) throw new Error(`${name} exited: ${gateway.lastLines(20).join('\n')}`);
  return { gateway, url: `http://127.0.0.1:${ports.http}` };
}

async function main() {
  const bench = await startBenchStack('limits', { env: UNREACHED_LIMITS });
  const { stack } = bench;
  const gateways = [];
  try {
    const world = await createDemoWorld(bench.admin);
    const { authorization, commandsPath } = await createCommandsApp(stack.apiUrl, bench.admin, world);

    const memory = await spawnGateway(bench, 'api-gateway (memory)', {});
    gateways.push(memory.gateway);
    const redis = await spawnGateway(bench, 'api-gateway (redis)', {
      REDIS_URL: serverUrls().redisUrl,
      REDIS_KEY_PREFIX: `bench:${randomBytes(6).toString('hex')}:`,
    });
    gateways.push(redis.gateway);
    // Each answers, and counts where it should: the Redis one's headers come from Redis.
    for (const { url } of [memory, redis]) {
      const answer = await fetch(`${url}${commandsPath}`, { headers: { Authorization: authorization } });
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    }

    console.log(`GET commands (50 of ~1 KB), concurrency 50, ${SECONDS} s per run after a 3 s warm-up`);
    const results = { memory: [], redis: [] };
    for (let round = 0; round < 3; round++) {
      results.memory.push(
        await measureAfterWarmUp(`${memory.url}${commandsPath}`, { Authorization: authorization }, SECONDS),
      );
      results.redis.push(
        await measureAfterWarmUp(`${redis.url}${commandsPath}`, { Authorization: authorization }, SECONDS),
      );
    }
    const m = medianByRps(results.memory);
    const r = medianByRps(results.redis);
    const report = {
      date: new Date().toISOString(),
      seconds: SECONDS,
      memory: results.memory,
      redis: results.redis,
      throughput_ratio: +(r.rps / m.rps).toFixed(2),
    };
    console.log('limits counted in           req/s (each run)        median p50 ms p99 ms non-2xx');
    for (const [name, runs, med] of [
      ['memory (no REDIS_URL)', results.memory, m],
      ['Redis (REDIS_URL)', results.redis, r],
    ]) {
      console.log(
        `  ${name.padEnd(24)} ${runs
          .map((x) => String(x.rps).padStart(6))
          .join(
            ' ',
          )}   ${String(med.rps).padStart(6)} ${String(med.p50).padStart(6)} ${String(med.p99).padStart(6)} ${String(
          runs.reduce((sum, x) => sum + x.non2xx + x.errors, 0),
        ).padStart(7)}`,
      );
    }
    console.log(`  throughput ratio Redis/memory (medians): ${report.throughput_ratio}x (goal ≥ 0.9x)`);
    writeResults('limits', report);
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
    await bench.stop();
  }
}

runBench(main);
