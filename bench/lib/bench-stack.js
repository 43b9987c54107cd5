'use strict';
/**
 * The whole stack for one bench run, on a database of its own and a JetStream stream of its
 * own (on the shared PostgreSQL and NATS), with the admin API's caller; `stop()` stops the
 * stack and removes the database and the stream.
 */
const { randomBytes } = require('node:crypto');
const { connect } = require('nats');
const { startStack } = require('../../infra/src/stack');
const { createAdminClient } = require('../../infra/src/admin-client');
const { createBenchDatabase } = require('./database');
const { serverUrls } = require('./env');

/**
 * Rate limits counted on every request and never reached: the limiter's cost without its refusals.
 */
const UNREACHED_LIMITS = {
  RATE_LIMIT_GLOBAL_PER_SECOND: '1000000000',
  RATE_LIMIT_ROUTE_LIMIT: '1000000000',
  RATE_LIMIT_WEBHOOK_LIMIT: '0',
  RATE_LIMIT_WORK_PER_SECOND: '0',
  INVALID_REQUEST_LIMIT: '1000000000',
};

/**
 * @typedef {object} BenchStack
 * @property {any} stack  infra/src/stack's running stack (apiUrl, ports, processes, replicaApiUrls…)
 * @property {import('../../infra/src/admin-client').AdminRequest} admin
 * @property {string} adminToken
 * @property {string} databaseUrl
 * @property {string} databaseName
 * @property {{ stream: string, subjectPrefix: string }} events
 * @property {() => Promise<void>} stop
 */

/**
 * Starts the stack for the bench `name` (the database is `acs_bench_<name>_<random>`).
 * The services get `env` over the bench's process environment and LOG_LEVEL=warn.
 * @param {string} name
 * @param {{ env?: Record<string, string>, replicas?: number, redis?: boolean }} [options]
 *   redis: count the rate limits in Redis (REDIS_URL) under a key prefix of this run's own
 * @returns {Promise<BenchStack>}
 */
async function startBenchStack(name, options = {}) {
  const { natsUrl, redisUrl } = serverUrls();
  const suffix = randomBytes(4).toString('hex');
  const events = { stream: `ACS_EVENTS_B${suffix}`, subjectPrefix: `acsb${suffix}` };
  const adminToken = randomBytes(24).toString('base64url');
  const database = await createBenchDatabase(name);
  let stack;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl,
      adminToken,
      ports: 'free',
      logMode: 'quiet',
      replicas: options.replicas,
      events,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        ...(options.redis ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `bench:${suffix}:` } : {}),
        ...options.env,
      },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const stop = async () => {
    await stack.stop();
    await database.drop();
    const nats = await connect({ servers: natsUrl });
    await (await nats.jetstreamManager()).streams.delete(events.stream).catch(() => undefined);
    await nats.close();
  };
  return {
    stack,
    admin: createAdminClient(stack.apiUrl, adminToken),
    adminToken,
    databaseUrl: database.url,
    databaseName: database.name,
    events,
    stop,
  };
}

module.exports = { startBenchStack, UNREACHED_LIMITS };
