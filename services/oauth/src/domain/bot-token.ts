import { randomToken } from './random-token';

/** Characters of the random third part (the real service's current tokens carry 38). */
const SECRET_PART_LENGTH = 38;

/**
 * A bot token in the real service's three-part shape: base64 of the bot's user id, a dot,
 * base64 of the creation time (Unix seconds, 4 bytes), a dot, random URL-safe characters.
 * Clients such as discord.js read the bot id from the first part, so it must be exact.
 */
export function generateBotToken(applicationId: string, now: Date = new Date()): string {
  const seconds = Buffer.alloc(4);
  seconds.writeUInt32BE(Math.floor(now.getTime() / 1000));
  const idPart = Buffer.from(applicationId, 'utf8').toString('base64url');
  return `${idPart}.${seconds.toString('base64url')}.${randomToken(SECRET_PART_LENGTH)}`;
}

/** Whether a string has a bot token's shape, so that garbage is refused without a lookup. */
export function hasBotTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{1,40}\.[A-Za-z0-9_-]{4,12}\.[A-Za-z0-9_-]{20,100}$/.test(token);
}
