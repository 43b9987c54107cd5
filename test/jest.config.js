'use strict';
/**
 * End-to-end tests: the *.test.ts files under test/, each against a whole stack started by
 * support/start-test-stack.ts (which is why they get minutes, not seconds).
 */
const preset = require('../jest.preset.js');

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  displayName: 'e2e',
  roots: ['<rootDir>'],
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/support/'],
  setupFilesAfterEnv: ['<rootDir>/support/jest-timeout.ts'],
  testTimeout: 300_000,
};
