#!/usr/bin/env node
'use strict';
/**
 * AutoMod's cost on Create Message (issue 24, item 7). Two guilds of one stack: one with 6
 * enabled KEYWORD rules of 1,000 keywords each (whole words, `word*`, `*word`, `*word*`
 * mixed, 10 regex patterns each, an allow list, a BLOCK_MESSAGE and an alert action), the
 * other without rules. A member of each sends messages that match no rule (so each is
 * judged against every keyword and written), the two guilds' requests interleaved at
 * BENCH_RATE per second each for BENCH_SECONDS, then BENCH_CONCURRENCY in flight per guild.
 * Prints p50/p99 per guild and the ratio with rules / without (goal: p99 ≤ 1.5×), both
 * measured in the same run. Environment: DATABASE_URL (admin URL of PostgreSQL), NATS_URL,
 * BENCH_RATE (25), BENCH_SECONDS (10), BENCH_CONCURRENCY (4).
 */
const { adminExpect } = require('../infra/src/admin-client');
const { createDemoWorld } = require('../infra/src/demo-world');
const { numberFromEnv } = require('./lib/env');
const { startBenchStack } = require('./lib/bench-stack');
const { percentile } = require('./lib/stats');
const { paceOpenLoop, runClosedLoops } = require('./lib/load');
const { runBench } = require('./lib/report');

const RATE = numberFromEnv('BENCH_RATE', 25);
const SECONDS = numberFromEnv('BENCH_SECONDS', 10);
const CONCURRENCY = numberFromEnv('BENCH_CONCURRENCY', 4);

/** 1,000 keywords of rule `r`, in the four wildcard forms. */
function keywordsOf(r) {
  const forms = [(w) => w, (w) => `${w}*`, (w) => `*${w}`, (w) => `*${w}*`];
  return Array.from({ length: 1000 }, (_, i) => forms[i % 4](`zq${r}x${i.toString(36)}k`));
}

/** Text that matches no keyword: about 300 characters of ordinary words. */
const CONTENT =
  'Hello everyone, the meeting moved to Thursday afternoon. Please bring the quarterly ' +
  'numbers and the draft of the proposal; we will review the budget, the hiring plan and ' +
  'the roadmap for the next release. Coffee and snacks will be provided in the big room.';

async function main() {
  const bench = await startBenchStack('automod', {
    env: {
      INVALID_REQUEST_LIMIT: '0',
      RATE_LIMIT_GLOBAL_PER_SECOND: '0',
      RATE_LIMIT_ROUTE_LIMIT: '0',
    },
  });
  try {
    const apiUrl = bench.stack.apiUrl;
    const { admin } = bench;
    const guilds = {};
    for (const [name, withRules] of [
      ['rules', true],
      ['plain', false],
    ]) {
      const world = await createDemoWorld(admin, {
        username: `owner-${name}`,
        guildName: `G ${name}`,
        applicationName: `A ${name}`,
      });
      const member = await adminExpect(admin, 201, 'POST', '/admin/users', { username: `member-${name}` });
      await adminExpect(admin, 201, 'PUT', `/admin/guilds/${world.guild.id}/members/${member.id}`, {});
      const session = (await adminExpect(admin, 201, 'POST', `/admin/users/${member.id}/sessions`)).token;
      if (withRules) {
        const owner = (await adminExpect(admin, 201, 'POST', `/admin/users/${world.user.id}/sessions`)).token;
        for (let r = 0; r < 6; r += 1) {
          const response = await fetch(`${apiUrl}/api/v10/guilds/${world.guild.id}/auto-moderation/rules`, {
            method: 'POST',
            headers: { Authorization: owner, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              name: `rule ${r}`,
              event_type: 1,
              trigger_type: 1,
              enabled: true,
              trigger_metadata: {
                keyword_filter: keywordsOf(r),
                regex_patterns: Array.from({ length: 10 }, (_, i) => `zq${r}y${i}[0-9]+(ab|cd)*k`),
                allow_list: ['zqallowed'],
              },
              actions: [{ type: 1 }, { type: 2, metadata: { channel_id: world.channel.id } }],
            }),
          });
          if (response.status !== 200)
            throw new Error(`rule ${r}: ${response.status} ${await response.text()}`);
        }
      }
      guilds[name] = { channelId: world.channel.id, session };
    }

    const send = async (guild) => {
      const started = performance.now();
      const response = await fetch(`${apiUrl}/api/v10/channels/${guild.channelId}/messages`, {
        method: 'POST',
        headers: { Authorization: guild.session, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: CONTENT }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`create: ${response.status}`);
      return performance.now() - started;
    };
    // Warm-up: compile the rules, open the connections.
    for (let i = 0; i < 20; i += 1) await Promise.all([send(guilds.rules), send(guilds.plain)]);

    const paced = { rules: [], plain: [] };
    await paceOpenLoop(RATE, SECONDS, (i) =>
      Promise.all(
        (i % 2 === 0 ? ['rules', 'plain'] : ['plain', 'rules']).map((name) =>
          send(guilds[name]).then((ms) => paced[name].push(ms)),
        ),
      ),
    );

    // CONCURRENCY loops per guild, the two guilds' loops interleaved.
    const loaded = { rules: [], plain: [] };
    await runClosedLoops(CONCURRENCY * 2, SECONDS, async (_, loop) => {
      const name = loop % 2 === 0 ? 'rules' : 'plain';
      loaded[name].push(await send(guilds[name]));
    });

    const row = (phase, name, values) => ({
      phase,
      guild: name === 'rules' ? '6 KEYWORD rules × 1,000' : 'no rules',
      count: values.length,
      p50_ms: Number(percentile(values, 50).toFixed(1)),
      p99_ms: Number(percentile(values, 99).toFixed(1)),
    });
    const rows = [
      row(`paced ${RATE}/s each`, 'rules', paced.rules),
      row(`paced ${RATE}/s each`, 'plain', paced.plain),
      row(`${CONCURRENCY} in flight each`, 'rules', loaded.rules),
      row(`${CONCURRENCY} in flight each`, 'plain', loaded.plain),
    ];
    console.table(rows);
    const ratio = (a, b) => (percentile(a, 99) / percentile(b, 99)).toFixed(2);
    console.log(`p99 ratio with rules / without, paced: ${ratio(paced.rules, paced.plain)}× (goal ≤ 1.5×)`);
    console.log(
      `p99 ratio with rules / without, ${CONCURRENCY} in flight: ${ratio(loaded.rules, loaded.plain)}×`,
    );
    const throughput = (values) => (values.length / SECONDS).toFixed(0);
    console.log(
      `messages/s in flight: with rules ${throughput(loaded.rules)}, without ${throughput(loaded.plain)}`,
    );
  } finally {
    await bench.stop();
  }
}

runBench(main);
