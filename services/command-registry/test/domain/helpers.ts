import { InvalidFormBodyError } from '../../src/domain/command-errors';
import type { ErrorLeaf, ErrorTree } from '@acs/discord-errors';
import type { CommandContext } from '../../src/domain/normalized-command';
import { validateCommand } from '../../src/domain/validate-command';
import { EMBEDDED_FLAG } from '../../src/domain/limits';

export const GLOBAL: CommandContext = { scope: 'global', applicationFlags: 0 };
export const GLOBAL_EMBEDDED: CommandContext = { scope: 'global', applicationFlags: EMBEDDED_FLAG };
export const GUILD: CommandContext = { scope: 'guild', applicationFlags: 0 };

/** The error tree an InvalidFormBodyError thrown by `run` carries; fails when nothing is thrown. */
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

/** The error tree of validating one command. */
export function commandErrors(input: unknown, ctx: CommandContext = GLOBAL): ErrorTree {
  return formErrorsOf(() => validateCommand(input, ctx));
}

/** A tree holding exactly the given leaves at `path`. */
export function treeAt(path: (string | number)[], leaves: ErrorLeaf[]): ErrorTree {
  let tree: ErrorTree = { _errors: leaves };
  for (const segment of [...path].reverse()) tree = { [String(segment)]: tree };
  return tree;
}

/** A tree with one error at `path`; the message is checked when given. */
export function oneError(path: (string | number)[], code: string, message?: string): ErrorTree {
  return treeAt(path, [{ code, message: message ?? (expect.any(String) as unknown as string) }]);
}

/** The codes recorded exactly at `path` (not below it). */
export function codesAt(tree: ErrorTree, path: (string | number)[]): string[] {
  let node: ErrorTree | undefined = tree;
  for (const segment of path) node = node?.[String(segment)] as ErrorTree | undefined;
  return (node?._errors ?? []).map((leaf) => leaf.code);
}

/** A valid CHAT_INPUT command with the given overrides. */
export function slash(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'ping', description: 'Replies with pong', ...overrides };
}

/** A valid STRING option with the given overrides. */
export function stringOption(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 3, name: 'text', description: 'Some text', ...overrides };
}

/** A CHAT_INPUT command whose single option is `option`. */
export function withOption(option: unknown): Record<string, unknown> {
  return slash({ options: [option] });
}

/** A NewId that counts from `start` (stands for the store's snowflake generator). */
export function counter(start = 1000): () => string {
  let next = start;
  return () => String(next++);
}
