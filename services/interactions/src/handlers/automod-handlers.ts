import type { interactions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { PERMISSION_FLAGS } from '@acs/validation';
import { assertMayManageRules, readAutoModRule } from '../domain/automod';
import type { PermissionsClient } from '../clients/permissions-client';
import type { AutoModStore } from '../store/automod-store';

/** What the AutoMod rule RPCs need. */
export interface AutoModHandlerDeps {
  permissions: PermissionsClient;
  automod: AutoModStore;
}

/** The permissions a rule route weighs: MANAGE_GUILD, and MODERATE_MEMBERS for a TIMEOUT action. */
const RULE_PERMISSIONS = PERMISSION_FLAGS.MANAGE_GUILD | PERMISSION_FLAGS.MODERATE_MEMBERS;

/**
 * The AutoMod rule routes (D:resources/auto-moderation.mdx): list, get, create, modify and
 * delete a guild's rules, each for a caller with MANAGE_GUILD there (permissions answers
 * 404 / 10004 for an unknown guild). `X-Audit-Log-Reason` is accepted; ACS keeps no audit log.
 */
export function createAutoModHandlers({ permissions, automod }: AutoModHandlerDeps) {
  async function manager(req: interactions.AutoModRuleRequest__Output) {
    const guildId = readPathSnowflake('guild_id', req.guild_id);
    const userId = readPathSnowflake('user_id', req.user_id);
    return { guildId, userId, standing: await permissions.ruleManager(guildId, userId, RULE_PERMISSIONS) };
  }

  return {
    async ListAutoModRules(
      req: interactions.AutoModRuleRequest__Output,
    ): Promise<interactions.AutoModRulesResponse> {
      const { guildId, standing } = await manager(req);
      assertMayManageRules(standing);
      return { rules_json: JSON.stringify(await automod.list(guildId)) };
    },

    async GetAutoModRule(
      req: interactions.AutoModRuleRequest__Output,
    ): Promise<interactions.AutoModRuleResponse> {
      const ruleId = readPathSnowflake('rule_id', req.rule_id);
      const { guildId, standing } = await manager(req);
      assertMayManageRules(standing);
      return { rule_json: JSON.stringify(await automod.get(guildId, ruleId)) };
    },

    async CreateAutoModRule(
      req: interactions.AutoModRuleRequest__Output,
    ): Promise<interactions.AutoModRuleResponse> {
      const { guildId, userId, standing } = await manager(req);
      assertMayManageRules(standing);
      const fields = readAutoModRule(parseJsonBody(req.body_json));
      assertMayManageRules(standing, fields.actions);
      const rule = await automod.create(guildId, userId, fields, await permissions.guildFacts(guildId));
      return { rule_json: JSON.stringify(rule) };
    },

    async UpdateAutoModRule(
      req: interactions.AutoModRuleRequest__Output,
    ): Promise<interactions.AutoModRuleResponse> {
      const ruleId = readPathSnowflake('rule_id', req.rule_id);
      const { guildId, standing } = await manager(req);
      assertMayManageRules(standing);
      const body = parseJsonBody(req.body_json);
      const rule = await automod.update(
        guildId,
        ruleId,
        body,
        await permissions.guildFacts(guildId),
        standing,
      );
      return { rule_json: JSON.stringify(rule) };
    },

    async DeleteAutoModRule(
      req: interactions.AutoModRuleRequest__Output,
    ): Promise<interactions.AutoModRuleResponse> {
      const ruleId = readPathSnowflake('rule_id', req.rule_id);
      const { guildId, standing } = await manager(req);
      assertMayManageRules(standing);
      return { rule_json: JSON.stringify(await automod.remove(guildId, ruleId)) };
    },
  };
}
