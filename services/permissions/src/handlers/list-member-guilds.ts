import type { permissions } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import { requireBitSet } from '@acs/validation';
import { computeBasePermissions } from '../domain/compute-base-permissions';
import type { ListMemberGuildsStore, MemberGuildRow } from '../store/list-member-guilds-store';

/** Default and largest page of `GET /users/@me/guilds` (D:resources/user.mdx). */
const MAX_GUILDS_PAGE = 200;

/**
 * The ListMemberGuilds handler (`GET /users/@me/guilds`): partial guilds (OAS
 * `MyGuildResponse`) with `owner` and the user's guild-level permissions as a string. With
 * grants (a bot's installations), the granted bits count as one more role of the user's.
 */
export function createListMemberGuildsHandler(store: ListMemberGuildsStore) {
  return async function ListMemberGuilds(
    request: permissions.ListMemberGuildsRequest__Output,
  ): Promise<permissions.ListMemberGuildsResponse> {
    const userId = readPathSnowflake('user_id', request.user_id);
    const granted = new Map(
      request.grants.map((g) => [
        readPathSnowflake('guild_id', g.guild_id),
        requireBitSet('permissions', g.permissions),
      ]),
    );
    const rows = await store.listMemberGuilds({
      userId,
      guildIds: request.use_grants ? [...granted.keys()] : null,
      before: request.before === '' ? null : readPathSnowflake('before', request.before),
      after: request.after === '' ? null : readPathSnowflake('after', request.after),
      limit: request.limit >= 1 && request.limit <= MAX_GUILDS_PAGE ? request.limit : MAX_GUILDS_PAGE,
      withCounts: request.with_counts,
    });
    const guilds = rows.map((row) => renderMyGuild(row, userId, granted.get(row.id), request.with_counts));
    return { guilds_json: JSON.stringify(guilds) };
  };
}

function renderMyGuild(
  row: MemberGuildRow,
  userId: string,
  granted: bigint | undefined,
  withCounts: boolean,
): Record<string, unknown> {
  const permissions = computeBasePermissions({
    isOwner: row.ownerId === userId,
    everyonePermissions: row.everyonePermissions,
    rolePermissions: granted === undefined ? row.rolePermissions : [...row.rolePermissions, granted],
  });
  return {
    id: row.id,
    name: row.name,
    icon: null,
    banner: null,
    owner: row.ownerId === userId,
    permissions: permissions.toString(),
    features: [],
    // Presence is not modelled: no one is counted online.
    ...(withCounts ? { approximate_member_count: row.memberCount ?? 0, approximate_presence_count: 0 } : {}),
  };
}
