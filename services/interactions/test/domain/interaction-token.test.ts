import { randomBytes } from 'node:crypto';
import {
  formatInteractionToken,
  hashInteractionToken,
  interactionIdOfToken,
  matchesTokenHash,
} from '../../src/domain/interaction-token';

describe('interaction tokens', () => {
  const id = '1700000000000000001';
  const token = formatInteractionToken(id, randomBytes(32).toString('hex'));

  it('name their interaction, readable before any lookup', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, 'base64url').toString()).toMatch(
      /^interaction:1700000000000000001:[0-9a-f]{64}$/,
    );
    expect(interactionIdOfToken(token)).toBe(id);
  });

  it('refuse text that is no token', () => {
    for (const text of [
      '',
      'not-the-token',
      'a'.repeat(600),
      Buffer.from('interaction:12:zz').toString('base64url'),
    ]) {
      expect(interactionIdOfToken(text)).toBeUndefined();
    }
  });

  it('match only their own hash', () => {
    const other = formatInteractionToken(id, randomBytes(32).toString('hex'));
    expect(matchesTokenHash(token, hashInteractionToken(token))).toBe(true);
    expect(matchesTokenHash(other, hashInteractionToken(token))).toBe(false);
    expect(matchesTokenHash(token, Buffer.alloc(3))).toBe(false);
  });
});
