'use strict';
/** A bench's baseline server, in a process of its own (bench/*-baseline-server.js, baseline-server.js). */
const { fork } = require('node:child_process');

/**
 * Forks `file` with DATABASE_URL=`databaseUrl`; resolves once it reports its port (a message `{ port }`).
 * @param {string} file
 * @param {string} databaseUrl
 * @returns {Promise<{ origin: string, stop: () => Promise<void> }>}
 */
function startBaselineProcess(file, databaseUrl) {
  const child = fork(file, [], { env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0' } });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${file} exited ${code} before listening`)));
    child.once('message', ({ port }) =>
      resolve({
        origin: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      }),
    );
  });
}

module.exports = { startBaselineProcess };
