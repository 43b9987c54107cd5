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
const fs = require('node:fs');
const autocannon = require('autocannon');
const { startStack, REPO_ROOT } = require('../infra/src/stack');
const { spawnService } = require('../infra/src/spawn-service');
const { createAdminClient } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { realisticCommands } = require('./realistic-commands');
const { createBenchDatabase } = require('./bench-database');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Counted on every request, never reached. */
const LIMITS = {
  RATE_LIMIT_GLOBAL_PER_SECOND: '1000000000',
  RATE_LIMIT_ROUTE_LIMIT: '1000000000',
  RATE_LIMIT_WEBHOOK_LIMIT: '0',
  RATE_LIMIT_WORK_PER_SECOND: '0',
  INVALID_REQUEST_LIMIT: '1000000000',
};

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(url, headers) {
  await run({ url, headers, connections: 50, duration: 3 }); // warm-up
  const result = await run({ url, headers, connections: 50, duration: SECONDS });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** An api-gateway against the stack's services with `env` on top; resolves with its origin once it listens. */
async function spawnGateway(stack, adminToken, name, env) {
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
      NATS_URL,
      LOG_LEVEL: 'warn',
      ...LIMITS,
      ...env,
    },
    onLine: () => undefined,
  });
  const ports = await gateway.listening;
  if (!ports?.http) throw new Error(`${name} exited: ${gateway.lastLines(20).join('\n')}`);
  return { gateway, url: `http://127.0.0.1:${ports.http}` };
}

async function main() {
  const database = await createBenchDatabase('limits');
  const adminToken = `bench-${Math.random().toString(36).slice(2)}-admin-token`;
  const stack = await startStack({
    databaseUrl: database.url,
    natsUrl: NATS_URL,
    adminToken,
    ports: 'free',
    logMode: 'quiet',
    env: { ...process.env, LOG_LEVEL: 'warn', ...LIMITS },
  });
  const gateways = [];
  try {
    const admin = createAdminClient(stack.apiUrl, adminToken);
    const world = await createDemoWorld(admin);
    const app = await admin('POST', '/admin/applications', { name: 'Bench App', owner_id: world.user.id });
    const authorization = `Bot ${app.body.bot_token}`;
    const commandsPath = `/api/v10/applications/${app.body.id}/commands`;
    const put = await fetch(`${stack.apiUrl}${commandsPath}`, {
      method: 'PUT',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify(realisticCommands(50)),
    });
    if (put.status !== 200) throw new Error(`seeding commands failed: ${put.status} ${await put.text()}`);

    const memory = await spawnGateway(stack, adminToken, 'api-gateway (memory)', {});
    gateways.push(memory.gateway);
    const redis = await spawnGateway(stack, adminToken, 'api-gateway (redis)', {
      REDIS_URL,
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
      results.memory.push(await measure(`${memory.url}${commandsPath}`, { Authorization: authorization }));
      results.redis.push(await measure(`${redis.url}${commandsPath}`, { Authorization: authorization }));
    }
    const median = (runs) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
    const m = median(results.memory);
    const r = median(results.redis);
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
    const outDir = path.join(__dirname, 'results');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, `limits-${Date.now()}.json`), JSON.stringify(report, null, 2));
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
    await stack.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
