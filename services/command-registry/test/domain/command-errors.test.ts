import {
  EntryPointBulkRemovalError,
  InvalidFormBodyError,
  MalformedJsonError,
  MaxCommandsError,
  MaxDailyCreatesError,
  MissingAccessError,
  UnknownCommandError,
} from '../../src/domain/command-errors';
import { DiscordError } from '@acs/discord-errors';
import { FormErrors } from '@acs/validation';

describe('command errors', () => {
  it.each([
    [new MalformedJsonError(), 400, 50109, 'The request body contains invalid JSON.'],
    [new UnknownCommandError(), 404, 10063, 'Unknown application command'],
    [new MaxCommandsError(100), 400, 30032, 'Maximum number of application commands reached (100)'],
    [new MaxCommandsError(15), 400, 30032, 'Maximum number of application commands reached (15)'],
    [
      new MaxDailyCreatesError(),
      400,
      30034,
      'Max number of daily application command creates has been reached (200)',
    ],
    [new MissingAccessError(), 403, 50001, 'Missing Access'],
    [
      new EntryPointBulkRemovalError(),
      400,
      50240,
      "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
    ],
  ])('%p answers %p / %p', (error, httpStatus, code, message) => {
    expect(error).toBeInstanceOf(DiscordError);
    expect(error).toBeInstanceOf(Error);
    expect(error.httpStatus).toBe(httpStatus);
    expect(error.toBody()).toEqual({ code, message });
    expect(error.toBody()).not.toHaveProperty('errors');
  });

  it('InvalidFormBodyError carries the tree, from a FormErrors or a plain tree', () => {
    const errors = new FormErrors();
    errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
    const tree = { name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } };
    for (const error of [new InvalidFormBodyError(errors), new InvalidFormBodyError(tree)]) {
      expect(error.httpStatus).toBe(400);
      expect(error.toBody()).toEqual({ code: 50035, message: 'Invalid Form Body', errors: tree });
    }
  });

  it('names errors after their class', () => {
    expect(new UnknownCommandError().name).toBe('UnknownCommandError');
  });
});
