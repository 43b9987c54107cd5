#!/usr/bin/env node
'use strict';
/** `npx acs` in a checkout: the CLI of packages/testkit (acs-testkit/cli; `npx acs --help`). */
const path = require('node:path');

let runCli;
try {
  ({ runCli } = require('acs-testkit/cli'));
} catch (error) {
  if (error.code !== 'MODULE_NOT_FOUND') throw error;
  process.stderr.write('acs: the CLI is not built yet: run `npm start` (or `npx turbo run build`) first\n');
  process.exit(1);
}

const dataDir = process.env.ACS_DATA_DIR ?? path.join(__dirname, '..', '..', '.data');
runCli(process.argv.slice(2), { dataDir }).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`acs: ${error.message}\n`);
    process.exit(1);
  },
);
