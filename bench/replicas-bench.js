#!/usr/bin/env node
'use strict';
/**
 * Throughput with 2 replicas of every service against 1 (issue 15), for a read,
 * GET /applications/{id}/commands, and a write that invokes nothing, PATCH
 * /applications/{id}/commands/{command_id} (each a real change: a random description, the
 * update and its outbox event in command-registry's transaction). Starts two stacks, each
 * on a fresh database seeded alike (the demo world and one app holding 50 global commands
 * of ~1 KB), with the rate limits counted in Redis in both (REDIS_URL, a key prefix of each
 * stack's own) at limits too high to refuse any, so that the replica count is the only
 * difference:
 *   - "1 replica": `startStack({ replicas: 1 })`, autocannon straight at api-gateway;
 *   - "2 replicas, entry point": `startStack({ replicas: 2 })` (what `npm start -- --replicas 2`
 *     runs: two of every service, each backend's calls spread by round_robin over its two
 *     replicas), autocannon at the entry point, which proxies round-robin to the two api-gateways;
 *   - "2 replicas, direct": the same stack, autocannon's connections split over the two
 *     api-gateways' own ports (what a kernel-level balancer, e.g. a Kubernetes Service, does:
 *     no proxy process in the path).
 * autocannon runs as a process of its own (its CPU is measured apart from the entry point,
 * which lives in this process), concurrency 50, BENCH_SECONDS (default 10) after a 3 s
 * warm-up; the three configurations alternate, three rounds; medians of the three. The
 * writes go to 10 of the commands (connections spread over them, so that they do not all
 * queue on one row's lock), BENCH_WORKLOADS=read,write chooses the workloads.
 * For each run the CPU time of every process (load generator, entry point, api-gateways, the
 * other services, the stack's PostgreSQL backends, Redis) is read from /proc, to show where
 * the machine's cores went: on one machine, replicas share its cores with everything else.
 * Environment: DATABASE_URL (admin URL of PostgreSQL, default local), NATS_URL, REDIS_URL
 * (default redis://127.0.0.1:6379), BENCH_SECONDS.
 */
const { spawn } = require('node:child_process');
const os = require('node:os');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack, UNREACHED_LIMITS } = require('./lib/bench-stack');
const { connectAdminClient, postgresBackendsOf } = require('./lib/database');
const { createCommandsApp } = require('./lib/bench-world');
const { cpuMsOf, pidsNamed, snapshot, cpuBetween } = require('./lib/process-cpu');
const { medianByRps } = require('./lib/stats');
const { sleep } = require('./lib/load');
const { writeResults, runBench } = require('./lib/report');

const SECONDS = numberFromEnv('BENCH_SECONDS', 10);
const WORKLOADS = (process.env.BENCH_WORKLOADS ?? 'read,write').split(',');
/** The commands the writes edit: one URL each, autocannon's connections spread over them. */
const EDITED_COMMANDS = 10;
/** autocannon's arguments for the writes: `[<id>]` becomes a random id per request (-I). */
const WRITE_ARGS = [
  '-m',
  'PATCH',
  '-H',
  'Content-Type=application/json',
  '-b',
  '{"description":"Edited by the bench: [<id>]"}',
  '-I',
];
const CONNECTIONS = 50;
const AUTOCANNON = require.resolve('autocannon/autocannon.js');

/** A stack of `replicas` on a database of its own, seeded with the demo world and the bench app. */
async function startSeededStack(replicas) {
  const bench = await startBenchStack(`replicas${replicas}`, {
    replicas,
    redis: true,
    env: UNREACHED_LIMITS,
  });
  try {
    return { ...bench, ...(await seed(bench)) };
  } catch (error) {
    await bench.stop();
    throw error;
  }
}

/** The demo world and an app holding 50 global commands of ~1 KB; checks every api-gateway answers. */
async function seed({ stack, admin }) {
  const world = await createDemoWorld(admin);
  const { authorization, commandsPath, commandIds } = await createCommandsApp(stack.apiUrl, admin, world);
  // Every api-gateway answers (through the entry point, each in turn).
  for (const url of stack.replicaApiUrls) {
    const answer = await fetch(`${url}${commandsPath}`, { headers: { Authorization: authorization } });
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  }
  // Every api-gateway takes a write.
  for (const url of stack.replicaApiUrls) {
    const edit = await fetch(`${url}${commandsPath}/${commandIds[0]}`, {
      method: 'PATCH',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: `Edited through ${url}` }),
    });
    if (edit.status !== 200) throw new Error(`${url} answered a PATCH ${edit.status} ${await edit.text()}`);
  }
  return { authorization, commandsPath, commandIds };
}

/**
 * One autocannon process at `urls` (connections spread over them) for `seconds`; resolves
 * with its JSON result and the CPU each group of `groups` used while it ran (read from
 * /proc at its start and at its last poll, every 200 ms, before it exits).
 */
