#!/usr/bin/env node
'use strict';
/**
 * `npm start`: builds what changed, brings up PostgreSQL (embedded unless DATABASE_URL
 * is set) and NATS (a local nats-server unless one answers at NATS_URL), runs every
 * service wired together, seeds a demo world on first run and prints how to use it.
 * Ctrl-C stops the services, then NATS and PostgreSQL if this launcher started them.
 *
 * Flags: --skip-build (use what is built; or ACS_SKIP_BUILD=1), --json-logs (the
 * services' raw JSON lines instead of the readable ones), --with-examples (also run the
 * example bots of examples/ against the demo world: infra/src/run-examples.js),
 * --replicas N (N processes of every service, api-gateway and dispatcher behind one entry
 * point on the usual ports, the backends reached by round_robin over their replicas' TCP
 * ports; the rate limits then count in Redis: REDIS_URL, else the Redis at
 * 127.0.0.1:6379, else it refuses to start).
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { startStack, REPO_ROOT } = require('../src/stack');
const { runBuild } = require('../src/run-build');
const { startLocalPostgres, ensureDatabase } = require('../src/local-postgres');
const { ensureNats } = require('../src/local-nats');
const { createAdminClient } = require('../src/admin-client');
const { createDemoWorld } = require('../src/demo-world');
const { runExamples } = require('../src/run-examples');
const { shouldUseColor } = require('../src/format-log-line');
const { isPortAnswering } = require('../src/net');
const { stackPointerFile } = require('acs-testkit/locate-stack');
const { unsupportedRuntimeLine } = require('../src/runtime');

const DATA_DIR = path.join(REPO_ROOT, '.data');
const FILES = {
  adminToken: path.join(DATA_DIR, 'admin-token'),
  seed: path.join(DATA_DIR, 'seed.json'),
  // Where the running stack answers (read by `npx acs`).
  stack: path.join(DATA_DIR, 'stack.json'),
  log: path.join(DATA_DIR, 'acs.log'),
  postgres: path.join(DATA_DIR, 'postgres'),
  postgresLog: path.join(DATA_DIR, 'postgres.log'),
  nats: path.join(DATA_DIR, 'nats'),
  natsLog: path.join(DATA_DIR, 'nats.log'),
  pids: path.join(DATA_DIR, 'service-pids.json'),
};
const argv = process.argv.slice(2);
const args = new Set(argv);
const color = shouldUseColor(process.stdout);
const bold = (text) => (color ? `\u001b[1m${text}\u001b[0m` : text);
const say = (message) => process.stdout.write(`${color ? '\u001b[90macs\u001b[0m' : 'acs'} ${message}\n`);

/** Cleanup steps in the order they were registered; they run in reverse. */
const cleanups = [];
let shutdownStarted = false;

async function shutdown(exitCode) {
  if (shutdownStarted) return;
  shutdownStarted = true;
  for (const { name, run } of cleanups.reverse()) {
    if (name === 'services') fs.rmSync(FILES.pids, { force: true });
    try {
      await run();
      if (name !== 'services') say(`stopped ${name}`);
    } catch (error) {
      process.stderr.write(`stopping ${name} failed: ${error.message}\n`);
    }
  }
  process.exit(exitCode);
}

function onSignal(signal) {
  if (shutdownStarted) {
    process.stderr.write(`\n${signal} again: exiting without waiting\n`);
    process.exit(130);
  }
  say(`${signal}: stopping`);
  void shutdown(0);
}

async function main() {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const runtimeWarning = unsupportedRuntimeLine();
  if (runtimeWarning) say(runtimeWarning);

  if (!args.has('--skip-build') && process.env.ACS_SKIP_BUILD !== '1') {
    say('building (turbo; cached when nothing changed)');
    const code = await runBuild({ root: REPO_ROOT });
    if (code !== 0)
      throw new Error('the build failed (output above); fix it, or use --skip-build to run what is built');
  }

  const replicas = readReplicas();
  const redisUrl = replicas > 1 ? await findRedis() : process.env.REDIS_URL;

  const databaseUrl = await startDatabase();
  const natsUrl = await startNats();
  const adminToken = loadAdminToken();

  await stopLeftoverServices();
  fs.rmSync(FILES.log, { force: true });
  const stack = await startStack({
    databaseUrl,
    natsUrl,
    adminToken,
    ports: {
      http: process.env.PORT ? Number(process.env.PORT) : 8080,
      gateway: process.env.GATEWAY_PORT ? Number(process.env.GATEWAY_PORT) : 8081,
    },
    replicas,
    env: { ...process.env, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) },
    host: process.env.HOST ?? '127.0.0.1',
    logMode: args.has('--json-logs') ? 'inherit' : 'pretty',
    logFile: FILES.log,
    onUnexpectedExit: (exit) => {
      process.stderr.write(`\n${exit.name} died; stopping ACS (full logs in ${relative(FILES.log)})\n`);
      void shutdown(1);
    },
  });
  cleanups.push({ name: 'services', run: stack.stop });
  fs.writeFileSync(
    FILES.pids,
    JSON.stringify(stack.processes.map((p) => ({ pid: p.pid, main: p.child.spawnargs[1] }))),
  );

  let seed;
  try {
    seed = await ensureSeed(stack);
  } catch (error) {
    process.stderr.write(
      `\nseeding the demo world failed: ${error.message}\n(ACS keeps running; it retries on the next start)\n`,
    );
  }
  writeStackFiles(stack);

  let examples;
  if (args.has('--with-examples') && seed) {
    try {
      examples = await runExamples({
        apiUrl: stack.apiUrl,
        admin: createAdminClient(stack.apiUrl, stack.adminToken),
        seed,
        dataDir: DATA_DIR,
        say,
      });
      cleanups.push({ name: 'example bots', run: examples.stop });
    } catch (error) {
      process.stderr.write(`\nstarting the example bots failed: ${error.message}\n(ACS keeps running)\n`);
    }
  }
  printSummary(stack, seed, examples?.lines);
}

