'use strict';
/**
 * The one table of how the services are wired to each other when they run on one
 * machine: where each service listens, its snowflake worker id and the environment that
 * points it at its peers. Which services exist, and which need migrating, is found on disk
 * (services/*); a service folder with no row here is reported and not started.
 *
 * Internal gRPC servers listen on Unix domain sockets in the stack's own directory
 * (`unix:<dir>/<service>.sock`): their addresses are known before anything starts, so the
 * services (which call each other) can be given their peers' addresses at spawn time,
 * and no TCP port is chosen in advance. Only the edges listen on TCP (`tcp`: api-gateway's
 * HTTP, the dispatcher's WebSocket gateway), on a fixed port or on port 0; each service
 * reports the ports it is bound to (service-kit's `reportListening`).
 *
 * Each row's `env` receives the gRPC targets (by gRPC name), the TCP ports to bind (by
 * port name; 0 lets the OS choose) and the options, and returns the variables that service
 * reads beyond the ones every service shares (DATABASE_URL, NATS_URL, LOG_LEVEL,
 * SNOWFLAKE_*, OTEL_*).
 */

/** @typedef {'registry' | 'permissions' | 'oauth' | 'lobby' | 'dispatcher' | 'interactions'} GrpcName */
/** @typedef {'http' | 'gateway'} PortName */

/**
 * @typedef {object} WiringContext
 * @property {Record<GrpcName, string>} grpc  gRPC targets, e.g. `unix:/tmp/acs-x/oauth.sock`
 * @property {Record<PortName, number>} ports  TCP ports to bind; 0 = any
 * @property {string} host     interface the edges listen on
 * @property {string} adminToken
 * @property {string} [redisUrl]  REDIS_URL of the base environment, when set: where api-gateway's
 *   replicas count the rate limits together
 */

/**
 * @typedef {object} ServiceWiring
 * @property {string} name        folder under services/, image, logger and OTEL name
 * @property {GrpcName} [grpc]    the name of its gRPC server among the targets
 * @property {Partial<Record<PortName, number>>} [tcp]  its TCP listeners with their default
 *   ports; each is reported under the same name
 * @property {'grpc' | 'http'} kind   grpc services answer grpc.health.v1; http ones /readyz
 * @property {boolean} edge       takes outside traffic: stopped first, so that it drains into live backends
 * @property {number} workerId    SNOWFLAKE_WORKER_ID, distinct per service
 * @property {(context: WiringContext) => Record<string, string>} env
 */

/** @type {ServiceWiring[]} */
const SERVICE_WIRING = [
  {
    name: 'oauth',
    grpc: 'oauth',
    kind: 'grpc',
    edge: false,
    workerId: 3,
    env: ({ grpc }) => ({
      GRPC_ADDRESS: grpc.oauth,
      PERMISSIONS_GRPC_URL: grpc.permissions,
      // Local development and the tests run their own OpenID issuers on this machine.
      OIDC_ALLOW_LOOPBACK_ISSUERS: 'true',
    }),
  },
  {
    name: 'permissions',
    grpc: 'permissions',
    kind: 'grpc',
    edge: false,
    workerId: 2,
    // A leaf: it calls no other service.
    env: ({ grpc }) => ({
      GRPC_ADDRESS: grpc.permissions,
    }),
  },
  {
    name: 'command-registry',
    grpc: 'registry',
    kind: 'grpc',
    edge: false,
    workerId: 1,
    env: ({ grpc }) => ({
      GRPC_ADDRESS: grpc.registry,
      OAUTH_GRPC_URL: grpc.oauth,
    }),
  },
  {
    name: 'interactions',
    grpc: 'interactions',
    kind: 'grpc',
    edge: false,
    workerId: 6,
    env: ({ grpc }) => ({
      GRPC_ADDRESS: grpc.interactions,
      COMMAND_REGISTRY_GRPC_URL: grpc.registry,
      PERMISSIONS_GRPC_URL: grpc.permissions,
      OAUTH_GRPC_URL: grpc.oauth,
      // Local development delivers interactions to endpoints on this machine.
      WEBHOOK_ALLOWED_ADDRESSES: 'loopback',
    }),
  },
  {
    name: 'lobby',
    grpc: 'lobby',
    kind: 'grpc',
    edge: false,
    workerId: 4,
    env: ({ grpc }) => ({
      GRPC_ADDRESS: grpc.lobby,
      // Members and authors are users; the bot user is the application's.
      OAUTH_GRPC_URL: grpc.oauth,
      // Channel linking: the channel, and whether the caller may manage it.
      PERMISSIONS_GRPC_URL: grpc.permissions,
    }),
  },
  {
    name: 'dispatcher',
    grpc: 'dispatcher',
    // The WebSocket gateway bots connect to; it advertises the port it is bound to.
    tcp: { gateway: 8081 },
    kind: 'grpc',
    edge: true,
    workerId: 5,
    env: ({ grpc, ports, host }) => ({
      GRPC_ADDRESS: grpc.dispatcher,
      GATEWAY_HOST: host,
      GATEWAY_PORT: String(ports.gateway),
      OAUTH_GRPC_URL: grpc.oauth,
      PERMISSIONS_GRPC_URL: grpc.permissions,
      // Local development posts webhook events to receivers on this machine.
      WEBHOOK_ALLOWED_ADDRESSES: 'loopback',
    }),
  },
  {
    name: 'api-gateway',
    tcp: { http: 8080 },
    kind: 'http',
    edge: true,
    workerId: 0,
    env: ({ grpc, ports, host, adminToken, redisUrl }) => ({
      PORT: String(ports.http),
      HOST: host,
      ADMIN_TOKEN: adminToken,
      COMMAND_REGISTRY_GRPC_URL: grpc.registry,
      PERMISSIONS_GRPC_URL: grpc.permissions,
      OAUTH_GRPC_URL: grpc.oauth,
      LOBBY_GRPC_URL: grpc.lobby,
      DISPATCHER_GRPC_URL: grpc.dispatcher,
      INTERACTIONS_GRPC_URL: grpc.interactions,
      // The rate limits count in Redis when one is given, else in the process's memory.
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    }),
  },
];

/** The row for a service, or undefined when it has none. */
function wiringOf(name) {
  return SERVICE_WIRING.find((row) => row.name === name);
}

module.exports = { SERVICE_WIRING, wiringOf };
