'use strict';
const { spawn } = require('node:child_process');
const readline = require('node:readline');

/** Lines of output kept per process, for error messages. */
const KEPT_LINES = 200;

/** The `type` of the message a service sends once it listens (service-kit's `reportListening`). */
const LISTENING_MESSAGE = 'acs.listening';

/**
 * @typedef {object} ExitInfo
 * @property {string} name
 * @property {number | null} code
 * @property {NodeJS.Signals | null} signal
 * @property {boolean} expected  true when it exited because stop() asked it to
 */

/**
 * @typedef {object} ServiceProcess
 * @property {string} name
 * @property {number | undefined} pid
 * @property {import('node:child_process').ChildProcess} child
 * @property {Promise<ExitInfo>} exited   settles when the process has exited
 * @property {ExitInfo | undefined} exitInfo  set once it has exited
 * @property {Promise<Record<string, number> | undefined>} listening  settles with the TCP ports it
 *   reports once every listener is bound (by listener name: grpc, http, gateway), or with
 *   undefined when it exits before reporting
 * @property {Record<string, number> | undefined} listeningPorts  what it reported, once it has
 * @property {(count?: number) => string[]} lastLines  its latest output lines (stdout and stderr)
 * @property {(graceMs?: number) => Promise<ExitInfo>} stop  SIGTERM, then SIGKILL after graceMs
 */

/**
 * Starts `node <main>` as its own process, reading its output line by line, with an IPC
 * channel on which it reports where it listens.
 *
 * @param {object} options
 * @param {string} options.name
 * @param {string} options.main     script to run with this Node
 * @param {string} options.cwd
 * @param {NodeJS.ProcessEnv} options.env
 * @param {(name: string, line: string, stream: 'stdout' | 'stderr') => void} options.onLine
 * @returns {ServiceProcess}
 */
function spawnService({ name, main, cwd, env, onLine }) {
  // ACS_CPU_PROF_DIR: each service writes a V8 CPU profile there when it stops (Node does
  // not take --cpu-prof from NODE_OPTIONS), for finding where a benchmark's time goes.
  const profile = env.ACS_CPU_PROF_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${env.ACS_CPU_PROF_DIR}`,
        `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
      ]
    : [];
  const child = spawn(process.execPath, [...profile, main], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  /** @type {string[]} */
  const kept = [];
  const keep = (stream) => (line) => {
    kept.push(line);
    if (kept.length > KEPT_LINES) kept.shift();
    onLine(name, line, stream);
  };
  readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', keep('stdout'));
  readline.createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', keep('stderr'));

  let stopping = false;
  /** @type {ServiceProcess} */
  const service = {
    name,
    pid: child.pid,
    child,
    exitInfo: undefined,
    listeningPorts: undefined,
    exited: new Promise((resolve) => {
      // 'close' (not 'exit') so that the last lines have been read when it settles.
      child.once('close', (code, signal) => {
        service.exitInfo = { name, code, signal, expected: stopping };
        resolve(service.exitInfo);
      });
      child.once('error', (error) => {
        kept.push(`failed to start: ${error.message}`);
        service.exitInfo = { name, code: null, signal: null, expected: stopping };
        resolve(service.exitInfo);
      });
    }),
    listening: new Promise((resolve) => {
      child.on('message', (message) => {
        if (!message || message.type !== LISTENING_MESSAGE) return;
        service.listeningPorts = message.listeners;
        resolve(message.listeners);
      });
      child.once('exit', () => resolve(undefined));
      child.once('error', () => resolve(undefined));
    }),
    lastLines: (count = 30) => kept.slice(-count),
    async stop(graceMs = 10_000) {
      stopping = true;
      if (service.exitInfo) return service.exitInfo;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const info = await service.exited;
      clearTimeout(timer);
      return info;
    },
  };
  return service;
}

/** `exited with code 1` / `was killed by SIGKILL`. */
function describeExit({ code, signal }) {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

module.exports = { spawnService, describeExit };
