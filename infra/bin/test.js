#!/usr/bin/env node
'use strict';
/**
 * `npm test`: builds (turbo, cached), then runs Jest once over every workspace with a
 * jest.config.js (the root jest.config.js lists them). Extra arguments go to Jest:
 * `npm test -- services/oauth`, `npm test -- -t 'bulk overwrite'`. Jest's JSON results
 * land in .data/jest-results.json; the exit code is Jest's.
 *
 * ACS_SKIP_BUILD=1 skips the build (when it has just been done).
 *
 * Tests need PostgreSQL and NATS (packages/testing finds them: DATABASE_URL / NATS_URL,
 * else 127.0.0.1:5432 and 127.0.0.1:4222).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../src/stack');
const { runBuild } = require('../src/run-build');

const RESULTS = path.join(REPO_ROOT, '.data', 'jest-results.json');

async function main() {
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  // A stale file would report the previous run if this one fails before Jest writes.
  fs.rmSync(RESULTS, { force: true });

  const buildCode = process.env.ACS_SKIP_BUILD === '1' ? 0 : await runBuild({ root: REPO_ROOT });
  if (buildCode !== 0) {
    process.stderr.write('npm test: the build failed (output above); no tests were run\n');
    return buildCode;
  }

  const jest = path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
  const jestArgs = [
    '--config',
    path.join(REPO_ROOT, 'jest.config.js'),
    // 2 cores: more workers only contend with the services the end-to-end tests start.
    '--maxWorkers=2',
    '--json',
    `--outputFile=${RESULTS}`,
    ...process.argv.slice(2),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [jest, ...jestArgs], { cwd: REPO_ROOT, stdio: 'inherit' });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`npm test failed: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
