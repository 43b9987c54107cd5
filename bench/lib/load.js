'use strict';
/**
 * How the benches send load: open loop at a fixed rate (a slow answer does not delay the
 * next send), closed loops back to back, and one request after another.
 */
const { sleep } = require('../../infra/src/net');

/**
 * Calls `fire(i)` every 1000/rate ms for `seconds` (open loop) and waits for every call;
 * a rejection of one rejects the whole (callers that count failures catch them).
 * @param {number} rate  calls per second
 * @param {number} seconds
 * @param {(i: number) => Promise<unknown>} fire
 * @returns {Promise<number>} how many calls it made
 */
async function paceOpenLoop(rate, seconds, fire) {
  const pending = [];
  const start = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(fire(i));
  }
  await Promise.all(pending);
  return pending.length;
}

/**
 * `job(i)` at `rate`/s for `seconds` (open loop), timed: a job that resolves false or
 * rejects is a failure.
 * @param {number} rate
 * @param {number} seconds
 * @param {(i: number) => Promise<unknown>} job
 * @returns {Promise<{ latencies: number[], failures: number }>} latencies of the successes in ms
 */
async function timePaced(rate, seconds, job) {
  const latencies = [];
  let failures = 0;
  await paceOpenLoop(rate, seconds, async (i) => {
    const started = performance.now();
    const ok = await job(i).catch(() => false);
    if (ok === false) failures += 1;
    else latencies.push(performance.now() - started);
  });
  return { latencies, failures };
}

/**
 * `concurrency` loops, each calling `work(n, loop)` as soon as its previous call returned,
 * until `seconds` have passed (`n` counts the calls of all loops, `loop` is the loop's index).
 * @param {number} concurrency
 * @param {number} seconds
 * @param {(n: number, loop: number) => Promise<unknown>} work
 * @returns {Promise<{ calls: number, elapsedMs: number }>}
 */
async function runClosedLoops(concurrency, seconds, work) {
  const started = performance.now();
  const end = started + seconds * 1000;
  let calls = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < end) await work(calls++, loop);
    }),
  );
  return { calls, elapsedMs: performance.now() - started };
}

/**
 * Saturation: `job(n)` with `concurrency` in flight for `seconds`; a job resolves true when it succeeded.
 * @param {number} concurrency
 * @param {number} seconds
 * @param {(n: number) => Promise<boolean>} job
 * @returns {Promise<{ perSecond: number, ok: number, errors: number }>} successes per second of the run
 */
async function saturate(concurrency, seconds, job) {
  let ok = 0;
  let errors = 0;
  const { elapsedMs } = await runClosedLoops(concurrency, seconds, async (n) => {
    if (await job(n)) ok += 1;
    else errors += 1;
  });
  return { perSecond: Math.round(ok / (elapsedMs / 1000)), ok, errors };
}

/**
 * `count` runs of `job`, one after another, timed (a job that throws ends the bench).
 * @param {number} count
 * @param {() => Promise<unknown>} job
 * @returns {Promise<number[]>} milliseconds each
 */
async function timeSequential(count, job) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await job();
    times.push(performance.now() - started);
  }
  return times;
}

module.exports = { paceOpenLoop, timePaced, runClosedLoops, saturate, timeSequential, sleep };
