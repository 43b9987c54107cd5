import { Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createDemoWorld, startTestStack, type DemoWorld, type TestStack } from './support';

/**
 * One tenant's hostile bodies must not slow another tenant down. Tenant A sends commands
 * whose `default_member_permissions` is a megabyte of digits (once ~120 ms of BigInt work
 * each on the registry's one event loop), 15 at a time, again and again; tenant B lists
 * its commands meanwhile: every one of B's requests is answered, every hostile body refused.
 * B's p99 with and without the attack, in alternating rounds, is printed; the bound on it
 * (issue 28, item 7: at most 50 ms above its own baseline) is a benchmark's to measure, not
 * a test's to assert on a machine whose load it does not control.
 */

let stack: TestStack;
let attacker: DemoWorld;
let victim: DemoWorld;

/** One keep-alive connection per concurrent request: neither tenant waits for a socket. */
const agent = new Agent({ keepAlive: true, maxSockets: 32 });

beforeAll(async () => {
  // The production default: one address's large bodies are paced (the test stack lifts it).
  stack = await startTestStack({ env: { LARGE_BODY_BYTES_PER_SECOND: String(4 * 1024 * 1024) } });
  attacker = await createDemoWorld(stack, {
    username: 'attacker',
    guildName: 'Guild A',
    applicationName: 'Attacker',
  });
  victim = await createDemoWorld(stack, {
    username: 'victim',
    guildName: 'Guild B',
    applicationName: 'Victim',
  });
  for (const name of ['alpha', 'beta', 'gamma']) {
    const answer = await send(
      'POST',
      victim,
      '/commands',
      JSON.stringify({ name, description: `Does ${name}` }),
    );
    expect(answer.status).toBe(201);
  }
});

afterAll(async () => {
  agent.destroy();
  await stack?.stop();
});

/** A request to one of a tenant's command routes; resolves with the status once the body is read. */
function send(
  method: string,
  tenant: DemoWorld,
  path: string,
  body?: Buffer | string,
): Promise<{ status: number }> {
  const url = new URL(`${stack.apiUrl}/api/v10/applications/${tenant.application.id}${path}`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          Authorization: `Bot ${tenant.application.botToken}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** B's plain GET, timed, `count` times in a row (milliseconds). */
async function timeVictim(count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await send('GET', victim, '/commands');
    times.push(performance.now() - started);
    expect(answer.status).toBe(200);
  }
  return times;
}

/**
 * A's attack, in a worker thread of its own (as another machine would be, so that its I/O
 * does not delay the timing of B's requests on this thread): `concurrency` loops, each
 * sending the hostile body again as soon as it is answered.
 */
const FLOOD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Agent, request } = require('node:http');
const { url, token, body, concurrency } = workerData;
const payload = Buffer.from(body);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const statuses = {};
let running = true;
function send() {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { Authorization: 'Bot ' + token, 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => { statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1; resolve(); });
    });
    req.on('error', () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
    req.end(payload);
  });
}
const loops = Array.from({ length: concurrency }, async () => { while (running) await send(); });
parentPort.on('message', async () => { running = false; await Promise.all(loops); agent.destroy(); parentPort.postMessage(statuses); });
`;

function startAttack(body: string, concurrency: number): { stop: () => Promise<Record<string, number>> } {
  const worker = new Worker(FLOOD, {
    eval: true,
    workerData: {
      url: `${stack.apiUrl}/api/v10/applications/${attacker.application.id}/commands`,
      token: attacker.application.botToken,
      body,
      concurrency,
    },
  });
  return {
    stop: async () => {
      const statuses = new Promise<Record<string, number>>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const answer = await statuses;
      await worker.terminate();
      return answer;
    },
  };
}

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

it("answers another tenant's GETs while one sends megabyte numbers, and refuses every hostile body", async () => {
  const body = JSON.stringify({
    name: 'stall',
    description: 'Stalls',
    default_member_permissions: '9'.repeat(1_000_000),
  });
  // Warm both paths (JIT, connections) before anything is timed.
  await timeVictim(20);
  const warm = startAttack(body, 15);
  await timeVictim(5);
  await warm.stop();

  const baseline: number[] = [];
  const attacked: number[] = [];
  const statuses: Record<string, number> = {};
  for (let round = 0; round < 2; round++) {
    baseline.push(...(await timeVictim(50)));
    const attack = startAttack(body, 15);
    attacked.push(...(await timeVictim(50)));
    for (const [status, count] of Object.entries(await attack.stop())) {
      statuses[status] = (statuses[status] ?? 0) + count;
    }
  }

  // Every hostile body was refused: 400 at its field, or 429 had its client's backlog of
  // large bodies grown past the wait allowed (the 15 of each round are all answered); every
  // one of the victim's GETs was answered 200 meanwhile (timeVictim checks each).
  expect(Object.keys(statuses).filter((status) => status !== '400' && status !== '429')).toEqual([]);
  expect((statuses['400'] ?? 0) + (statuses['429'] ?? 0)).toBeGreaterThanOrEqual(2 * 15);
  // The latencies are reported, not asserted: a test's timing depends on how busy the
  // machine is (performance is measured in bench/, against a baseline of the same run).
  process.stdout.write(
    `tenant isolation: victim GET p99 ${Math.round(p99(baseline))} ms alone, ` +
      `${Math.round(p99(attacked))} ms under the attack\n`,
  );
});
