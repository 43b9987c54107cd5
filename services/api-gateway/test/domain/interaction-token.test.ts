import {
  isWellFormedInteractionToken,
  MAX_INTERACTION_TOKEN_LENGTH,
} from '../../src/domain/interaction-token';

describe('an interaction token at the edge', () => {
  it('is base64url and dots, of at most 512 characters', () => {
    expect(isWellFormedInteractionToken('aW50ZXJhY3Rpb246MTIzOmFi-_')).toBe(true);
    expect(isWellFormedInteractionToken('aW50.ZXJh.Y3Rp')).toBe(true);
    expect(isWellFormedInteractionToken('x'.repeat(MAX_INTERACTION_TOKEN_LENGTH))).toBe(true);
    expect(MAX_INTERACTION_TOKEN_LENGTH).toBe(512);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(MAX_INTERACTION_TOKEN_LENGTH + 1)],
    ['with a slash', 'a/b'],
    ['with base64 padding', 'YQ=='],
    ['with a plus', 'a+b'],
    ['with a space', 'a b'],
    ['with a non-ASCII letter', 'tökén'],
  ])('is not %s', (_name, token) => {
    expect(isWellFormedInteractionToken(token)).toBe(false);
  });
});
