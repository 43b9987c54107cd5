'use strict';
/**
 * NATS for `npm start`: whatever answers at NATS_URL, or else a `nats-server` from the
 * PATH started with JetStream on the URL's loopback port (data in .data/nats), in its
 * own process group so that Ctrl-C reaches only the launcher.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { isPortAnswering, waitFor, sleep } = require('./net');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** Debian installs nats-server in /usr/sbin, which is not on every user's PATH. */
const EXTRA_DIRS = ['/usr/sbin', '/usr/local/sbin'];

/**
 * @typedef {object} LocalNats
 * @property {string} url
 * @property {boolean} started  true when this launcher started nats-server (and stop() stops it)
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{ natsUrl: string, dataDir: string, logFile: string, say?: (message: string) => void }} options
 * @returns {Promise<LocalNats>}
 */
async function ensureNats({ natsUrl, dataDir, logFile, say = () => {} }) {
  const url = new URL(natsUrl);
  const port = Number(url.port || 4222);
  if (await isPortAnswering(url.hostname, port)) {
    return { url: natsUrl, started: false, stop: async () => {} };
  }
  const binary = findOnPath('nats-server');
  if (!binary || !LOOPBACK.has(url.hostname)) {
    throw new Error(
      `nothing answers at NATS_URL=${natsUrl}` +
        (LOOPBACK.has(url.hostname) ? ' and nats-server is not on the PATH' : '') +
        '. ACS needs NATS with JetStream. Get one of:\n' +
        '  - Debian/Ubuntu: sudo apt install nats-server (npm start then starts it for you)\n' +
        '  - the nats-server release binary from https://github.com/nats-io/nats-server/releases, on your PATH\n' +
        '  - a running server: set NATS_URL=nats://host:4222 (JetStream enabled: nats-server -js)',
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const log = fs.openSync(logFile, 'a');
  const child = spawn(binary, ['-js', '-sd', dataDir, '-a', '127.0.0.1', '-p', String(port)], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  say(`started nats-server with JetStream on 127.0.0.1:${port} (pid ${child.pid})`);

  await waitFor(
    async () => {
      if (exited) throw new Error(`nats-server exited while starting:\n${tailOf(logFile)}`);
      return isPortAnswering('127.0.0.1', port);
    },
    { timeoutMs: 15_000, describe: () => `nats-server did not start:\n${tailOf(logFile)}` },
  );
  return {
    url: natsUrl,
    started: true,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const deadline = Date.now() + 10_000;
      while (!exited && Date.now() < deadline) await sleep(100);
      if (!exited) child.kill('SIGKILL');
    },
  };
}

function findOnPath(command) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function tailOf(file, count = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '(no log)';
  }
}

module.exports = { ensureNats };
