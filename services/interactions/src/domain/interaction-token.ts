import { createHash, timingSafeEqual } from 'node:crypto';
import { isSnowflake } from '@acs/snowflake';

/** What an interaction token says before it is checked: the interaction it names. */
const TOKEN_PREFIX = 'interaction:';

/** Longest token text read (the real ones are ~120 characters): longer is no token. */
const MAX_TOKEN_LENGTH = 512;

/**
 * The token of an interaction: `base64url("interaction:" + id + ":" + secret)`, where the
 * secret is 32 random bytes in hex. The id is readable from the token, so that a callback
 * finds its row by primary key; only the token's SHA-256 is stored.
 */
export function formatInteractionToken(interactionId: string, secretHex: string): string {
  return Buffer.from(`${TOKEN_PREFIX}${interactionId}:${secretHex}`).toString('base64url');
}

/** The interaction id a token names, or undefined when the text is no interaction token. */
export function interactionIdOfToken(token: string): string | undefined {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token))
    return undefined;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const match = /^interaction:(\d{1,20}):[0-9a-f]{64}$/.exec(text);
  const id = match?.[1];
  return id !== undefined && isSnowflake(id) ? id : undefined;
}

/** SHA-256 of a token: what the interaction row keeps. */
export function hashInteractionToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Whether `token` is the one whose hash is stored, compared in constant time. */
export function matchesTokenHash(token: string, storedHash: Buffer): boolean {
  const hash = hashInteractionToken(token);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}
