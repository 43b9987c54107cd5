import { matchesTokenHash } from '../interaction-token';
import { InvalidWebhookTokenError, UnknownInteractionError } from './callback-errors';

/** What a token is checked against: the interaction its id names, as stored. */
export interface TokenHolder {
  applicationId: string;
  tokenHash: Buffer;
  /** The token's lifetime is over. */
  expired: boolean;
}

/**
 * The callback route's check: the interaction exists and the token is its own (compared
 * in constant time); else 404 / 10062, which is also what a missed deadline answers, so
 * that the route tells a stranger nothing about which interactions exist.
 */
export function checkCallbackToken<T extends TokenHolder>(
  holder: T | undefined,
  token: string,
): asserts holder is T {
  if (!holder || !matchesTokenHash(token, holder.tokenHash)) throw new UnknownInteractionError();
}

/**
 * The webhook routes' check: the token is an interaction token of this application,
 * the interaction's own, and within its lifetime; else 401 / 50027 (A6).
 */
export function checkWebhookToken<T extends TokenHolder>(
  holder: T | undefined,
  applicationId: string,
  token: string,
): asserts holder is T {
  if (
    !holder ||
    holder.applicationId !== applicationId ||
    !matchesTokenHash(token, holder.tokenHash) ||
    holder.expired
  ) {
    throw new InvalidWebhookTokenError();
  }
}
