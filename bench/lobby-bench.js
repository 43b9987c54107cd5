#!/usr/bin/env node
'use strict';
/**
 * Lobbies (issue 12): one lobby of 1,000 members (8 real users with Bearer tokens holding
 * `sdk.social_layer`, added through the bulk route; the other 992 inserted straight into
 * lobby.lobby_member, since only their number matters to the work a message does: its
 * event names every member).
 *   - posting: BENCH_CONCURRENCY `POST /lobbies/{id}/messages` in flight for BENCH_SECONDS
 *     (the 8 users in turn): messages posted per second;
 *   - history: BENCH_READS sequential `GET /lobbies/{id}/messages?limit=200`: p50 / p99.
 * Baseline, in the same run on the same PostgreSQL: plain `pg` INSERTs of the same JSON
 * into a table of its own at the same concurrency (inserts/s), and `SELECT … ORDER BY id
 * DESC LIMIT 200` of it (p50 / p99). Printed as ratios.
 * Environment: DATABASE_URL (admin URL of PostgreSQL), NATS_URL, BENCH_SECONDS (10),
 * BENCH_CONCURRENCY (16), BENCH_READS (300).
 */
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Client, Pool } = require('pg');
const { startStack } = require('../infra/src/stack');
const { createAdminClient, adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { userAccessToken } = require('../infra/src/user-token');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const READS = Number(process.env.BENCH_READS ?? 300);
const MEMBERS = 1000;
const POSTERS = 8;
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIRECT = 'https://bench.example/callback';

const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (n, digits = 1) => +n.toFixed(digits);

async function withAdminDb(run) {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Runs `job(i)` with `concurrency` in flight for `seconds`; counts successes and errors. */
async function saturate(concurrency, seconds, job) {
  const end = performance.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  let n = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        if (await job(n++)) ok += 1;
        else errors += 1;
      }
    }),
  );
  return { perSecond: Math.round(ok / ((performance.now() - started) / 1000)), ok, errors };
}

/** `count` sequential runs of `job`: p50 / p99 in ms. */
async function latencies(count, job) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await job();
    times.push(performance.now() - t);
  }
  return { p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)) };
}

async function main() {
  const suffix = randomBytes(4).toString('hex');
  const database = `acs_bench_lobby_${suffix}`;
  await withAdminDb((c) => c.query(`CREATE DATABASE ${database}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const adminToken = randomBytes(24).toString('base64url');
  const stack = await startStack({
    databaseUrl: url.toString(),
    natsUrl: NATS_URL,
    adminToken,
    ports: 'free',
    logMode: 'quiet',
    events: { stream: `ACS_EVENTS_B${suffix}`, subjectPrefix: `acsb${suffix}` },
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      INVALID_REQUEST_LIMIT: '0',
      // The development limits (100 per 2 h) and the per-route window would cap the run itself.
      LOBBY_RATE_LIMIT: '0',
      RATE_LIMIT_ROUTE_LIMIT: '0',
      RATE_LIMIT_WORK_PER_SECOND: '0',
      RATE_LIMIT_GLOBAL_PER_SECOND: '0',
    },
  });
  const pool = new Pool({ connectionString: url.toString(), max: CONCURRENCY + 2 });
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
    const app = world.application;
    await adminExpect(admin, 200, 'PATCH', `/admin/applications/${app.id}`, { redirect_uris: [REDIRECT] });
    const posters = [];
    for (let i = 0; i < POSTERS; i++) {
      const user = await adminExpect(admin, 201, 'POST', '/admin/users', { username: `poster${i}` });
      const token = await userAccessToken(stack.apiUrl, admin, {
        application: app,
        userId: user.id,
        scope: 'sdk.social_layer',
        redirectUri: REDIRECT,
      });
      posters.push({ id: user.id, token: `Bearer ${token}` });
    }
    const bot = `Bot ${app.botToken}`;
    const created = await api('POST', '/lobbies', bot, { idle_timeout_seconds: 604800 });
    const lobbyId = created.body.id;
    const bulk = await api(
      'POST',
      `/lobbies/${lobbyId}/members/bulk`,
      bot,
      posters.map((p) => ({ id: p.id })),
    );
    if (bulk.status !== 200) throw new Error(`bulk: ${bulk.status} ${JSON.stringify(bulk.body)}`);
    await pool.query(
      `INSERT INTO lobby.lobby_member (lobby_id, user_id, application_id)
       SELECT $1, 1900000000000000000 + n, $2 FROM generate_series(1, $3::int) AS n`,
      [lobbyId, app.id, MEMBERS - POSTERS],
    );
    const members = (await api('GET', `/lobbies/${lobbyId}`, bot)).body.members.length;

    // Warm up both paths.
    for (let i = 0; i < 50; i++)
      await api('POST', `/lobbies/${lobbyId}/messages`, posters[i % POSTERS].token, { content: `warm ${i}` });
    const posting = await saturate(CONCURRENCY, SECONDS, async (n) => {
      const answer = await api('POST', `/lobbies/${lobbyId}/messages`, posters[n % POSTERS].token, {
        content: `message ${n}`,
      });
      return answer.status === 201;
    });
    const history = await latencies(READS, async () => {
      const answer = await api('GET', `/lobbies/${lobbyId}/messages?limit=200`, posters[0].token);
      if (answer.status !== 200 || answer.body.length !== 200) throw new Error(`history: ${answer.status}`);
    });

    // Baseline: the same JSON into a plain table, the same reads.
    const sample = (await api('GET', `/lobbies/${lobbyId}/messages?limit=1`, posters[0].token)).body[0];
    await pool.query(
      'CREATE TABLE bench_message (id bigserial PRIMARY KEY, lobby_id bigint NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
    );
    await pool.query('CREATE INDEX ON bench_message (lobby_id, id DESC)');
    const insert = (n) =>
      pool
        .query('INSERT INTO bench_message (lobby_id, body) VALUES ($1, $2)', [
          lobbyId,
          JSON.stringify({ ...sample, content: `message ${n}` }),
        ])
        .then(
          () => true,
          () => false,
        );
    for (let i = 0; i < 50; i++) await insert(i);
    const pgInserts = await saturate(CONCURRENCY, SECONDS, insert);
    const pgHistory = await latencies(READS, () =>
      pool.query('SELECT body FROM bench_message WHERE lobby_id = $1 ORDER BY id DESC LIMIT 200', [lobbyId]),
    );

    const report = {
      at: new Date().toISOString(),
      members,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      posting,
      history,
      baseline: { inserts: pgInserts, history: pgHistory },
      ratios: {
        postedVsInserts: round(posting.perSecond / pgInserts.perSecond, 3),
        historyP99VsSelectP99: round(history.p99Ms / pgHistory.p99Ms, 1),
      },
    };
    console.log(`lobby bench: one lobby of ${members} members, ${CONCURRENCY} in flight for ${SECONDS} s`);
    console.log(
      `  POST messages   ${posting.perSecond}/s (${posting.errors} errors) | pg INSERT ${pgInserts.perSecond}/s` +
        ` → ratio ${report.ratios.postedVsInserts}`,
    );
    console.log(
      `  GET limit=200   p50 ${history.p50Ms} ms p99 ${history.p99Ms} ms | pg SELECT p50 ${pgHistory.p50Ms} ms` +
        ` p99 ${pgHistory.p99Ms} ms → p99 ratio ${report.ratios.historyP99VsSelectP99}`,
    );
    const dir = path.join(__dirname, 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `lobby-${Date.now()}.json`), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await pool.end();
    await stack.stop();
    await withAdminDb((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
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
