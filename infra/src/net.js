'use strict';
const net = require('node:net');

/**
 * A port the OS considers free on 127.0.0.1 right now. Racy (another process may take it
 * before it is used): only for a server that cannot bind port 0 and report, the embedded
 * PostgreSQL's fallback. Services bind port 0 themselves (stack.js).
 */
function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections at host:port (within timeoutMs). */
function isPortAnswering(host, port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Polls `check` every intervalMs until it returns true; rejects with `describe()`'s text
 * after timeoutMs, or at once when `check` throws.
 */
async function waitFor(check, { timeoutMs, intervalMs = 200, describe }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(await describe());
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { findFreePort, isPortAnswering, waitFor, sleep };
