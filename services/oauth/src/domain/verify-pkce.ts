import { createHash, timingSafeEqual } from 'node:crypto';
import { MAX_CODE_VERIFIER_LENGTH, MIN_CODE_VERIFIER_LENGTH } from './limits';

const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]+$/;

/** Whether a code verifier hashes to the stored S256 challenge (RFC 7636 §4.6), in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (
    verifier.length < MIN_CODE_VERIFIER_LENGTH ||
    verifier.length > MAX_CODE_VERIFIER_LENGTH ||
    !VERIFIER_PATTERN.test(verifier)
  ) {
    return false;
  }
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
