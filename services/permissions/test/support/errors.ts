import { DiscordError, type ErrorTree } from '@acs/discord-errors';
import { fromGrpcError } from '@acs/service-kit';

/** The DiscordError `run` throws (sync or async); fails when it throws nothing or something else. */
export async function discordErrorOf(run: () => unknown): Promise<DiscordError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DiscordError) return error;
    throw error;
  }
  throw new Error('expected a DiscordError');
}

/** The 50035 error tree `run` throws synchronously. */
export function formErrorsOf(run: () => unknown): ErrorTree {
  try {
    run();
  } catch (error) {
    if (error instanceof DiscordError && error.code === 50035) {
      expect(error.httpStatus).toBe(400);
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

/** The Discord error a failed gRPC call carries; fails when the call succeeds. */
export async function errorOf(call: Promise<unknown>): Promise<DiscordError> {
  try {
    await call;
  } catch (error) {
    const discord = fromGrpcError(error);
    if (discord) return discord;
    throw error;
  }
  throw new Error('expected the call to fail');
}
