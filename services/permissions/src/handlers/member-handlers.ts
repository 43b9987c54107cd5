import type { permissions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { renderMember } from '../domain/render/render-member';
import { renderRole } from '../domain/render/render-role';
import { validateListGuildBots, validateListGuildMembers } from '../domain/validate-list-guild-members';
import { validateModifyMember } from '../domain/validate-modify-member';
import { readManagedRoleName, validatePutBotMember } from '../domain/validate-put-bot-member';
import { validatePutMember } from '../domain/validate-put-member';
import type { BotMemberStore } from '../store/bot-member-store';
import type { MemberStore } from '../store/member-store';

/** What the member RPCs work with. */
export interface MemberHandlerDeps {
  members: MemberStore;
  bots: BotMemberStore;
}

/**
 * The RPCs that add and remove a guild's members: users (the admin API) and bots with
 * their managed role (oauth); and that list them (the dispatcher's member requests and
 * its events' audience).
 */
export function createMemberHandlers({ members, bots }: MemberHandlerDeps) {
  return {
    async PutMember(request: permissions.PutMemberRequest__Output): Promise<permissions.PutMemberResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const input = validatePutMember(parseJsonBody(request.body_json));
      const { member, created } = await members.putMember(guildId, userId, input);
      return { member_json: JSON.stringify(renderMember(member)), created };
    },

    async ModifyMember(
      request: permissions.ModifyMemberRequest__Output,
    ): Promise<permissions.ModifyMemberResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const actorId = request.actor_id === '' ? null : readPathSnowflake('actor_id', request.actor_id);
      const input = validateModifyMember(parseJsonBody(request.body_json));
      const member = await members.modifyMember(guildId, userId, actorId, input);
      return { member_json: JSON.stringify(renderMember(member)) };
    },

    async RemoveMember(
      request: permissions.RemoveMemberRequest__Output,
    ): Promise<permissions.RemoveMemberResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      await members.removeMember(guildId, readPathSnowflake('user_id', request.user_id));
      return {};
    },

    async PutBotMember(
      request: permissions.PutBotMemberRequest__Output,
    ): Promise<permissions.PutBotMemberResponse> {
      const { member, role, created } = await bots.putBotMember(validatePutBotMember(request));
      return {
        member_json: JSON.stringify(renderMember(member)),
        role_json: role ? JSON.stringify(renderRole(role)) : '',
        created,
      };
    },

    async RemoveBotMember(
      request: permissions.RemoveBotMemberRequest__Output,
    ): Promise<permissions.RemoveBotMemberResponse> {
      const removed = await bots.removeBotMember(
        readPathSnowflake('guild_id', request.guild_id),
        readPathSnowflake('application_id', request.application_id),
      );
      return { removed };
    },

    async ListGuildBots(
      request: permissions.ListGuildBotsRequest__Output,
    ): Promise<permissions.ListGuildBotsResponse> {
      const guilds = await bots.listGuildBots(validateListGuildBots(request));
      return { guilds: guilds.map((g) => ({ guild_id: g.guildId, application_ids: g.applicationIds })) };
    },

    async ListGuildMembers(
      request: permissions.ListGuildMembersRequest__Output,
    ): Promise<permissions.ListGuildMembersResponse> {
      const { members: found, notFound } = await members.listGuildMembers(validateListGuildMembers(request));
      return { members_json: JSON.stringify(found.map(renderMember)), not_found: notFound };
    },

    async RenameManagedRoles(
      request: permissions.RenameManagedRolesRequest__Output,
    ): Promise<permissions.RenameManagedRolesResponse> {
      const botId = readPathSnowflake('application_id', request.application_id);
      const renamed = await bots.renameManagedRoles(botId, readManagedRoleName('name', request.name));
      return { renamed };
    },
  };
}
