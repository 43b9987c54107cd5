'use strict';
/**
 * Runs the whole ACS stack on one machine: migrates every service that owns a schema,
 * starts each service as its own process wired to the others (service-wiring.js), and
 * waits until api-gateway's /readyz says every backend is serving. Used by `npm start`
 * (infra/bin/start.js), the end-to-end tests (test/support) and the benchmark.
 * PostgreSQL and NATS are the caller's business: pass their URLs.
 */
const fs = require('node:fs');
const path = require('node:path');
const { findServices } = require('./find-services');
const { SERVICE_WIRING, wiringOf } = require('./service-wiring');
const { migrateServices } = require('./migrate-services');
const { spawnService, describeExit } = require('./spawn-service');
const { createLogFormatter, shouldUseColor } = require('./format-log-line');
const { checkGrpcHealth } = require('./grpc-health');
const { findFreePort, isPortAnswering, waitFor, sleep } = require('./net');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Name the launcher's own lines carry in pretty logs. */
const LAUNCHER_NAME = 'acs';

/**
 * @typedef {import('./service-wiring').PortName} PortName
 * @typedef {import('./spawn-service').ServiceProcess} ServiceProcess
 * @typedef {import('./spawn-service').ExitInfo} ExitInfo
 */

/**
 * @typedef {object} StackOptions
 * @property {string} databaseUrl  base URL of the one database (services add their search_path)
 * @property {string} natsUrl
 * @property {string} adminToken   the admin API's token (ADMIN_TOKEN of api-gateway)
 * @property {Partial<Record<PortName, number>> | 'free'} [ports]  defaults from service-wiring.js; 'free' picks unused ports
 * @property {NodeJS.ProcessEnv} [env]   base environment of every service (default process.env); wiring overrides it
 * @property {'pretty' | 'quiet' | 'inherit'} [logMode]  pretty: one coloured line per log entry; quiet: nothing
 *   (the last lines are kept for error messages); inherit: the raw JSON lines. Default pretty.
 * @property {string} [logFile]    also append every service's raw lines to this file
 * @property {boolean} [migrate]   apply migrations first (default true)
 * @property {string} [host]       interface api-gateway listens on (default 127.0.0.1)
 * @property {number} [readyTimeoutMs]  default 60 000
 * @property {(exit: ExitInfo, lastLines: string[]) => void} [onUnexpectedExit]
 *   called when a service dies while the stack runs (after its banner is printed)
 * @property {string} [root]       repository root (default: this checkout)
 * @property {{ stream: string, subjectPrefix: string }} [events]  the JetStream stream and subject prefix
 *   every service uses (EVENTS_STREAM, EVENTS_SUBJECT_PREFIX); default ACS_EVENTS / acs. Stacks
 *   sharing one NATS server (parallel tests) each need their own.
 */

