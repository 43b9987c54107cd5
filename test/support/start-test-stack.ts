import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { createTestDatabase } from '@acs/testing';
import { startStack, type Stack } from '../../infra/src/stack';
import { findServices } from '../../infra/src/find-services';
import { createAdminClient, type AdminRequest } from '../../infra/src/admin-client';

/** A whole ACS for one test file: its own database, stream, socket directory and ports. */
export interface TestStack {
  /**
   * api-gateway's origin: the public API is under `${apiUrl}/api/v10`, the admin API under
   * `${apiUrl}/admin`. Restarting api-gateway may change it.
   */
  readonly apiUrl: string;
  adminToken: string;
  /** Calls the admin API with the admin token; resolves whatever the status. */
  admin: AdminRequest;
  /** The running services (pids, exit state, last lines); replicas are named `api-gateway#2`. */
  processes: Stack['processes'];
  /** Processes per service: 1, or ACS_TEST_REPLICAS / the `replicas` option. */
  replicas: number;
  /** Each api-gateway process's own origin, by replica (`[apiUrl]` unless replicated). */
  readonly replicaApiUrls: string[];
  /** The TCP ports the edges are bound to (`http`; `gateway`, the dispatcher's WebSocket), updated by `restart`. */
  ports: Stack['ports'];
  /** Each service's gRPC target (`unix:/tmp/acs-…/oauth.sock`), e.g. for another replica. */
  grpcTargets: Stack['grpcTargets'];
  /** Base URL of the stack's database (services add their search_path). */
  databaseUrl: string;
  /** The stack's own JetStream stream and subject prefix. */
  events: { stream: string; subjectPrefix: string };
  /** Starts a service again on the same socket (stopping it first if it runs); resolves once the stack is ready again. */
  restart: Stack['restart'];
  /** The last lines of every service, for a failure message. */
  recentLogs(count?: number): string;
  /** The directory of the stack's own blob store (messages' files), unless `BLOB_STORE_URL` was given. */
  blobDir: string;
  /** Stops the services and drops the database. */
  stop(): Promise<void>;
}

/**
 * Starts the stack the way `npm start` does, but on a fresh database, its own stream, gRPC
 * over Unix sockets in its own directory, edges on ports the OS chooses (port 0, reported
 * back by each service), a random admin token and no log output; a service that dies or
 * does not get ready in time makes this reject with its name and last lines.
 *
 * The database comes from createTestDatabase already migrated, a copy of a template the
 * first stack of a run migrated with `infra/bin/prisma.js migrate deploy` (what `npm start`
 * runs), so startStack does not migrate it again.
 */
export async function startTestStack(
  options: {
    env?: Record<string, string>;
    /** The NATS the services use (default the test NATS), e.g. a proxy in front of it. */
    natsUrl?: string;
    /** How long the services may take to get ready (default: the launcher's, minutes). */
    readyTimeoutMs?: number;
    /**
     * Processes per service, the edges behind one entry point (`npm start -- --replicas N`); default
     * ACS_TEST_REPLICAS, else 1. Above 1 the rate limits count in Redis (REDIS_URL, default
     * the test Redis on 127.0.0.1:6379).
     */
    replicas?: number;
  } = {},
): Promise<TestStack> {
  const replicas = options.replicas ?? Number(process.env.ACS_TEST_REPLICAS ?? 1);
  const database = await createTestDatabase(
    findServices(join(__dirname, '..', '..'))
      .filter((service) => service.hasPrisma)
      .map((service) => service.name),
  );
  const adminToken = randomBytes(24).toString('base64url');
  // Stacks share the machine's NATS: each gets its own stream and subjects.
  const suffix = randomBytes(4).toString('hex');
  const events = { stream: `ACS_EVENTS_T${suffix}`, subjectPrefix: `acs${suffix}` };
  // Each stack stores its messages' files in a directory of its own, shared by api-gateway and interactions.
  const blobDir = mkdtempSync(join(tmpdir(), 'acs-blobs-'));
  let stack: Stack;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      migrate: false,
      natsUrl: options.natsUrl ?? database.natsUrl,
      adminToken,
      events,
      ports: 'free',
      logMode: 'quiet',
      readyTimeoutMs: options.readyTimeoutMs,
      replicas,
      env: {
        ...(replicas > 1 ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {}),
        ...process.env,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        // Tests send bursts far above a bot's 50 requests a second, and many deliberate 401s and
        // 403s, all from one address; rate-limit tests set their own.
        RATE_LIMIT_GLOBAL_PER_SECOND: '100000',
        RATE_LIMIT_ROUTE_LIMIT: '100000',
        RATE_LIMIT_REACTIONS_PER_SECOND: '100000',
        RATE_LIMIT_WEBHOOK_LIMIT: '100000',
        RATE_LIMIT_WORK_PER_SECOND: '0',
        INVALID_REQUEST_LIMIT: '0',
        // Sweeps send many megabyte bodies; the tenant-isolation test sets its own.
        LARGE_BODY_BYTES_PER_SECOND: '1000000000',
        // A busy machine (CI runs two test files at once, each with a stack of seven
        // services) can take more than the production 10 s for a stack's first calls; the
        // peer-outage test sets its own.
        REQUEST_DEADLINE_MS: '30000',
        // Should REDIS_URL be set, stacks sharing one Redis count apart.
        REDIS_KEY_PREFIX: `acs${suffix}:`,
        BLOB_STORE_URL: `file://${blobDir}`,
        ...options.env,
      },
    });
  } catch (error) {
    await database.drop();
    rmSync(blobDir, { recursive: true, force: true });
    throw error;
  }
  return {
    get apiUrl() {
      return stack.apiUrl;
    },
    get replicaApiUrls() {
      return stack.replicaApiUrls;
    },
    adminToken,
    admin: (method, path, body) => createAdminClient(stack.apiUrl, adminToken)(method, path, body),
    processes: stack.processes,
    replicas,
    ports: stack.ports,
    grpcTargets: stack.grpcTargets,
    databaseUrl: database.url,
    events,
    restart: (name) => stack.restart(name),
    recentLogs: (count) => stack.recentLogs(count),
    blobDir,
    async stop() {
      await stack.stop();
      await database.drop();
      rmSync(blobDir, { recursive: true, force: true });
      await deleteStream(database.natsUrl, events.stream);
    },
  };
}

/** Removes a stopped stack's stream from the shared NATS (nothing to do when it was never created). */
async function deleteStream(natsUrl: string, stream: string): Promise<void> {
  const nats = await connect({ servers: natsUrl });
  try {
    const jsm = await nats.jetstreamManager();
    await jsm.streams.delete(stream).catch(() => undefined);
  } finally {
    await nats.close();
  }
}
