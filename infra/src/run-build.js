'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/**
 * `turbo run build` over the workspaces (generate runs first where a package has it).
 * Turbo's cache makes it take about a second when nothing changed. Resolves turbo's
 * exit code.
 *
 * @param {{ root: string, outputLogs?: 'full' | 'errors-only' | 'new-only' }} options
 * @returns {Promise<number>}
 */
function runBuild({ root, outputLogs = 'errors-only' }) {
  const turbo = path.join(root, 'node_modules', '.bin', 'turbo');
  const { packageManager } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (!packageManager) {
    // Turbo 2 cannot resolve the workspaces without it and stops with a terse error.
    process.stderr.write(
      'turbo needs a "packageManager" field in the root package.json (e.g. "npm@11.19.1"); the build will fail.\n',
    );
  }
  return new Promise((resolve) => {
    const child = spawn(turbo, ['run', 'build', `--output-logs=${outputLogs}`], {
      cwd: root,
      stdio: 'inherit',
      env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env },
    });
    child.once('error', (error) => {
      process.stderr.write(`could not run turbo (${error.message}): run npm install first\n`);
      resolve(1);
    });
    child.once('close', (code) => resolve(code ?? 1));
  });
}

module.exports = { runBuild };
