'use strict';
/**
 * The environment every bench reads: the servers it uses and its numeric knobs. Read when
 * called, not on import, so that a bench decides when (at its start, as it always did).
 */

/**
 * A number from the environment, or `fallback` when the variable is unset.
 * @param {string} name  e.g. BENCH_SECONDS
 * @param {number} fallback
 */
function numberFromEnv(name, fallback) {
  return Number(process.env[name] ?? fallback);
}

/**
 * The shared servers of a bench run: PostgreSQL's admin URL (DATABASE_URL), NATS_URL and
 * REDIS_URL, each with the local default.
 * @returns {{ databaseUrl: string, natsUrl: string, redisUrl: string }}
 */
function serverUrls() {
  return {
    databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

module.exports = { numberFromEnv, serverUrls };