/**
 * Where the running stack answers: .data/stack.json (read by `npx acs` and the test kit
 * in the checkout), and ~/.acs/stack.json naming this .data, so that the kit
 * (acs-testkit) finds the stack from a bot's own folder. Both go when the stack stops;
 * the home file only while it still names this checkout.
 */
function writeStackFiles(stack) {
  fs.writeFileSync(FILES.stack, `${JSON.stringify({ apiUrl: stack.apiUrl }, null, 2)}\n`);
  cleanups.push({ name: 'stack file', run: async () => fs.rmSync(FILES.stack, { force: true }) });
  const pointer = stackPointerFile();
  const content = `${JSON.stringify({ dataDir: DATA_DIR, apiUrl: stack.apiUrl }, null, 2)}\n`;
  try {
    fs.mkdirSync(path.dirname(pointer), { recursive: true });
    fs.writeFileSync(pointer, content);
  } catch (error) {
    say(`could not write ${pointer} (${error.message}): outside the checkout, set ACS_DATA_DIR=${DATA_DIR}`);
    return;
  }
  cleanups.push({
    name: 'stack pointer',
    run: async () => {
      if (fs.existsSync(pointer) && fs.readFileSync(pointer, 'utf8') === content) fs.rmSync(pointer);
    },
  });
}

/** `--replicas N` (or `--replicas=N`): processes per edge service, default 1. */
function readReplicas() {
  const at = argv.findIndex((a) => a === '--replicas' || a.startsWith('--replicas='));
  if (at < 0) return 1;
  const text = argv[at].includes('=') ? argv[at].slice('--replicas='.length) : argv[at + 1];
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1 || count > 16)
    throw new Error(`--replicas takes a whole number from 1 to 16, not ${text ?? 'nothing'}`);
  return count;
}

/**
 * Where N replicas of api-gateway count the rate limits together: REDIS_URL, else a Redis
 * answering at 127.0.0.1:6379. Without one each replica would count alone (N times the
 * limits), so the start is refused.
 */
async function findRedis() {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (await isPortAnswering('127.0.0.1', 6379)) {
    say('Redis redis://127.0.0.1:6379 (already running): the replicas count the rate limits there');
    return 'redis://127.0.0.1:6379';
  }
  throw new Error(
    '--replicas above 1 needs Redis for the rate limits (each api-gateway would count alone): ' +
      'start one on 127.0.0.1:6379 (e.g. `redis-server`) or set REDIS_URL',
  );
}

/** DATABASE_URL when set (creating its database if missing), else the embedded PostgreSQL. */
async function startDatabase() {
  if (process.env.DATABASE_URL) {
    if (await ensureDatabase(process.env.DATABASE_URL)) say('created the database named in DATABASE_URL');
    return process.env.DATABASE_URL;
  }
  const postgres = await startLocalPostgres({
    dataDir: FILES.postgres,
    logFile: FILES.postgresLog,
    say: (message) => say(message),
  });
  cleanups.push({ name: 'PostgreSQL', run: postgres.stop });
  say(
    `PostgreSQL ${postgres.url.replace(/:[^:@/]+@/, ':***@')} (embedded, data in ${relative(FILES.postgres)})`,
  );
  return postgres.url;
}

async function startNats() {
  const nats = await ensureNats({
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    dataDir: FILES.nats,
    logFile: FILES.natsLog,
    say: (message) => say(message),
  });
  if (nats.started) cleanups.push({ name: 'nats-server', run: nats.stop });
  else say(`NATS ${nats.url} (already running)`);
  return nats.url;
}

/**
 * Services left running by a launcher that was killed (SIGKILL leaves its children
 * behind, holding the ports): stopped before starting new ones. A pid counts only when
 * it still runs the same dist/main.js.
 */
