#!/usr/bin/env node
'use strict';
/**
 * Channel messages (issue 24), against a direct Express + `pg` baseline measured in the same
 * run on the same PostgreSQL (bench/messages-baseline-server.js, its own process):
 *   - paced: a bot's `POST /channels/{id}/messages` at BENCH_RATE (50) per second in one
 *     channel for BENCH_SECONDS: p50 / p99;
 *   - saturation: BENCH_CONCURRENCY in flight across 4 channels for BENCH_SECONDS: messages/s;
 *   - history: BENCH_READS sequential `GET /channels/{id}/messages?limit=100` in a channel of
 *     BENCH_HISTORY (100,000) messages, seeded by SQL straight into interactions.message (and
 *     the baseline's table): p50 / p99.
 * Rate limits are off (the per-channel bucket would cap the saturation run itself). Printed as
 * ratios ACS / baseline; the report is written to bench/results/messages-<time>.json.
 * Environment: DATABASE_URL (admin URL of PostgreSQL), NATS_URL, BENCH_SECONDS (5),
 * BENCH_RATE (50), BENCH_CONCURRENCY (16), BENCH_READS (200), BENCH_HISTORY (100000).
 */
const path = require('node:path');
const { Pool } = require('pg');
const { adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { startBaselineProcess } = require('./lib/baseline-process');
const { round, p50p99Ms } = require('./lib/stats');
const { timePaced, saturate, timeSequential } = require('./lib/load');
const { writeResults, runBench } = require('./lib/report');

const SECONDS = numberFromEnv('BENCH_SECONDS', 5);
const RATE = numberFromEnv('BENCH_RATE', 50);
const CONCURRENCY = numberFromEnv('BENCH_CONCURRENCY', 16);
const READS = numberFromEnv('BENCH_READS', 200);
const HISTORY = numberFromEnv('BENCH_HISTORY', 100_000);

/** `job(i)` at `rate`/s for `seconds` (open loop): p50 / p99 of the successes, failures counted. */
async function paced(rate, seconds, job) {
  const { latencies, failures } = await timePaced(rate, seconds, job);
  return { ...p50p99Ms(latencies), errors: failures };
}

/** `count` sequential runs of `job` (each must succeed): p50 / p99 in ms. */
async function latencies(count, job) {
  return p50p99Ms(
    await timeSequential(count, async () => {
      if (!(await job())) throw new Error('a history read failed');
    }),
  );
}

async function main() {
  const bench = await startBenchStack('messages', {
    env: {
      INVALID_REQUEST_LIMIT: '0',
      RATE_LIMIT_ROUTE_LIMIT: '0',
      RATE_LIMIT_GLOBAL_PER_SECOND: '0',
      // A stack's first calls on a shared, busy machine can take past the 10 s deadline.
      REQUEST_DEADLINE_MS: '120000',
    },
  });
  const { stack, admin } = bench;
  const pool = new Pool({ connectionString: bench.databaseUrl, max: 4 });
  let baseline;
  try {
    await pool.query(
      'CREATE TABLE public.bench_message (id bigserial PRIMARY KEY, channel_id bigint NOT NULL, body jsonb NOT NULL)',
    );
    await pool.query('CREATE INDEX ON public.bench_message (channel_id, id)');
    baseline = await startBaselineProcess(
      path.join(__dirname, 'messages-baseline-server.js'),
      bench.databaseUrl,
    );
    const world = await createDemoWorld(admin);
    const bot = `Bot ${world.application.botToken}`;
    const channels = [world.channel.id];
    for (let i = 0; i < 3; i++) {
      const channel = await adminExpect(admin, 201, 'POST', `/admin/guilds/${world.guild.id}/channels`, {
        name: `bench-${i}`,
        type: 0,
      });
      channels.push(channel.id);
    }
    const body = (i) => JSON.stringify({ content: `bench message ${i} with a few words in it` });
    const acsSend = (channelId) => async (i) => {
      const response = await fetch(`${stack.apiUrl}/api/v10/channels/${channelId}/messages`, {
        method: 'POST',
        headers: { Authorization: bot, 'Content-Type': 'application/json' },
        body: body(i),
      });
      await response.arrayBuffer();
      return response.status === 200;
    };
    const baseSend = (channelId) => async (i) => {
      const response = await fetch(`${baseline.origin}/channels/${channelId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: body(i),
      });
      await response.arrayBuffer();
      return response.status === 200;
    };

    // Warm both (connections, JIT) before measuring.
    await saturate(4, 1, (i) => acsSend(channels[i % 4])(i));
    await saturate(4, 1, (i) => baseSend(channels[i % 4])(i));

    const pacedAcs = await paced(RATE, SECONDS, acsSend(channels[0]));
    const pacedBase = await paced(RATE, SECONDS, baseSend(channels[0]));
    const saturatedAcs = await saturate(CONCURRENCY, SECONDS, (i) => acsSend(channels[i % 4])(i));
    const saturatedBase = await saturate(CONCURRENCY, SECONDS, (i) => baseSend(channels[i % 4])(i));

    // A channel of HISTORY messages: copies of one real message under older ids, by SQL.
    const history = await adminExpect(admin, 201, 'POST', `/admin/guilds/${world.guild.id}/channels`, {
      name: 'history',
      type: 0,
    });
    const template = await (
      await fetch(`${stack.apiUrl}/api/v10/channels/${history.id}/messages`, {
        method: 'POST',
        headers: { Authorization: bot, 'Content-Type': 'application/json' },
        body: body('template'),
      })
    ).json();
    await pool.query(
      `INSERT INTO interactions.message (id, application_id, channel_id, guild_id, is_original, flags, body,
                                         created_at, author_id)
       SELECT $1::bigint - 1000000000 + g, $2, $3, $4, false, 0,
              jsonb_set(jsonb_set($5::jsonb, '{id}', to_jsonb(($1::bigint - 1000000000 + g)::text)),
                        '{content}', to_jsonb('history message ' || g)),
              now(), $2
         FROM generate_series(1, $6::int) AS g`,
      [template.id, world.application.id, history.id, world.guild.id, JSON.stringify(template), HISTORY],
    );
    await pool.query(
      `INSERT INTO public.bench_message (channel_id, body)
       SELECT $1, jsonb_set($2::jsonb, '{content}', to_jsonb('history message ' || g))
         FROM generate_series(1, $3::int) AS g`,
      [history.id, JSON.stringify(template), HISTORY],
    );
    await pool.query('ANALYZE interactions.message');
    await pool.query('ANALYZE public.bench_message');
    const read = (url, headers) => async () => {
      const response = await fetch(url, { headers });
      const page = await response.json();
      return response.status === 200 && page.length === 100;
    };
    const readAcs = read(`${stack.apiUrl}/api/v10/channels/${history.id}/messages?limit=100`, {
      Authorization: bot,
    });
    const readBase = read(`${baseline.origin}/channels/${history.id}/messages?limit=100`, {});
    await latencies(20, readAcs);
    await latencies(20, readBase);
    const historyAcs = await latencies(READS, readAcs);
    const historyBase = await latencies(READS, readBase);

    const report = {
      at: new Date().toISOString(),
      seconds: SECONDS,
      rate: RATE,
      concurrency: CONCURRENCY,
      historyMessages: HISTORY,
      create: { paced: pacedAcs, saturated: saturatedAcs },
      history: historyAcs,
      baseline: { create: { paced: pacedBase, saturated: saturatedBase }, history: historyBase },
      ratios: {
        pacedP50: round(pacedAcs.p50Ms / pacedBase.p50Ms, 1),
        pacedP99: round(pacedAcs.p99Ms / pacedBase.p99Ms, 1),
        saturation: round(saturatedAcs.perSecond / saturatedBase.perSecond, 3),
        historyP99: round(historyAcs.p99Ms / historyBase.p99Ms, 1),
      },
    };
    console.log(`messages bench: ${SECONDS} s per phase, ${RATE}/s paced, ${CONCURRENCY} in flight`);
    console.log(
      `  create @${RATE}/s   p50 ${pacedAcs.p50Ms} ms p99 ${pacedAcs.p99Ms} ms (${pacedAcs.errors} errors)` +
        ` | Express+pg p50 ${pacedBase.p50Ms} ms p99 ${pacedBase.p99Ms} ms` +
        ` → ratios p50 ${report.ratios.pacedP50} p99 ${report.ratios.pacedP99}`,
    );
    console.log(
      `  create saturated ${saturatedAcs.perSecond}/s (${saturatedAcs.errors} errors)` +
        ` | Express+pg ${saturatedBase.perSecond}/s → ratio ${report.ratios.saturation}`,
    );
    console.log(
      `  history limit=100 of ${HISTORY}  p50 ${historyAcs.p50Ms} ms p99 ${historyAcs.p99Ms} ms` +
        ` | Express+pg p50 ${historyBase.p50Ms} ms p99 ${historyBase.p99Ms} ms → p99 ratio ${report.ratios.historyP99}`,
    );
    writeResults('messages', report);
  } finally {
    await baseline?.stop();
    await pool.end();
    await bench.stop();
  }
}

runBench(main);
