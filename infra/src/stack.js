'use strict';
/**
 * Runs the whole ACS stack on one machine: migrates every service that owns a schema,
 * starts each service as its own process wired to the others (service-wiring.js), waits
 * until each reports where it listens and then until api-gateway's /readyz says every
 * backend is serving. Used by `npm start` (infra/bin/start.js), the end-to-end tests
 * (test/support) and the benchmark. PostgreSQL and NATS are the caller's business: pass
 * their URLs.
 *
 * No port is picked in advance (a port found free and released can be taken by another
 * process before the service binds it): internal gRPC goes over Unix domain sockets in a
 * directory of the stack's own, and the edges bind their fixed port, or port 0 with
 * `ports: 'free'`, and report the port they got. With replicas, each backend's replicas
 * bind port 0 on 127.0.0.1 and report it; their callers, started after them, get one
 * `ipv4:` target listing every replica (grpc-js balances it with round_robin).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { findServices } = require('./find-services');
const { SERVICE_WIRING, wiringOf } = require('./service-wiring');
const { migrateServices } = require('./migrate-services');
const { spawnService, describeExit } = require('./spawn-service');
const { createLogFormatter, shouldUseColor } = require('./format-log-line');
const { checkGrpcHealth } = require('./grpc-health');
const { isPortAnswering, sleep } = require('./net');
const { startEntryPoint } = require('./entry-point');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Name the launcher's own lines carry in pretty logs. */
const LAUNCHER_NAME = 'acs';

/** How long a stack may take to start (or a service to restart) by default: generous, for busy machines. */
const DEFAULT_READY_TIMEOUT_MS = 240_000;

/**
 * @typedef {import('./service-wiring').PortName} PortName
 * @typedef {import('./service-wiring').GrpcName} GrpcName
 * @typedef {import('./spawn-service').ServiceProcess} ServiceProcess
 * @typedef {import('./spawn-service').ExitInfo} ExitInfo
 */

/**
 * @typedef {object} StackOptions
 * @property {string} databaseUrl  base URL of the one database (services add their search_path)
 * @property {string} natsUrl
 * @property {string} adminToken   the admin API's token (ADMIN_TOKEN of api-gateway)
 * @property {Partial<Record<PortName, number>> | 'free'} [ports]  TCP ports of the edges (http, gateway):
 *   defaults from service-wiring.js; 'free' binds port 0 and reads the port each service reports
 * @property {NodeJS.ProcessEnv} [env]   base environment of every service (default process.env); wiring overrides it
 * @property {'pretty' | 'quiet' | 'inherit'} [logMode]  pretty: one coloured line per log entry; quiet: nothing
 *   (the last lines are kept for error messages); inherit: the raw JSON lines. Default pretty.
 * @property {string} [logFile]    also append every service's raw lines to this file
 * @property {boolean} [migrate]   apply migrations first (default true)
 * @property {string} [host]       interface the edges listen on (default 127.0.0.1)
 * @property {number} [readyTimeoutMs]  how long the services may take, from spawn to ready (default 240 000)
 * @property {(exit: ExitInfo, lastLines: string[]) => void} [onUnexpectedExit]
 *   called when a service dies while the stack runs (after its banner is printed)
 * @property {string} [root]       repository root (default: this checkout)
 * @property {{ stream: string, subjectPrefix: string }} [events]  the JetStream stream and subject prefix
 *   every service uses (EVENTS_STREAM, EVENTS_SUBJECT_PREFIX); default ACS_EVENTS / acs. Stacks
 *   sharing one NATS server (parallel tests) each need their own.
 * @property {number} [replicas]  processes of each service, default 1. Above 1 the edges bind ports
 *   of their own on 127.0.0.1, behind an entry point in this process on the edges' ports
 *   (entry-point.js), the backends TCP ports of their own on 127.0.0.1; api-gateway's rate limits
 *   must then count in Redis (env REDIS_URL).
 */

