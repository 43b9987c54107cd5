'use strict';
/** autocannon in this process, as the throughput benches use it. */
const autocannon = require('autocannon');

/**
 * One autocannon run, quiet (no progress bar, no tables); resolves with its result.
 * @param {import('autocannon').Options} options
 */
function runAutocannon(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * The figures the benches keep of a run: requests/s (average), p50 and p99 in ms, non-2xx answers and errors.
 * @param {any} result  autocannon's result
 */
function summarizeRun(result) {
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * GETs `url` with 50 connections for 3 s (warm-up, not kept), then for `seconds`: the
 * second run's summary. `extra` overrides autocannon's options (e.g. connections, overallRate).
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} seconds
 * @param {object} [extra]
 */
async function measureAfterWarmUp(url, headers, seconds, extra = {}) {
  const options = { url, headers, connections: 50, ...extra };
  await runAutocannon({ ...options, duration: 3 });
  return summarizeRun(await runAutocannon({ ...options, duration: seconds }));
}

module.exports = { runAutocannon, summarizeRun, measureAfterWarmUp };
