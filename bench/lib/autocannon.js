'use strict';
/** autocannon in this process, as the throughput benches use it. */
const autocannon = require('autocannon');

/**
 * One autocannon run; resolves with its result.
 * @param {import('autocannon').Options} options
 * @param {{ track?: boolean }} [how]  track: autocannon's "Running …" lines on stderr (no tables, no progress bar)
 */
function runAutocannon(options, how = {}) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (how.track)
      autocannon.track(instance, {
        renderProgressBar: false,
        renderResultsTable: false,
        renderLatencyTable: false,
      });
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
 * @param {{ track?: boolean, extra?: object }} [how]
 */
async function measureAfterWarmUp(url, headers, seconds, how = {}) {
  const options = { url, headers, connections: 50, ...how.extra };
  await runAutocannon({ ...options, duration: 3 }, how);
  return summarizeRun(await runAutocannon({ ...options, duration: seconds }, how));
}

module.exports = { runAutocannon, summarizeRun, measureAfterWarmUp };
