import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { validateCommand, type NormalizedCommand } from '../../src/domain';
import { CommandStore, type CommandStoreOptions } from '../../src/store/command-store';

/** A store on a fresh database of its own, as a test file needs it. */
export interface OpenStore {
  db: TestDatabase;
  pool: Pool;
  store: CommandStore;
  /** A second store on the same database, as another replica would be. */
  replica: CommandStore;
  close(): Promise<void>;
}

let worker = 0;

/** Opens a store (and a replica) on a new database with the registry's migrations. */
export async function openStore(options: CommandStoreOptions = {}): Promise<OpenStore> {
  const db = await createTestDatabase(['command-registry']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA), max: 20 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  const make = () =>
    new CommandStore(pool, createSnowflakeGenerator({ workerId: worker++ % 32, processId: 1 }), options);
  return {
    db,
    pool,
    store: make(),
    replica: make(),
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}

/** A valid CHAT_INPUT command named `name`. */
export function slash(name: string, description = `Does ${name}`): NormalizedCommand {
  return validateCommand({ name, description }, { scope: 'global', applicationFlags: 0 });
}
