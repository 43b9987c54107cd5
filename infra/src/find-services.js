'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * @typedef {object} ServiceFolder
 * @property {string} name
 * @property {string} dir         absolute path of services/<name>
 * @property {string} main        absolute path of dist/main.js
 * @property {boolean} isBuilt    dist/main.js exists
 * @property {boolean} hasPrisma  prisma/schema.prisma exists: the service owns a schema to migrate
 */

/** The service folders under `<root>/services` (those with a package.json), by name. */
function findServices(root) {
  const servicesDir = path.join(root, 'services');
  if (!fs.existsSync(servicesDir)) return [];
  return fs
    .readdirSync(servicesDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && fs.existsSync(path.join(servicesDir, entry.name, 'package.json')),
    )
    .map((entry) => {
      const dir = path.join(servicesDir, entry.name);
      const main = path.join(dir, 'dist', 'main.js');
      return {
        name: entry.name,
        dir,
        main,
        isBuilt: fs.existsSync(main),
        hasPrisma: fs.existsSync(path.join(dir, 'prisma', 'schema.prisma')),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

module.exports = { findServices };
