import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * The deployment's key named `name` (32 random bytes): made by the first replica that asks,
 * the same for every replica after it.
 */
export async function loadSigningKey(pool: Pool, name: string): Promise<Buffer> {
  await pool.query('INSERT INTO signing_key (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32),
  ]);
  // A statement of its own: it sees the row of whichever replica's INSERT won.
  const { rows } = await pool.query<{ secret: Buffer }>('SELECT secret FROM signing_key WHERE name = $1', [
    name,
  ]);
  return (rows[0] as { secret: Buffer }).secret;
}
