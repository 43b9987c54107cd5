'use strict';
/**
 * One Jest run over the whole repository (`npm test`): every npm workspace that has a
 * jest.config.js is a project, found from the root package.json's `workspaces`, so a
 * new service or package is picked up without editing this file.
 */
const fs = require('node:fs');
const path = require('node:path');

const { workspaces } = require('./package.json');
const preset = require('./jest.preset.js');

/** Workspace folders, expanding the `dir/*` form npm allows. */
function workspaceFolders() {
  return workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = path.join(__dirname, pattern.slice(0, -2));
    if (!fs.existsSync(parent)) return [];
    return fs
      .readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`);
  });
}

/**
 * A workspace's own config as a project of this run. `testTimeout` is a global option
 * in Jest 29 (projects may not set it; the end-to-end project raises it with
 * `jest.setTimeout` in a setup file instead).
 */
function project(folder) {
  const rootDir = path.join(__dirname, folder);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { testTimeout, ...config } = require(path.join(rootDir, 'jest.config.js'));
  return { displayName: folder, ...config, rootDir };
}

/** Jest refuses to start when a project's root is missing (a package with no test/ yet). */
function hasTestRoots(config) {
  return (config.roots ?? ['<rootDir>']).every((root) =>
    fs.existsSync(root.replace('<rootDir>', config.rootDir)),
  );
}

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: preset.testTimeout,
  projects: workspaceFolders()
    .filter((folder) => fs.existsSync(path.join(__dirname, folder, 'jest.config.js')))
    .map(project)
    .filter(hasTestRoots),
};