/**
 * @typedef {object} Stack
 * @property {string} apiUrl  api-gateway's origin, e.g. http://127.0.0.1:8080 (public API under /api/v10,
 *   admin API under /admin); a getter: a restarted api-gateway may have another port
 * @property {string} adminToken
 * @property {Record<PortName, number>} ports  the TCP ports the edges are bound to (updated by restart)
 * @property {Record<GrpcName, string>} grpcTargets  gRPC target of each service, `unix:<dir>/<service>.sock`,
 *   or with replicas `ipv4:127.0.0.1:<port>,…` (the dispatcher: its first replica's socket)
 * @property {ServiceProcess[]} processes
 * @property {string[]} replicaApiUrls  each api-gateway process's own origin (behind the entry point
 *   when replicated; else just apiUrl)
 * @property {(count?: number) => string} recentLogs  the last lines of every service, for failure messages
 * @property {(name: string) => Promise<ServiceProcess>} restart  starts a service again (stopping it first
 *   if it runs), on the same socket; resolves once it listens again and the stack is ready
 * @property {() => Promise<void>} stop  SIGTERM to every service (edge first), SIGKILL after 10 s
 */

/**
 * @param {StackOptions} options
 * @returns {Promise<Stack>}
 */
async function startStack(options) {
  const root = options.root ?? REPO_ROOT;
  const logMode = options.logMode ?? 'pretty';
  const host = options.host ?? '127.0.0.1';
  const folders = findServices(root);
  const replicaNames = SERVICE_WIRING.flatMap((w) =>
    Array.from({ length: options.replicas ?? 1 }, (_, i) => `${w.name}#${i + 1}`),
  );
  const output = createOutput(logMode, options.logFile, [
    LAUNCHER_NAME,
    ...SERVICE_WIRING.map((w) => w.name),
    ...folders.map((f) => f.name),
    ...replicaNames,
  ]);
  const say = (line) => output.line(LAUNCHER_NAME, line);
  const plain = createLogFormatter({
    names: [...folders.map((f) => f.name), LAUNCHER_NAME, ...replicaNames],
    useColor: false,
  });
  /** A process's last lines, readable (pino JSON formatted like the pretty logs). */
  const tail = (p, count) => (p ? p.lastLines(count).map((line) => plain(p.name, line)) : []);

  for (const folder of folders.filter((f) => !wiringOf(f.name))) {
    say(`services/${folder.name} has no row in infra/src/service-wiring.js: not started`);
  }
  const services = SERVICE_WIRING.flatMap((wiring) => {
    const folder = folders.find((f) => f.name === wiring.name);
    return folder ? [{ wiring, folder }] : [];
  });
  const gateway = services.find((s) => s.wiring.kind === 'http');
  if (!gateway) throw new Error(`no services/api-gateway in ${root}: nothing would answer HTTP`);
  const unbuilt = services.filter((s) => !s.folder.isBuilt);
  if (unbuilt.length > 0) {
    throw new Error(
      `not built (no dist/main.js): ${unbuilt.map((s) => `services/${s.wiring.name}`).join(', ')}. ` +
        'Build with `npx turbo run build` (npm start and npm test do it for you).',
    );
  }

  const replicas = options.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16)
    throw new Error(`replicas must be a whole number from 1 to 16, not ${replicas}`);
  const baseEnv = options.env ?? process.env;
  if (replicas > 1 && !baseEnv.REDIS_URL)
    throw new Error(
      `${replicas} replicas need REDIS_URL: each api-gateway would count the rate limits on its own`,
    );
  /**
   * What runs: one unit per service, or with replicas one per replica of every service.
   * Replicas of a backend listen on TCP ports of their own on 127.0.0.1 (`port`, 0 until it
   * reports one) and their peers get every address in one target, balanced by the channel's
   * round_robin (service-kit's CLIENT_CHANNEL_OPTIONS).
   * @type {{ wiring: import('./service-wiring').ServiceWiring, folder: any, replica: number, name: string, port?: number }[]}
   */
  const units = services.flatMap(({ wiring, folder }) =>
    replicas > 1
      ? Array.from({ length: replicas }, (_, replica) => ({
          wiring,
          folder,
          replica,
          name: `${wiring.name}#${replica + 1}`,
        }))
      : [{ wiring, folder, replica: 0, name: wiring.name }],
  );
  /** Whether a service's replicas serve gRPC on TCP ports (the dispatcher's keep their sockets: api-gateway i calls dispatcher i). */
  const overTcp = (wiring) => replicas > 1 && Boolean(wiring.grpc) && !wiring.edge;
  // Peers of a backend on TCP can only be given its addresses once its replicas report
  // them: the services start in waves, each after the backends it calls.
  const waveOf = (wiring) =>
    Math.max(
      0,
      ...peersOf(wiring).map((grpcName) => {
        const peer = services.find((s) => s.wiring.grpc === grpcName)?.wiring;
        return peer && overTcp(peer) ? waveOf(peer) + 1 : 0;
      }),
    );
  const waves = [];
  for (const unit of units) (waves[waveOf(unit.wiring)] ??= []).push(unit);
  const requestedPorts = resolvePorts(options.ports ?? {});
  if (options.ports !== 'free') await assertPortsFree(services, requestedPorts);
  /** The ports the edges are bound to, as they report them. */
  const ports = { ...requestedPorts };

  if (options.migrate !== false) {
    await migrateServices(
      folders.filter((f) => f.hasPrisma),
      options.databaseUrl,
      (message) => say(`migrate ${message}`),
    );
  }

  // Short (a socket path has a limit of about 100 bytes) and this stack's alone.
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acs-'));
  /** Filled for a backend on TCP once its replicas report their ports (`ipv4:127.0.0.1:a,127.0.0.1:b`). */
  const grpcTargets = /** @type {Record<GrpcName, string>} */ (
    Object.fromEntries(
      services.flatMap(({ wiring: w }) =>
        w.grpc && !overTcp(w) ? [[w.grpc, `unix:${path.join(socketDir, `${w.name}.sock`)}`]] : [],
      ),
    )
  );
  /** A backend's target once each of its replicas has a port. */
  const tcpTargetOf = (wiring) => {
    const mine = units.filter((u) => u.wiring === wiring);
    return mine.every((u) => u.port) ? `ipv4:${mine.map((u) => `127.0.0.1:${u.port}`).join(',')}` : undefined;
  };
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  /** A replicated gRPC server's socket: the first replica's is the one of grpcTargets. */
  const replicaSocket = (grpcName, replica) =>
    replica === 0 ? grpcTargets[grpcName] : grpcTargets[grpcName].replace(/\.sock$/, `-${replica + 1}.sock`);
  /** The edges' processes, by replica (filled by spawnOne; a restart replaces its slot). */
  const replicaProcesses = { 'api-gateway': [], dispatcher: [] };
  const livePort = (p, name) => (p && !p.exitInfo ? p.listeningPorts?.[name] : undefined);
  const entry =
    replicas > 1
      ? await startEntryPoint({
          host,
          ports: requestedPorts,
          httpTargets: () => replicaProcesses['api-gateway'].map((p) => livePort(p, 'http')),
          gatewayTargets: () => replicaProcesses.dispatcher.map((p) => livePort(p, 'gateway')),
          say,
        })
      : undefined;
  if (entry) {
    Object.assign(requestedPorts, entry.ports);
    Object.assign(ports, entry.ports);
  }
  /** The URL bots are given: the entry point's (or GATEWAY_PUBLIC_URL) when replicated. */
  const gatewayUrl = (baseEnv.GATEWAY_PUBLIC_URL ?? `ws://127.0.0.1:${requestedPorts.gateway}`).replace(
    /\/$/,
    '',
  );
  /** What a replica's environment adds to its row's (none without replicas). */
  const replicaEnv = ({ wiring, replica }) => {
    if (!entry || !wiring.edge) return {};
    const common = {
      // Behind the entry point, which names the client in X-Forwarded-For.
      TRUST_PROXY: baseEnv.TRUST_PROXY ?? 'loopback',
    };
    if (wiring.name === 'dispatcher') {
      return {
        ...common,
        GATEWAY_PUBLIC_URL: gatewayUrl,
        // Sessions live in their replica's memory: a Resume must come back to it.
        GATEWAY_RESUME_URL: `${gatewayUrl}/replica/${replica + 1}`,
      };
    }
    return { ...common, RATE_LIMIT_REPLICAS: String(replicas) };
  };
  /**
   * The gRPC targets a unit is given: a replica of the dispatcher serves on its own socket,
   * api-gateway i calls dispatcher i; a backend's replica listens on its TCP port (the one
   * it had, on a restart).
   */
  const grpcOf = ({ wiring, replica, port }) => {
    if (overTcp(wiring)) return { ...grpcTargets, [wiring.grpc]: `127.0.0.1:${port ?? 0}` };
    return entry && wiring.edge
      ? { ...grpcTargets, dispatcher: replicaSocket('dispatcher', replica % replicas) }
      : grpcTargets;
  };
  let isStopping = false;
  let isReady = false;
  /** @type {Map<ServiceProcess, (typeof units)[number]>} */
  const unitOf = new Map();
  const spawnOne = (unit) => {
    const { wiring, folder } = unit;
    const grpc = grpcOf(unit);
    // A process that was killed leaves its socket file behind, which a new bind refuses.
    if (wiring.grpc && !overTcp(wiring)) fs.rmSync(grpc[wiring.grpc].slice('unix:'.length), { force: true });
    const child = spawnService({
      name: unit.name,
      main: folder.main,
      cwd: folder.dir,
      env: {
        ...baseEnv,
        DATABASE_URL: options.databaseUrl,
        NATS_URL: options.natsUrl,
        LOG_LEVEL: baseEnv.LOG_LEVEL ?? 'info',
        SNOWFLAKE_WORKER_ID: String(wiring.workerId),
        OTEL_SERVICE_NAME: wiring.name,
        // Prometheus endpoints only when asked (ACS_METRICS=1), each on a port the OS
        // chooses and reports (never a fixed one: the services and other stacks would race).
        METRICS_PORT: baseEnv.ACS_METRICS ? '0' : '',
        METRICS_HOST: '127.0.0.1',
        ...(options.events
          ? { EVENTS_STREAM: options.events.stream, EVENTS_SUBJECT_PREFIX: options.events.subjectPrefix }
          : {}),
        ...wiring.env({
          grpc,
          // Replicas bind ports of their own, on the loopback only: the entry point is public.
          ports: entry && wiring.edge ? { http: 0, gateway: 0 } : requestedPorts,
          host: entry && wiring.edge ? '127.0.0.1' : host,
          adminToken: options.adminToken,
          redisUrl: baseEnv.REDIS_URL || undefined,
        }),
        ...replicaEnv(unit),
      },
      onLine: output.line,
    });
    // A death while the stack runs is announced loudly and reported to onUnexpectedExit
    // (during a start or restart, the waiting fails with the same lines instead).
    void child.exited.then((exit) => {
      if (exit.expected || isStopping || !isReady) return;
      output.banner(`${child.name} ${describeExit(exit)}`, tail(child, 20));
      options.onUnexpectedExit?.(exit, tail(child, 50));
    });
    const slots = replicaProcesses[wiring.name];
    if (entry && slots) slots[unit.replica] = child;
    unitOf.set(child, unit);
    return child;
  };
  /** @type {ServiceProcess[]} */
  const processes = [];
  // If this process dies without stop(), its children must not linger.
  const killOnExit = () => processes.forEach((p) => p.exitInfo || p.child.kill('SIGTERM'));
  process.once('exit', killOnExit);

  const stop = async () => {
    if (isStopping) return;
    isStopping = true;
    await entry?.close();
    for (const tier of [true, false]) {
      await Promise.all(
        processes
          .filter((p) => wiringOf(baseName(p.name))?.edge === tier)
          .map(async (p) => {
            const exit = await p.stop();
            if (exit.expected) say(`${p.name} stopped (${describeExit(exit)})`);
          }),
      );
    }
    process.removeListener('exit', killOnExit);
    fs.rmSync(socketDir, { recursive: true, force: true });
    await output.close();
  };

  const apiUrl = () => `http://127.0.0.1:${ports.http}`;
  /**
   * Waits until each of `started` reports where it listens (recording its ports), then
   * until /readyz answers 200. Rejects at once when a service dies meanwhile, with its last
   * lines; at the deadline, naming those that did not report or are not serving, with theirs.
   */
  const waitUntilReady = (started, { untilListening = false } = {}) =>
    waitWithDeadline(readyTimeoutMs, async (isLate) => {
      const died = firstDeath([...processes]);
      const reported = Promise.all(
        started.map(async (p) => {
          const listeners = await p.listening;
          const unit = unitOf.get(p);
          if (unit && overTcp(unit.wiring) && typeof listeners?.grpc === 'number') unit.port = listeners.grpc;
          // Behind an entry point, the edges' own ports are their replicas' business.
          if (entry && wiringOf(baseName(p.name))?.edge) return;
          for (const name of Object.keys(wiringOf(p.name)?.tcp ?? {})) {
            if (typeof listeners?.[name] === 'number') ports[name] = listeners[name];
          }
        }),
      );
      await Promise.race([reported, died]);
      while (!isLate() && !untilListening) {
        // Every api-gateway replica on its own port (the entry point would ask one in turn).
        const urls = entry
          ? replicaProcesses['api-gateway'].map((p) => `http://127.0.0.1:${livePort(p, 'http')}`)
          : [apiUrl()];
        const answers = await Promise.race([Promise.all(urls.map(readyz)), died]);
        if (answers.every((ready) => ready.status === 200)) return;
        await Promise.race([sleep(250), died]);
      }
    }).catch(async (error) => {
      if (error !== TIMED_OUT) throw error;
      const silent = started.filter((p) => !p.exitInfo && !p.listeningPorts);
      throw new Error(
        silent.length > 0
          ? `${silent.map((p) => p.name).join(', ')} did not report listening within ${readyTimeoutMs / 1000} s ` +
              `(still starting, or stuck).\n` +
              silent.map((p) => `last lines of ${p.name}:\n${indent(tail(p, 20))}`).join('\n')
          : await notReadyReport(apiUrl(), services, grpcTargets, readyTimeoutMs, (name) =>
              tail(
                processes.find((p) => p.name === name),
                20,
              ),
            ),
      );
    });

  /** Rejects when one of `watched` exits unasked (at once for one that already has), naming it with its last lines. */
  const firstDeath = (watched) => {
    const died = new Promise((_resolve, reject) => {
      for (const p of watched) {
        void p.exited.then((exit) => {
          if (exit.expected || isStopping) return;
          reject(
            new Error(
              `${p.name} ${describeExit(exit)} while the stack was starting. Its last lines:\n${indent(tail(p, 30))}`,
            ),
          );
        });
      }
    });
    // Whoever races it may have settled already: a later death is not an unhandled rejection.
    died.catch(() => undefined);
    return died;
  };

  try {
    for (const [index, wave] of waves.entries()) {
      if (!wave) continue;
      const spawned = wave.map(spawnOne);
      processes.push(...spawned);
      if (index === waves.length - 1) break;
      await waitUntilReady(spawned, { untilListening: true });
      for (const wiring of new Set(wave.map((u) => u.wiring))) {
        if (overTcp(wiring)) grpcTargets[wiring.grpc] = /** @type {string} */ (tcpTargetOf(wiring));
      }
    }
    say(
      `started ${processes.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}; internal gRPC ` +
        (replicas > 1
          ? `on 127.0.0.1 (${Object.entries(grpcTargets)
              .filter(([, target]) => target.startsWith('ipv4:'))
              .map(([name, target]) => `${name} ${target.slice('ipv4:'.length)}`)
              .join('; ')}) and unix sockets in ${socketDir}`
          : `on unix sockets in ${socketDir}`),
    );
    await waitUntilReady(processes);
  } catch (error) {
    await stop();
    throw error;
  }
  isReady = true;
  say(
    entry
      ? `ready at ${apiUrl()} and ${gatewayUrl}: the entry point in front of ${replicas} replicas of api-gateway and dispatcher, ${replicas} of every backend`
      : `ready at ${apiUrl()}`,
  );
  const metricsAt = processes
    .filter((p) => typeof p.listeningPorts?.metrics === 'number')
    .map((p) => `${p.name} http://127.0.0.1:${p.listeningPorts?.metrics}/metrics`);
  if (metricsAt.length > 0) say(`metrics: ${metricsAt.join(', ')}`);

  return {
    get apiUrl() {
      return apiUrl();
    },
    get replicaApiUrls() {
      return entry
        ? replicaProcesses['api-gateway'].map((p) => `http://127.0.0.1:${livePort(p, 'http')}`)
        : [apiUrl()];
    },
    adminToken: options.adminToken,
    ports,
    grpcTargets,
    processes,
    replicas,
    async restart(name) {
      // A replicated service's base name (`oauth`) restarts each of its replicas.
      const targets = processes.filter((p) => p.name === name || (replicas > 1 && baseName(p.name) === name));
      if (targets.length === 0) throw new Error(`no service ${name} in this stack`);
      const restarted = await Promise.all(
        targets.map(async (current) => {
          const unit = /** @type {(typeof units)[number]} */ (unitOf.get(current));
          if (!current.exitInfo) await current.stop();
          const next = spawnOne(unit);
          processes[processes.indexOf(current)] = next;
          return next;
        }),
      );
      await waitUntilReady(restarted);
      return /** @type {ServiceProcess} */ (restarted[0]);
    },
    recentLogs: (count = 30) =>
      processes.map((p) => `--- ${p.name}\n${tail(p, count).join('\n')}`).join('\n'),
    stop,
  };
}