function runAutocannon(urls, authorization, seconds, groups, extraArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        AUTOCANNON,
        '-c',
        String(CONNECTIONS),
        '-d',
        String(seconds),
        '-j',
        '-H',
        `Authorization=${authorization}`,
        ...extraArgs,
        ...urls,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const withLoad = { ...groups, 'load generator': [child.pid] };
    const before = snapshot(withLoad);
    let last = before;
    const poll = setInterval(() => {
      if (cpuMsOf(child.pid) !== undefined) last = snapshot(withLoad);
    }, 200);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(poll);
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err.slice(-500)}`));
      try {
        resolve({ result: JSON.parse(out.trim().split('\n').pop()), cpu: cpuBetween(before, last) });
      } catch (error) {
        reject(new Error(`autocannon printed no JSON: ${out.slice(-300)} ${err.slice(-300)}`));
      }
    });
  });
}

async function main() {
  console.log(`${os.cpus().length} CPUs (${os.cpus()[0]?.model}); ${SECONDS} s per run after a 3 s warm-up`);
  const pg = await connectAdminClient();
  const stacks = [];
  try {
    const one = await startSeededStack(1);
    stacks.push(one);
    const two = await startSeededStack(2);
    stacks.push(two);
    const pids = (s, test) => s.stack.processes.filter((p) => test(p.name)).map((p) => p.pid ?? 0);
    const isGateway = (name) => name.startsWith('api-gateway');
    const redisPids = pidsNamed('redis-server');
    /** The CPU groups of a run against `s` (the other stack `idle` runs meanwhile, unloaded). */
    const groupsOf = (s, idle) => ({
      'this process (entry point)': [process.pid],
      'api-gateway(s)': pids(s, isGateway),
      'other ACS services': pids(s, (n) => !isGateway(n)),
      'PostgreSQL backends': [], // filled per run (postgresBackendsOf)
      'Redis (whole server)': redisPids,
      'the idle stack': pids(idle, () => true),
    });
    /** Where a workload sends its requests, over `origins` (one, or each api-gateway's). */
    const targets = {
      read: (s, origins) => origins.map((origin) => `${origin}${s.commandsPath}`),
      write: (s, origins) =>
        s.commandIds
          .slice(0, EDITED_COMMANDS)
          .map((id, i) => `${origins[i % origins.length]}${s.commandsPath}/${id}`),
    };
    const configurations = WORKLOADS.flatMap((workload) => [
      { workload, name: '1 replica', origins: () => [one.stack.apiUrl], s: one, idle: two },
      { workload, name: '2 replicas, entry point', origins: () => [two.stack.apiUrl], s: two, idle: one },
      { workload, name: '2 replicas, direct', origins: () => two.stack.replicaApiUrls, s: two, idle: one },
    ]);
    const keyOf = (c) => `${c.workload}: ${c.name}`;
    const runs = Object.fromEntries(configurations.map((c) => [keyOf(c), []]));
    for (let round = 0; round < 3; round++) {
      for (const c of configurations) {
        const urls = targets[c.workload](c.s, c.origins());
        const args = c.workload === 'write' ? WRITE_ARGS : [];
        await runAutocannon(urls, c.s.authorization, 3, {}, args); // warm-up
        const groups = groupsOf(c.s, c.idle);
        groups['PostgreSQL backends'] = await postgresBackendsOf(pg, c.s.databaseName);
        const { result, cpu } = await runAutocannon(urls, c.s.authorization, SECONDS, groups, args);
        const cores = Object.fromEntries(
          Object.entries(cpu.used).map(([name, ms]) => [name, +(ms / cpu.wallMs).toFixed(2)]),
        );
        runs[keyOf(c)].push({
          rps: Math.round(result.requests.average),
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          cores,
        });
        await sleep(1000);
      }
    }

    const medians = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, medianByRps(list)]));
    const report = {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      seconds: SECONDS,
      connections: CONNECTIONS,
      runs,
      ratios: {},
    };
    for (const workload of WORKLOADS) {
      const base = medians[`${workload}: 1 replica`].rps;
      console.log(
        workload === 'read'
          ? `\nGET /applications/{id}/commands (50 of ~1 KB), ${CONNECTIONS} connections, Redis limiter`
          : `\nPATCH /applications/{id}/commands/{id} (${EDITED_COMMANDS} commands, a new description each), ${CONNECTIONS} connections, Redis limiter`,
      );
      console.log(
        '  configuration               req/s (each run)       median  p50 ms p99 ms  ratio  non-2xx',
      );
      for (const c of configurations.filter((candidate) => candidate.workload === workload)) {
        const list = runs[keyOf(c)];
        const m = medians[keyOf(c)];
        console.log(
          `  ${c.name.padEnd(26)} ${list.map((r) => String(r.rps).padStart(6)).join(' ')}   ${String(m.rps).padStart(6)} ` +
            `${String(m.p50).padStart(6)} ${String(m.p99).padStart(6)}  ${(m.rps / base).toFixed(2).padStart(5)}x ` +
            `${String(list.reduce((sum, r) => sum + r.non2xx + r.errors, 0)).padStart(7)}`,
        );
      }
      console.log('\n  cores used during the median run, by process group');
      for (const c of configurations.filter((candidate) => candidate.workload === workload)) {
        const m = medians[keyOf(c)];
        const total = Object.values(m.cores).reduce((a, b) => a + b, 0);
        console.log(
          `  ${c.name.padEnd(26)} ${Object.entries(m.cores)
            .map(([group, used]) => `${group} ${used}`)
            .join(', ')}; total ${total.toFixed(2)}`,
        );
      }
      report.ratios[workload] = {
        entry_point: +(medians[`${workload}: 2 replicas, entry point`].rps / base).toFixed(2),
        direct: +(medians[`${workload}: 2 replicas, direct`].rps / base).toFixed(2),
      };
      console.log(
        `\n  ${workload}, 2 replicas / 1 replica (medians): ${report.ratios[workload].entry_point}x through the ` +
          `entry point, ${report.ratios[workload].direct}x direct`,
      );
    }
    writeResults('replicas', report);
  } finally {
    await pg.end();
    for (const s of stacks.reverse()) await s.stop();
  }
}

runBench(main);