/**
 * @typedef {object} Stack
 * @property {string} apiUrl  api-gateway's origin, e.g. http://127.0.0.1:8080 (public API under /api/v10, admin API under /admin)
 * @property {string} adminToken
 * @property {Record<PortName, number>} ports
 * @property {ServiceProcess[]} processes
 * @property {(count?: number) => string} recentLogs  the last lines of every service, for failure messages
 * @property {(name: string) => Promise<ServiceProcess>} restart  starts a service again (stopping it first if it runs)
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
  const output = createOutput(logMode, options.logFile, [
    LAUNCHER_NAME,
    ...SERVICE_WIRING.map((w) => w.name),
    ...folders.map((f) => f.name),
  ]);
  const say = (line) => output.line(LAUNCHER_NAME, line);
  const plain = createLogFormatter({
    names: [...folders.map((f) => f.name), LAUNCHER_NAME],
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

  const ports = await resolvePorts(options.ports ?? {});
  await assertPortsFree(services, ports);

  if (options.migrate !== false) {
    await migrateServices(
      folders.filter((f) => f.hasPrisma),
      options.databaseUrl,
      (message) => say(`migrate ${message}`),
    );
  }

  const baseEnv = options.env ?? process.env;
  let isStopping = false;
  /** @type {ServiceProcess[]} */
  const spawnOne = ({ wiring, folder }) =>
    spawnService({
      name: wiring.name,
      main: folder.main,
      cwd: folder.dir,
      env: {
        ...baseEnv,
        DATABASE_URL: options.databaseUrl,
        NATS_URL: options.natsUrl,
        LOG_LEVEL: baseEnv.LOG_LEVEL ?? 'info',
        SNOWFLAKE_WORKER_ID: String(wiring.workerId),
        OTEL_SERVICE_NAME: wiring.name,
        ...(options.events
          ? { EVENTS_STREAM: options.events.stream, EVENTS_SUBJECT_PREFIX: options.events.subjectPrefix }
          : {}),
        ...wiring.env(ports, { host, adminToken: options.adminToken }),
      },
      onLine: output.line,
    });
  const processes = services.map(spawnOne);
  say(`started ${processes.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}`);

  // If this process dies without stop(), its children must not linger.
  const killOnExit = () => processes.forEach((p) => p.exitInfo || p.child.kill('SIGTERM'));
  process.once('exit', killOnExit);

  const stop = async () => {
    if (isStopping) return;
    isStopping = true;
    for (const tier of [true, false]) {
      await Promise.all(
        processes
          .filter((p) => wiringOf(p.name)?.edge === tier)
          .map(async (p) => {
            const exit = await p.stop();
            if (exit.expected) say(`${p.name} stopped (${describeExit(exit)})`);
          }),
      );
    }
    process.removeListener('exit', killOnExit);
    await output.close();
  };

  // A death during startup fails the start (the error carries its last lines);
  // afterwards it is announced loudly and reported to onUnexpectedExit.
  let isReady = false;
  let startupDeath;
  for (const p of processes) {
    void p.exited.then((exit) => {
      if (exit.expected || isStopping) return;
      if (!isReady) {
        startupDeath ??= exit;
        return;
      }
      output.banner(`${p.name} ${describeExit(exit)}`, tail(p, 20));
      options.onUnexpectedExit?.(exit, tail(p, 50));
    });
  }

  const apiUrl = `http://127.0.0.1:${ports.http}`;
  try {
    await waitFor(
      async () => {
        if (startupDeath) {
          const dead = processes.find((p) => p.name === startupDeath.name);
          throw new Error(
            `${startupDeath.name} ${describeExit(startupDeath)} while the stack was starting. ` +
              `Its last lines:\n${indent(tail(dead, 30))}`,
          );
        }
        return (await readyz(apiUrl)).status === 200;
      },
      {
        timeoutMs: options.readyTimeoutMs ?? 60_000,
        intervalMs: 250,
        describe: () =>
          notReadyReport(apiUrl, services, ports, options.readyTimeoutMs ?? 60_000, (name) =>
            tail(
              processes.find((p) => p.name === name),
              20,
            ),
          ),
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  isReady = true;
  say(`ready at ${apiUrl}`);

  return {
    apiUrl,
    adminToken: options.adminToken,
    ports,
    processes,
    async restart(name) {
      const index = processes.findIndex((p) => p.name === name);
      const service = services.find((s) => s.wiring.name === name);
      if (index < 0 || !service) throw new Error(`no service ${name} in this stack`);
      const current = /** @type {ServiceProcess} */ (processes[index]);
      if (!current.exitInfo) await current.stop();
      processes[index] = spawnOne(service);
      return processes[index];
    },
    recentLogs: (count = 30) =>
      processes.map((p) => `--- ${p.name}\n${tail(p, count).join('\n')}`).join('\n'),
    stop,
  };
}

/** Ports by name: given ones, defaults for the rest, or all free ones. */
async function resolvePorts(requested) {
  const ports = /** @type {Record<PortName, number>} */ ({});
  for (const wiring of SERVICE_WIRING) {
    const wanted = { [wiring.port]: wiring.defaultPort, ...wiring.extraPorts };
    for (const [name, defaultPort] of Object.entries(wanted)) {
      ports[name] = requested === 'free' ? await findFreePort() : (requested[name] ?? defaultPort);
    }
  }
  return ports;
}

async function assertPortsFree(services, ports) {
  for (const { wiring } of services) {
    const port = ports[wiring.port];
    if (await isPortAnswering('127.0.0.1', port)) {
      throw new Error(
        `port ${port}, which ${wiring.name} should listen on, is already in use ` +
          '(another ACS still running? or choose other ports).',
      );
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
async function notReadyReport(apiUrl, services, ports, timeoutMs, tailOf) {
  const ready = await readyz(apiUrl);
  const lines = [
    `the stack did not become ready within ${timeoutMs / 1000} s: api-gateway /readyz ` +
      (ready.status
        ? `answered ${ready.status} ${ready.body.slice(0, 300)}`
        : `did not answer (${ready.body})`),
  ];
  const culprits = ready.status ? [] : ['api-gateway'];
  for (const { wiring } of services.filter((s) => s.wiring.kind === 'grpc')) {
    const health = await checkGrpcHealth(`127.0.0.1:${ports[wiring.port]}`);
    lines.push(`  ${wiring.name} (grpc 127.0.0.1:${ports[wiring.port]}): ${health}`);
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
