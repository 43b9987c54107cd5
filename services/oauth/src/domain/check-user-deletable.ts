import { fieldError, type DiscordError } from '@acs/discord-errors';

/** What deciding whether a user may be deleted reads. */
export interface UserDeletionFacts {
  /** The user is an application's bot user. */
  isBot: boolean;
  /** The applications the user owns (`owner_id`), by id. */
  ownedApplicationIds: readonly string[];
}

/**
 * Why a user may not be deleted (DELETE /admin/users/{id}), or undefined when they may.
 * Discord deletes a bot only with its application, and an account only once it owns
 * nothing others depend on ([Inf]: ACS answers 400 / 50035 with a field error on
 * `user_id` that says what to do instead; guilds are permissions' and refused with 40011
 * by the route).
 */
export function userDeletionRefusal(facts: UserDeletionFacts): DiscordError | undefined {
  if (facts.isBot) {
    return fieldError(
      'user_id',
      'USER_IS_APPLICATION_BOT',
      "This user is an application's bot user: delete the application instead (DELETE /admin/applications/{id}).",
    );
  }
  if (facts.ownedApplicationIds.length > 0) {
    return fieldError(
      'user_id',
      'USER_OWNS_APPLICATIONS',
      `This user owns applications (${facts.ownedApplicationIds.join(', ')}): delete them or give them another owner (PATCH /admin/applications/{id} owner_id) first.`,
    );
  }
  return undefined;
}
