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
const { Pool } = require('pg');
const { adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { userAccessToken } = require('../infra/src/user-token');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { createApiClient } = require('./lib/api-client');
const { round, p50p99Ms } = require('./lib/stats');
const { saturate, timeSequential } = require('./lib/load');
const { writeResults, runBench } = require('./lib/report');

const SECONDS = numberFromEnv('BENCH_SECONDS', 10);
const CONCURRENCY = numberFromEnv('BENCH_CONCURRENCY', 16);
const READS = numberFromEnv('BENCH_READS', 300);
const MEMBERS = 1000;
const POSTERS = 8;
const REDIRECT = 'https://bench.example/callback';

async function main() {
  const bench = await startBenchStack('lobby', {
    env: {
      INVALID_REQUEST_LIMIT: '0',
      // The development limits (100 per 2 h) and the per-route window would cap the run itself.
      LOBBY_RATE_LIMIT: '0',
      RATE_LIMIT_ROUTE_LIMIT: '0',
      RATE_LIMIT_WORK_PER_SECOND: '0',
      RATE_LIMIT_GLOBAL_PER_SECOND: '0',
    },
  });
  const { stack, admin } = bench;
  const pool = new Pool({ connectionString: bench.databaseUrl, max: CONCURRENCY + 2 });
  try {
    const api = createApiClient(stack.apiUrl);
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
    const history = p50p99Ms(
      await timeSequential(READS, async () => {
        const answer = await api('GET', `/lobbies/${lobbyId}/messages?limit=200`, posters[0].token);
        if (answer.status !== 200 || answer.body.length !== 200) throw new Error(`history: ${answer.status}`);
      }),
    );

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
    const pgHistory = p50p99Ms(
      await timeSequential(READS, () =>
        pool.query('SELECT body FROM bench_message WHERE lobby_id = $1 ORDER BY id DESC LIMIT 200', [
          lobbyId,
        ]),
      ),
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
    writeResults('lobby', report);
  } finally {
    await pool.end();
    await bench.stop();
  }
}

runBench(main);
