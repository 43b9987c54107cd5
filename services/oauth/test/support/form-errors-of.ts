import { InvalidFormBodyError, type ErrorTree } from '@acs/discord-errors';

/** The error tree of the 400 / 50035 that `run` throws; fails when it throws nothing or something else. */
export function formErrorsOf(run: () => unknown): ErrorTree {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidFormBodyError) {
      expect(error.httpStatus).toBe(400);
      expect(error.code).toBe(50035);
      expect(error.message).toBe('Invalid Form Body');
      return error.errors ?? {};
    }
    throw error;
  }
  throw new Error('expected an InvalidFormBodyError');
}

/** A tree with one error at `path`. */
export function oneError(path: (string | number)[], code: string, message: string): ErrorTree {
  let tree: ErrorTree = { _errors: [{ code, message }] };
  for (const segment of [...path].reverse()) tree = { [String(segment)]: tree };
  return tree;
}
