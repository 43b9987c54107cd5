import * as fs from 'node:fs';
import * as net from 'node:net';

/** Where the test servers are: admin URL of PostgreSQL (any database) and NATS URL. */
export interface TestServers {
  postgresUrl: string;
  natsUrl: string;
}

let servers: Promise<TestServers> | undefined;

/**
 * Finds PostgreSQL and NATS the way users' machines offer them: DATABASE_URL / NATS_URL
 * when set; else the local defaults when they answer; else containers started with
 * testcontainers when a Docker engine answers. Resolved once per test process.
 */
export function findTestServers(): Promise<TestServers> {
  servers ??= resolveServers();
  return servers;
}

async function resolveServers(): Promise<TestServers> {
  let postgresUrl = process.env.DATABASE_URL;
  let natsUrl = process.env.NATS_URL;
  if (!postgresUrl && (await answers('127.0.0.1', 5432)))
    postgresUrl = 'postgresql://postgres@127.0.0.1:5432/postgres';
  if (!natsUrl && (await answers('127.0.0.1', 4222))) natsUrl = 'nats://127.0.0.1:4222';
  if ((!postgresUrl || !natsUrl) && hasDocker()) {
    if (!postgresUrl) {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:16-alpine').start();
      postgresUrl = container.getConnectionUri();
    }
    if (!natsUrl) {
      const { GenericContainer } = await import('testcontainers');
      const container = await new GenericContainer('nats:2.10')
        .withCommand(['-js'])
        .withExposedPorts(4222)
        .start();
      natsUrl = `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
    }
  }
  if (!postgresUrl || !natsUrl) {
    throw new Error(
      'Tests need PostgreSQL and NATS with JetStream: set DATABASE_URL and NATS_URL, run them on ' +
        '127.0.0.1:5432 and 127.0.0.1:4222, or make a Docker engine available for testcontainers.',
    );
  }
  return { postgresUrl, natsUrl };
}

function hasDocker(): boolean {
  return Boolean(process.env.DOCKER_HOST) || fs.existsSync('/var/run/docker.sock');
}

// A server that is not there refuses at once; the timeout only bounds one that is too busy
// to accept quickly (a loaded CI machine), so it is generous.
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
