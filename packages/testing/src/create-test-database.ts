import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { findTestServers } from './find-servers';

/** A fresh database for one test file. */
export interface TestDatabase {
  /** Base URL of the new database (no search_path: services add their own). */
  url: string;
  natsUrl: string;
  drop(): Promise<void>;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Templates are kept while in use; one no run has cloned for this long is dropped. */
const TEMPLATE_UNUSED_MS = 24 * 60 * 60 * 1000;

/** Serializes building templates across the test processes sharing one PostgreSQL. */
const TEMPLATE_LOCK = 'acs_test_templates';

/**
 * Creates a database of its own for a test file, so that files run in parallel, holding
 * the schemas of the given services (folders under services/) as their migrations leave
 * them.
 *
 * The migrations run once per set of services and migration files: the first caller
 * applies them, with the same tool `npm start` uses, to a template database named by a
 * hash of those files, and every test database is a copy of it (`CREATE DATABASE …
 * TEMPLATE`, a fraction of a second where the seven services' Prisma runs take several
 * seconds of CPU). Editing a migration changes the hash, so a new template is built.
 */
export async function createTestDatabase(services: string[]): Promise<TestDatabase> {
  const { postgresUrl, natsUrl } = await findTestServers();
  const name = `acs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(postgresUrl, async (c) => {
    const template = services.length === 0 ? undefined : await ensureTemplate(c, postgresUrl, services);
    await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  });
  return {
    url: databaseUrl(postgresUrl, name),
    natsUrl,
    drop: () =>
      withAdmin(postgresUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/** This process's templates, known to exist (each is looked up and marked used once). */
const knownTemplates = new Set<string>();

/**
 * The name of a template database holding the services' migrated schemas, building it
 * first when no test run has: under an advisory lock, into a database of another name
 * that is renamed only once every migration applied (a failed or interrupted build is
 * never cloned).
 */
async function ensureTemplate(admin: Client, postgresUrl: string, services: string[]): Promise<string> {
  const template = `acs_tpl_${migrationsHash(services)}`;
  if (knownTemplates.has(template)) return template;
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_LOCK]);
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (found.rowCount === 0) await buildTemplate(admin, postgresUrl, services, template);
    await admin.query(`COMMENT ON DATABASE ${template} IS '${new Date().toISOString()}'`);
    await dropUnusedTemplates(admin, template);
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [TEMPLATE_LOCK]);
  }
  knownTemplates.add(template);
  return template;
}

async function buildTemplate(
  admin: Client,
  postgresUrl: string,
  services: string[],
  template: string,
): Promise<void> {
  const building = `${template}_b${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${building}`);
  try {
    // The launcher's runner: it ends each Prisma CLI run as soon as it reports success
    // (the CLI itself lingers ~10 s after a WebAssembly migration).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { migrateServices } = require(path.join(REPO_ROOT, 'infra', 'src', 'migrate-services.js')) as {
      migrateServices(services: Array<{ name: string; dir: string }>, databaseUrl: string): Promise<void>;
    };
    await migrateServices(
      services.map((service) => ({ name: service, dir: serviceDir(service) })),
      databaseUrl(postgresUrl, building),
    );
    // A database is copied or renamed only with nobody connected: the ended CLI's
    // connection may not have closed yet.
    await disconnectEveryone(admin, building);
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    throw error;
  }
}

/** Ends every session on the database and returns once PostgreSQL has let them go. */
async function disconnectEveryone(admin: Client, database: string): Promise<void> {
  for (;;) {
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
      [database],
    );
    if (rowCount === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Drops the templates of older migration files that no run has cloned for a day. */
async function dropUnusedTemplates(admin: Client, current: string): Promise<void> {
  const templates = await admin.query<{ datname: string; used: string | null }>(
    `SELECT d.datname, shobj_description(d.oid, 'pg_database') AS used
       FROM pg_database d WHERE d.datname LIKE 'acs\\_tpl\\_%' AND d.datname <> $1`,
    [current],
  );
  for (const { datname, used } of templates.rows) {
    const usedAt = Date.parse(used ?? '');
    if (Number.isNaN(usedAt) || Date.now() - usedAt > TEMPLATE_UNUSED_MS) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  }
}

/** A hash of the services' names and every file of their migrations, names and bytes. */
function migrationsHash(services: string[]): string {
  const hash = createHash('sha256');
  for (const service of [...services].sort()) {
    hash.update(`service\0${service}\0`);
    const dir = path.join(serviceDir(service), 'prisma', 'migrations');
    for (const file of listFiles(dir)) {
      hash.update(`${path.relative(dir, file)}\0`);
      hash.update(fs.readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex').slice(0, 20);
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : [full];
    });
}

function serviceDir(service: string): string {
  return path.join(REPO_ROOT, 'services', service);
}

function databaseUrl(postgresUrl: string, name: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