/** The service a process runs: `api-gateway` for its replica `api-gateway#2`. */
const baseName = (name) => name.replace(/#\d+$/, '');

/**
 * The gRPC services a service calls: those whose target its row's environment carries
 * (its own GRPC_ADDRESS aside).
 * @param {import('./service-wiring').ServiceWiring} wiring
 * @returns {GrpcName[]}
 */
function peersOf(wiring) {
  const names = /** @type {GrpcName[]} */ (
    SERVICE_WIRING.flatMap((w) => (w.grpc && w.grpc !== wiring.grpc ? [w.grpc] : []))
  );
  const marker = (name) => `<${name}>`;
  const values = Object.values(
    wiring.env({
      grpc: /** @type {Record<GrpcName, string>} */ (Object.fromEntries(names.map((n) => [n, marker(n)]))),
      ports: { http: 0, gateway: 0 },
      host: '127.0.0.1',
      adminToken: '',
    }),
  );
  return names.filter((name) => values.includes(marker(name)));
}

/** What `waitWithDeadline` rejects with when time is up. */
const TIMED_OUT = Symbol('timed out');

/**
 * Runs `work` and rejects with TIMED_OUT if it has not settled after `timeoutMs`; `work`
 * gets `isLate()` to end its polling once the deadline has passed.
 */
function waitWithDeadline(timeoutMs, work) {
  let late = false;
  let timer;
  const deadline = new Promise((_resolve, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(TIMED_OUT);
    }, timeoutMs);
  });
  return Promise.race([work(() => late), deadline]).finally(() => clearTimeout(timer));
}

