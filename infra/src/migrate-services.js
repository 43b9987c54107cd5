'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const PRISMA_JS = path.join(__dirname, '..', 'bin', 'prisma.js');

/**
 * What `prisma migrate deploy` prints once the migrations are committed. Prisma 6.19's
 * CLI then stays alive about 10 s more (its WebAssembly schema engine leaves a 10 s
 * timer behind, and the pg pool an idle connection), so the run is ended at this line
 * rather than waiting for the process to exit on its own.
 */
const DONE = /All migrations have been successfully applied|No pending migrations to apply/;

/**
 * Applies each service's migrations to the database, one service after the other,
 * with `infra/bin/prisma.js migrate deploy` (the same tool the tests and the k8s
 * migration Jobs use). Rejects with Prisma's output when one fails.
 *
 * @param {import('./find-services').ServiceFolder[]} services  those with prisma/
 * @param {string} databaseUrl  base URL; prisma.js adds each service's search_path
 * @param {(message: string) => void} [report]
 */
async function migrateServices(services, databaseUrl, report = () => {}) {
  for (const service of services) {
    const started = Date.now();
    const output = await runMigrateDeploy(service.dir, databaseUrl).catch((error) => {
      throw new Error(`migrating ${service.name} failed:\n${error.message}`);
    });
    const found = /(\d+) migrations? found/.exec(output);
    report(
      `${service.name}: ${/No pending/.test(output) ? 'up to date' : 'migrations applied'}` +
        `${found ? ` (${found[1]} in prisma/migrations)` : ''}, ${Date.now() - started} ms`,
    );
  }
}

/** Resolves prisma's output once it reports success; rejects with it when it fails. */
function runMigrateDeploy(cwd, databaseUrl) {
  return new Promise((resolve, reject) => {
    // Its own process group, so that prisma.js and the Prisma CLI it runs end together.
    const child = spawn(process.execPath, [PRISMA_JS, 'migrate', 'deploy'], {
      cwd,
      env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let isDone = false;
    const collect = (chunk) => {
      output += chunk;
      if (isDone || !DONE.test(output)) return;
      isDone = true;
      resolve(output);
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => {
      if (isDone) return;
      if (code === 0) resolve(output);
      else reject(new Error(output.trim() || `prisma exited with code ${code}`));
    });
  });
}

module.exports = { migrateServices };
