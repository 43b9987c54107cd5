import { validateCallback } from '../../../src/domain/callbacks';
import { checkWellFormedText, validateMessage, validateMessageEdit } from '../../../src/domain/messages';
import { discordErrorOf } from '../form-errors-of';

const MALFORMED = { code: 50109, message: 'The request body contains invalid JSON.' };

describe('text that is no Unicode', () => {
  it('is 400 / 50109 wherever a lone surrogate hides, value or key', () => {
    for (const run of [
      () => validateMessage({ content: 'a\ud800b' }),
      () => validateMessage({ content: 'ok', embeds: [{ title: '\udc00' }] }),
      () => validateMessageEdit({ content: 'x', ['\ud83d']: 1 }),
      () =>
        validateCallback(
          { type: 4, data: { content: 'x', unknown: ['\ud800'] } },
          { interactionType: 2, applicationFlags: 0 },
        ),
    ]) {
      const error = discordErrorOf(run);
      expect({ status: error.httpStatus, body: error.toBody() }).toEqual({ status: 400, body: MALFORMED });
    }
  });

  it('takes surrogate pairs', () => {
    expect(validateMessage({ content: '😀 \ud83d\ude00' }).content).toBe('😀 😀');
  });

  it('walks bodies nested deeper than the call stack', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => checkWellFormedText({ content: 'x', deep })).not.toThrow();
  });
});
