'use strict';
/**
 * The one table of how the services are wired to each other when they run on one
 * machine: each service's port, snowflake worker id and the environment that points it
 * at its peers. Which services exist, and which need migrating, is found on disk
 * (services/*); a service folder with no row here is reported and not started.
 *
 * Each row's `env` receives the resolved ports (by port name) and returns the variables
 * that service reads beyond the ones every service shares (DATABASE_URL, NATS_URL,
 * LOG_LEVEL, SNOWFLAKE_*, OTEL_*).
 */

/** @typedef {'http' | 'registry' | 'permissions' | 'oauth' | 'lobby' | 'dispatcher' | 'gateway'} PortName */

/**
 * @typedef {object} ServiceWiring
 * @property {string} name        folder under services/, image, logger and OTEL name
 * @property {PortName} port      which entry of the ports map it listens on
 * @property {number} defaultPort
 * @property {Partial<Record<PortName, number>>} [extraPorts]  further ports it listens on, with their defaults
 * @property {'grpc' | 'http'} kind   grpc services answer grpc.health.v1; http ones /readyz
 * @property {boolean} edge       takes outside traffic: stopped first, so that it drains into live backends
 * @property {number} workerId    SNOWFLAKE_WORKER_ID, distinct per service
 * @property {(ports: Record<PortName, number>, options: { host: string, adminToken: string }) => Record<string, string>} env
 */

const grpcUrl = (port) => `127.0.0.1:${port}`;

/** @type {ServiceWiring[]} */
const SERVICE_WIRING = [
  {
    name: 'oauth',
    port: 'oauth',
    defaultPort: 50053,
    kind: 'grpc',
    edge: false,
    workerId: 3,
    env: (ports) => ({
      GRPC_ADDRESS: grpcUrl(ports.oauth),
      PERMISSIONS_GRPC_URL: grpcUrl(ports.permissions),
    }),
  },
  {
    name: 'permissions',
    port: 'permissions',
    defaultPort: 50052,
    kind: 'grpc',
    edge: false,
    workerId: 2,
    env: (ports) => ({
      GRPC_ADDRESS: grpcUrl(ports.permissions),
      COMMAND_REGISTRY_GRPC_URL: grpcUrl(ports.registry),
    }),
  },
  {
    name: 'command-registry',
    port: 'registry',
    defaultPort: 50051,
    kind: 'grpc',
    edge: false,
    workerId: 1,
    env: (ports) => ({
      GRPC_ADDRESS: grpcUrl(ports.registry),
      OAUTH_GRPC_URL: grpcUrl(ports.oauth),
    }),
  },
  {
    // Provisional until the lobby issue defines its configuration.
    name: 'lobby',
    port: 'lobby',
    defaultPort: 50054,
    kind: 'grpc',
    edge: false,
    workerId: 4,
    env: (ports) => ({
      GRPC_ADDRESS: grpcUrl(ports.lobby),
      OAUTH_GRPC_URL: grpcUrl(ports.oauth),
    }),
  },
  {
    name: 'dispatcher',
    port: 'dispatcher',
    defaultPort: 50055,
    // The WebSocket gateway bots connect to.
    extraPorts: { gateway: 8081 },
    kind: 'grpc',
    edge: true,
    workerId: 5,
    env: (ports, { host }) => ({
      GRPC_ADDRESS: grpcUrl(ports.dispatcher),
      GATEWAY_HOST: host,
      GATEWAY_PORT: String(ports.gateway),
      GATEWAY_PUBLIC_URL: `ws://127.0.0.1:${ports.gateway}`,
      OAUTH_GRPC_URL: grpcUrl(ports.oauth),
      PERMISSIONS_GRPC_URL: grpcUrl(ports.permissions),
      // Local development posts webhook events to receivers on this machine.
      WEBHOOK_ALLOWED_ADDRESSES: 'loopback',
    }),
  },
  {
    name: 'api-gateway',
    port: 'http',
    defaultPort: 8080,
    kind: 'http',
    edge: true,
    workerId: 0,
    env: (ports, { host, adminToken }) => ({
      PORT: String(ports.http),
      HOST: host,
      ADMIN_TOKEN: adminToken,
      COMMAND_REGISTRY_GRPC_URL: grpcUrl(ports.registry),
      PERMISSIONS_GRPC_URL: grpcUrl(ports.permissions),
      OAUTH_GRPC_URL: grpcUrl(ports.oauth),
      LOBBY_GRPC_URL: grpcUrl(ports.lobby),
      DISPATCHER_GRPC_URL: grpcUrl(ports.dispatcher),
    }),
  },
];

/** The row for a service, or undefined when it has none. */
function wiringOf(name) {
  return SERVICE_WIRING.find((row) => row.name === name);
}

module.exports = { SERVICE_WIRING, wiringOf };
