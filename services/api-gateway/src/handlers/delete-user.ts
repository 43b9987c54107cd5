import { DiscordError } from '@acs/discord-errors';
import type { PeerClients } from '../clients/peer-clients';

/** Guilds asked for per page of the user's memberships (ListMemberGuilds takes 1-200). */
const MEMBER_GUILDS_PAGE = 200;

/** 400 / 40011: Discord's answer to deleting an account that still owns guilds. */
export class OwnsGuildsError extends DiscordError {
  constructor() {
    super(400, 40011, 'You must transfer ownership of any owned guilds before deleting your account');
  }
}

/**
 * DELETE /admin/users/{id}: refused with 404 / 10013 for no such user, 400 / 40011 while
 * they own a guild, and by oauth (400 / 50035 on `user_id`) for an application's bot user
 * or an owner of applications, before anything changes. Then oauth deletes the account
 * (sessions, tokens, grants; its `user.deleted` ends the gateway sessions on every
 * dispatcher replica), and permissions removes each guild membership (GUILD_MEMBER_REMOVE
 * to the guilds' bots).
 */
export async function deleteUser(
  { oauth, permissions }: Pick<PeerClients, 'oauth' | 'permissions'>,
  userId: string,
): Promise<void> {
  const user = JSON.parse(await oauth.getPublicUser(userId)) as { bot?: unknown };
  const guilds = await memberGuildsOf(permissions, userId);
  // A bot's refusal is oauth's to say (it never owns a guild it was not given).
  if (user.bot !== true && guilds.some((guild) => guild.owner)) throw new OwnsGuildsError();
  await oauth.deleteUser(userId);
  for (const guild of guilds) {
    await permissions.removeMember(guild.id, userId).catch((error: unknown) => {
      // Left meanwhile: nothing to remove.
      if (!(error instanceof DiscordError && error.httpStatus === 404)) throw error;
    });
  }
}

/** Every guild the user is a member of, with whether they own it. */
async function memberGuildsOf(
  permissions: PeerClients['permissions'],
  userId: string,
): Promise<{ id: string; owner: boolean }[]> {
  const guilds: { id: string; owner: boolean }[] = [];
  for (let after = ''; ;) {
    const page = JSON.parse(
      await permissions.listMemberGuilds({
        userId,
        before: '',
        after,
        limit: MEMBER_GUILDS_PAGE,
        withCounts: false,
      }),
    ) as { id: string; owner?: boolean }[];
    guilds.push(...page.map((guild) => ({ id: guild.id, owner: guild.owner === true })));
    const last = page.at(-1);
    if (page.length < MEMBER_GUILDS_PAGE || !last) return guilds;
    after = last.id;
  }
}
