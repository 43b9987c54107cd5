import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { TestStack } from './start-test-stack';

/** One more api-gateway process against a test stack's services: a replica. */
export interface GatewayReplica {
  /** Its origin, e.g. http://127.0.0.1:41234. */
  url: string;
  child: ChildProcess;
  /** SIGTERM; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Spawns api-gateway (its built `dist/main.js`) wired to the stack's services, events and
 * admin token, on a port of the OS's choosing (reported over IPC), with `env` on top;
 * resolves once its /readyz answers 200 (its backends already serve: it only waits for
 * its channels), rejects if it exits first or is not ready within 60 s.
 */
export async function spawnGateway(stack: TestStack, env: Record<string, string>): Promise<GatewayReplica> {
  const child = spawn(
    process.execPath,
    [path.join(__dirname, '..', '..', 'services', 'api-gateway', 'dist', 'main.js')],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_TOKEN: stack.adminToken,
        COMMAND_REGISTRY_GRPC_URL: stack.grpcTargets.registry,
        PERMISSIONS_GRPC_URL: stack.grpcTargets.permissions,
        OAUTH_GRPC_URL: stack.grpcTargets.oauth,
        DISPATCHER_GRPC_URL: stack.grpcTargets.dispatcher,
        INTERACTIONS_GRPC_URL: stack.grpcTargets.interactions,
        LOBBY_GRPC_URL: stack.grpcTargets.lobby,
        // The stack's own store: a replica serves the files the others stored.
        BLOB_STORE_URL: `file://${stack.blobDir}`,
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        EVENTS_STREAM: stack.events.stream,
        EVENTS_SUBJECT_PREFIX: stack.events.subjectPrefix,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = `http://127.0.0.1:${await reportedPort(child)}`;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const ready = await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return { url, child, stop };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the gateway replica listens but its /readyz did not answer 200 within 60 s');
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The HTTP port a service reports once it listens (service-kit's reportListening); rejects if it exits first. */
function reportedPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.on('message', (message: { type?: string; listeners?: { http?: number } }) => {
      if (message.type === 'acs.listening' && message.listeners?.http) resolve(message.listeners.http);
    });
    child.once('exit', (code, signal) => reject(new Error(`the gateway replica exited (${code ?? signal})`)));
  });
}