/** TCP ports to bind, by name: given ones and defaults for the rest, or 0 (the OS chooses) for all. */
function resolvePorts(requested) {
  const ports = /** @type {Record<PortName, number>} */ ({});
  for (const wiring of SERVICE_WIRING) {
    for (const [name, defaultPort] of Object.entries(wiring.tcp ?? {})) {
      ports[name] = requested === 'free' ? 0 : (requested[name] ?? defaultPort);
    }
  }
  return ports;
}

/** Fixed ports taken by something else (another ACS still running?) fail the start with a clear message. */
async function assertPortsFree(services, ports) {
  for (const { wiring } of services) {
    for (const name of Object.keys(wiring.tcp ?? {})) {
      const port = ports[name];
      if (port !== 0 && (await isPortAnswering('127.0.0.1', port))) {
        throw new Error(
          `port ${port}, which ${wiring.name} should listen on, is already in use ` +
            '(another ACS still running? or choose other ports).',
        );
      }
    }
  }
}

async function readyz(apiUrl) {
  try {
    const response = await fetch(`${apiUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, body: error.cause?.code ?? error.message };
  }
}

/** Why the stack is not ready: what /readyz says, each backend's health, the culprits' last lines. */
async function notReadyReport(apiUrl, services, grpcTargets, timeoutMs, tailOf) {
  const ready = await readyz(apiUrl);
  const lines = [
    `the stack did not become ready within ${timeoutMs / 1000} s: api-gateway /readyz ` +
      (ready.status
        ? `answered ${ready.status} ${ready.body.slice(0, 300)}`
        : `did not answer (${ready.body})`),
  ];
  const culprits = ready.status ? [] : ['api-gateway'];
  for (const { wiring } of services.filter((s) => s.wiring.grpc)) {
    const target = grpcTargets[/** @type {GrpcName} */ (wiring.grpc)];
    const health = await checkGrpcHealth(target);
    lines.push(`  ${wiring.name} (grpc ${target}): ${health}`);
    if (health !== 'SERVING') culprits.push(wiring.name);
  }
  if (culprits.length === 0) culprits.push('api-gateway');
  for (const name of culprits) lines.push(`last lines of ${name}:`, indent(tailOf(name)));
  return lines.join('\n');
}

const indent = (lines) => (lines.length ? lines.map((l) => `    ${l}`).join('\n') : '    (no output)');

/**
 * Where the services' lines go, per log mode, plus the optional log file.
 * @returns {{ line: (name: string, line: string) => void, banner: (title: string, lines: string[]) => void, close: () => Promise<void> }}
 */
function createOutput(logMode, logFile, names) {
  const useColor = logMode === 'pretty' && shouldUseColor(process.stdout);
  const format = createLogFormatter({ names: [...new Set(names)], useColor });
  if (logFile) fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const file = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
  return {
    line(name, line) {
      if (file) {
        file.write(
          line.startsWith('{')
            ? `${line}\n`
            : `${JSON.stringify({ service: name, time: new Date(), msg: line })}\n`,
        );
      }
      if (logMode === 'pretty') process.stdout.write(`${format(name, line)}\n`);
      else if (logMode === 'inherit') process.stdout.write(`${line}\n`);
    },
    banner(title, lines) {
      const text = `\n!!! ${title}\n${indent(lines)}\n`;
      file?.write(`${JSON.stringify({ service: LAUNCHER_NAME, time: new Date(), msg: title })}\n`);
      if (logMode === 'quiet') return;
      process.stderr.write(shouldUseColor(process.stderr) ? `\u001b[1;31m${text}\u001b[0m` : text);
    },
    close: () => (file ? new Promise((resolve) => file.end(resolve)) : sleep(0)),
  };
}

module.exports = { startStack, findServices, REPO_ROOT };
