import { createHash, timingSafeEqual } from 'node:crypto';

/** A SHA-256 digest as stored in a `bytea` column. */
export type Digest = Uint8Array<ArrayBuffer>;

/** The SHA-256 digest under which a token, secret or code is stored (never the raw value). */
export function hashSecret(raw: string): Digest {
  return new Uint8Array(createHash('sha256').update(raw, 'utf8').digest());
}

/** Whether a presented secret is the one stored as `storedHash`, compared in constant time. */
export function secretMatches(presented: string, storedHash: Uint8Array): boolean {
  const digest = hashSecret(presented);
  return storedHash.length === digest.length && timingSafeEqual(digest, storedHash);
}
