import { checkCommandLimit } from '../../src/domain/check-command-limit';
import { checkDailyCreates } from '../../src/domain/check-daily-creates';
import { MaxCommandsError, MaxDailyCreatesError } from '../../src/domain/command-errors';

describe('checkCommandLimit', () => {
  it.each([
    [1, 100],
    [2, 15],
    [3, 15],
    [4, 1],
  ] as const)('lets type %i reach %i commands and refuses one more with 30032', (type, limit) => {
    expect(() => checkCommandLimit(type, limit - 1)).not.toThrow();
    const refusal = (() => {
      try {
        checkCommandLimit(type, limit);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(MaxCommandsError);
    expect(refusal).toMatchObject({ httpStatus: 400, code: 30032, limit });
  });
});

describe('checkDailyCreates', () => {
  it('lets the creates that fit in what remains pass and refuses one more with 30034', () => {
    expect(() => checkDailyCreates(3, 3)).not.toThrow();
    expect(() => checkDailyCreates(3, 4)).toThrow(MaxDailyCreatesError);
    expect(() => checkDailyCreates(0, 1)).toThrow(expect.objectContaining({ code: 30034 }));
  });

  it('always passes zero new commands, even with nothing left', () => {
    expect(() => checkDailyCreates(0, 0)).not.toThrow();
  });
});
