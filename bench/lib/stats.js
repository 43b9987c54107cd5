'use strict';
/** The arithmetic of the benches' figures: percentiles, rounding, medians. */

/**
 * The nearest-rank percentile `p` (0–100) of `values`; NaN when there are none.
 * @param {number[]} values
 * @param {number} p
 */
function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** `n` rounded to `digits` decimals, as a number. */
const round = (n, digits = 1) => +n.toFixed(digits);

/**
 * p50 and p99 of `times` (ms), to a tenth of a millisecond.
 * @param {number[]} times
 */
function p50p99Ms(times) {
  return { p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)) };
}

/**
 * The median run by requests per second (the middle one of an odd count; the upper middle of an even one).
 * @template {{ rps: number }} R
 * @param {R[]} runs
 * @returns {R}
 */
function medianByRps(runs) {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
}

module.exports = { percentile, round, p50p99Ms, medianByRps };
