'use strict';
/**
 * The Node.js releases ACS supports: the root package.json's `engines.node` (the LTS lines,
 * https://github.com/nodejs/Release#release-schedule). `.node-version` names the one the
 * container image and CI run (infra/Dockerfile's NODE_VERSION is the same; a test checks).
 */
const semver = require('semver');
const { engines } = require('../../package.json');

const SUPPORTED_NODE = engines.node;

/** One line saying the runtime is not supported, or null when it is. */
function unsupportedRuntimeLine(version = process.version) {
  if (semver.satisfies(version, SUPPORTED_NODE)) return null;
  return `Node.js ${version} is not supported (ACS supports ${SUPPORTED_NODE}; see the README's requirements): it may fail in ways the supported releases do not`;
}

module.exports = { SUPPORTED_NODE, unsupportedRuntimeLine };