async function stopLeftoverServices() {
  if (!fs.existsSync(FILES.pids)) return;
  const leftovers = JSON.parse(fs.readFileSync(FILES.pids, 'utf8')).filter(({ pid, main }) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(main);
    } catch {
      return false;
    }
  });
  for (const { pid } of leftovers) process.kill(pid, 'SIGTERM');
  if (leftovers.length > 0) say(`stopping ${leftovers.length} service(s) left running by an earlier start`);
  const isRunning = ({ pid }) => fs.existsSync(`/proc/${pid}`);
  const deadline = Date.now() + 10_000;
  while (leftovers.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // Orphans whose stdout is gone can hang in their shutdown: a second signal ends them.
  for (const { pid } of leftovers.filter(isRunning)) process.kill(pid, 'SIGKILL');
  fs.rmSync(FILES.pids, { force: true });
}

/** ADMIN_TOKEN, or the one generated on the first start and kept in .data/admin-token. */
function loadAdminToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  if (fs.existsSync(FILES.adminToken)) return fs.readFileSync(FILES.adminToken, 'utf8').trim();
  const token = randomBytes(24).toString('base64url');
  fs.writeFileSync(FILES.adminToken, `${token}\n`, { mode: 0o600 });
  return token;
}

/**
 * The demo world of .data/seed.json, seeded on the first start, and again when its bot
 * token no longer authenticates (the database was reset or replaced).
 */
async function ensureSeed(stack) {
  if (fs.existsSync(FILES.seed)) {
    const seed = JSON.parse(fs.readFileSync(FILES.seed, 'utf8'));
    if (await isSeedInDatabase(stack, seed)) return seed;
    say('the demo world in .data/seed.json is not in this database (reset?): seeding it again');
  }
  const world = await createDemoWorld(createAdminClient(stack.apiUrl, stack.adminToken));
  const seed = { seededAt: new Date().toISOString(), ...world };
  fs.writeFileSync(FILES.seed, `${JSON.stringify(seed, null, 2)}\n`, { mode: 0o600 });
  say('seeded the demo world (user demo-owner, guild Demo Guild, app Demo App installed in it)');
  return seed;
}

/**
 * Asks for the seeded app's guild commands with its bot token: an unknown token (401),
 * app or guild (403, or 404 with a Discord error code) means the database no longer
 * holds the seed. Anything else (even a 5xx) keeps it rather than seeding twice.
 */
async function isSeedInDatabase(stack, seed) {
  const response = await fetch(
    `${stack.apiUrl}/api/v10/applications/${seed.application.id}/guilds/${seed.guild.id}/commands`,
    { headers: { Authorization: `Bot ${seed.application.botToken}` } },
  );
  if (response.status === 401 || response.status === 403) return false;
  if (response.status !== 404) return true;
  const body = await response.json().catch(() => ({}));
  return body.code === 0; // 0: the route itself is unknown, which says nothing about the seed
}

function printSummary(stack, seed, exampleLines = []) {
  const base = stack.apiUrl;
  const rows = [
    ['Base URL', `${base}  (public API ${base}/api/v10, admin API ${base}/admin)`],
    ...(stack.replicas > 1
      ? [['Replicas', `${stack.replicas} of api-gateway and of dispatcher behind one entry point`]]
      : []),
    ['Admin token', `${stack.adminToken}  (Authorization: Admin <token>)`],
    // The token rides in the fragment, which the browser never sends: the page moves it
    // into the tab's sessionStorage and drops it from the address bar.
    ['Console', `${base}/console/#token=${encodeURIComponent(stack.adminToken)}`],
  ];
  if (seed) {
    rows.push(
      ['Application id', seed.application.id],
      ['Bot token', seed.application.botToken],
      ['Guild id', seed.guild.id],
    );
  }
  const lines = ['', bold('ACS is running'), ...rows.map(([k, v]) => `  ${k.padEnd(15)} ${v}`)];
  if (seed) {
    lines.push(
      '',
      'Register a guild command:',
      `  curl -X POST ${base}/api/v10/applications/${seed.application.id}/guilds/${seed.guild.id}/commands ` +
        `-H "Authorization: Bot ${seed.application.botToken}" -H 'Content-Type: application/json' ` +
        `-d '{"name":"ping","description":"Replies with pong"}'`,
    );
  }
  lines.push(
    '',
    `Test your bot (acs-testkit, README "Test your bot") finds this stack; elsewhere set`,
    `  ACS_URL=${base} ACS_ADMIN_TOKEN=${stack.adminToken}`,
  );
  if (exampleLines.length > 0) lines.push('', ...exampleLines);
  lines.push(
    '',
    `Logs: ${relative(FILES.log)}  Demo world: ${relative(FILES.seed)}  Ctrl-C stops everything`,
    '',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

const relative = (file) => path.relative(process.cwd(), file) || file;

main().catch((error) => {
  process.stderr.write(`\nnpm start failed: ${error.message}\n`);
  void shutdown(1);
});
