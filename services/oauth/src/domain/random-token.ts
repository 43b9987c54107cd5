import { randomBytes } from 'node:crypto';

/** `length` random URL-safe characters (base64url alphabet, 6 bits of entropy each). */
export function randomToken(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4))
    .toString('base64url')
    .slice(0, length);
}

/** A client secret: 32 random URL-safe characters, like the real service's. */
export function generateClientSecret(): string {
  return randomToken(32);
}

/** A chat-client session token: opaque, 48 random URL-safe characters (288 bits). */
export function generateSessionToken(): string {
  return randomToken(48);
}

/** An authorization code: 30 random URL-safe characters, the length of the real service's codes. */
export function generateAuthorizationCode(): string {
  return randomToken(30);
}
