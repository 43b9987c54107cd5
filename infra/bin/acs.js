#!/usr/bin/env node
'use strict';
/** `npx acs` in a checkout: the CLI of packages/testkit (acs-testkit/cli; `npx acs --help`). */
const path = require('node:path');
const { runCli } = require('acs-testkit/cli');

const dataDir = process.env.ACS_DATA_DIR ?? path.join(__dirname, '..', '..', '.data');
runCli(process.argv.slice(2), { dataDir }).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`acs: ${error.message}\n`);
    process.exit(1);
  },
);
