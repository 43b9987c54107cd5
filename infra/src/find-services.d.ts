// Types of find-services.js for the TypeScript that uses it (test/support).
export interface ServiceFolder {
  name: string;
  /** absolute path of services/<name> */
  dir: string;
  /** absolute path of dist/main.js */
  main: string;
  /** dist/main.js exists */
  isBuilt: boolean;
  /** prisma/schema.prisma exists: the service owns a schema to migrate */
  hasPrisma: boolean;
}

/** The service folders under `<root>/services` (those with a package.json), by name. */
export function findServices(root: string): ServiceFolder[];
