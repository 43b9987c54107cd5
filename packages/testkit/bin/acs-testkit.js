#!/usr/bin/env node
'use strict';
/**
 * `npx acs-testkit`: the ACS CLI from a bot's own project (`npx acs-testkit --help`). It
 * finds the running ACS through ACS_URL and ACS_ADMIN_TOKEN, else the `npm start` whose
 * .data it finds (ACS_DATA_DIR, a .data/ above the current folder, or ~/.acs/stack.json).
 */
const { runCli } = require('../dist/cli/acs-cli');
const { findDataDir } = require('../dist/locate-stack');

runCli(process.argv.slice(2), { dataDir: findDataDir(process.env) }).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`acs-testkit: ${error.message}\n`);
    process.exit(1);
  },
);
