#!/usr/bin/env node
'use strict';
// Rewrites the events table of README.md from the catalog and EVENT_DOCS (after a build).
const fs = require('node:fs');
const path = require('node:path');
const { withEventsTable } = require('../dist/render-events-table');

const readme = path.join(__dirname, '..', 'README.md');
fs.writeFileSync(readme, withEventsTable(fs.readFileSync(readme, 'utf8')));
