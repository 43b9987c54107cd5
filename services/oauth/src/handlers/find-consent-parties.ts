import { InvalidFormBodyError } from '@acs/discord-errors';
import { ErrorCode } from '../domain/error-codes';
import { FormErrors } from '@acs/validation';
import type { AuthorizingApplication } from '../domain/plan-authorization';
import type { UserRecord } from '../domain/records';
import type { AuthorizeInput } from '../domain/validate-authorize-body';
import type { HandlerDeps } from './handler-deps';

/**
 * The application (`client_id`) and the consenting user (`user_id`) of a consent; an
 * unknown one is a 400 field error, both reported at once. Bot users cannot consent.
 */
export async function findConsentParties(
  { applications, users }: HandlerDeps,
  input: AuthorizeInput,
): Promise<{ application: AuthorizingApplication & { name: string }; user: UserRecord }> {
  const [application, user] = await Promise.all([
    applications.findAuthorizing(BigInt(input.clientId)),
    users.find(BigInt(input.userId)),
  ]);
  if (application && user && !user.bot) return { application, user };
  const errors = new FormErrors();
  if (!application) errors.add(['client_id'], ErrorCode.UNKNOWN_APPLICATION, 'Unknown Application');
  if (!user || user.bot) errors.add(['user_id'], ErrorCode.UNKNOWN_USER, 'Unknown User');
  throw new InvalidFormBodyError(errors.toJSON());
}
