import { DiscordError, type ErrorLeaf, type ErrorTree } from '@acs/discord-errors';

/** The error tree of the 400 / 50035 that `run` throws; fails when it throws nothing or another error. */
export function formErrorsOf(run: () => unknown): ErrorTree {
  const error = discordErrorOf(run);
  expect({ status: error.httpStatus, code: error.code, message: error.message }).toEqual({
    status: 400,
    code: 50035,
    message: 'Invalid Form Body',
  });
  return error.errors ?? {};
}

/** The DiscordError `run` throws; fails when it throws nothing or something else. */
export function discordErrorOf(run: () => unknown): DiscordError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiscordError) return error;
    throw error;
  }
  throw new Error('expected a DiscordError');
}

/** A tree with exactly one error at `path`; the message is checked when given. */
export function oneError(path: (string | number)[], code: string, message?: string): ErrorTree {
  const leaves: ErrorLeaf[] = [{ code, message: message ?? (expect.any(String) as unknown as string) }];
  let tree: ErrorTree = { _errors: leaves };
  for (const segment of [...path].reverse()) tree = { [String(segment)]: tree };
  return tree;
}

/** The codes recorded exactly at `path` (not below it). */
export function codesAt(tree: ErrorTree, path: (string | number)[]): string[] {
  let node: ErrorTree | undefined = tree;
  for (const segment of path) node = node?.[String(segment)] as ErrorTree | undefined;
  return (node?._errors ?? []).map((leaf) => leaf.code);
}
