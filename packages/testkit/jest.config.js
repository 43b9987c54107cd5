'use strict';
/**
 * The kit's tests: its pure parts, and real bots against a whole stack started by
 * test/support (those get minutes: the stack's start alone can take one on a busy machine).
 */
const preset = require('../../jest.preset.js');

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  setupFilesAfterEnv: ['<rootDir>/../../test/support/jest-timeout.ts'],
};
