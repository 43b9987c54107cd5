import type { commandRegistry } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import {
  mergeCommandPatch,
  MissingAccessError,
  validateBulk,
  validateCommand,
  type CommandContext,
  type CreateQuota,
} from '../domain';
import { allowsCommands } from '../domain/allows-commands';
import { LAUNCH_COMMAND } from '../domain/launch-command';
import type { OAuthClient } from '../clients/oauth-client';
import type { CommandStore } from '../store/command-store';
import { renderCommand } from '../store/render-command';
import type { CommandScope } from '../store/stored-command';

/** What the command handlers need. */
export interface CommandHandlerDeps {
  store: CommandStore;
  oauth: OAuthClient;
}

/**
 * The RPCs of one scope's commands (api-gateway's `/applications/{id}/commands` and
 * `/applications/{id}/guilds/{id}/commands` routes): translate, call the store, translate back.
 */
export function createCommandHandlers({ store, oauth }: CommandHandlerDeps) {
  /** Guild commands exist only where the app is installed with `applications.commands` (else 50001). */
  async function assertInstalled(scope: CommandScope): Promise<void> {
    if (scope.guildId === '') return;
    const scopes = await oauth.installationScopes(scope.applicationId, scope.guildId);
    if (!allowsCommands(scopes)) throw new MissingAccessError();
  }

  /** The scope's create quota after the call's work, for the X-Command-Creates-* headers. */
  const quotaOf = async (scope: CommandScope) => wireQuota(await store.createQuota(scope));

  return {
    async ListCommands(req: commandRegistry.ListCommandsRequest__Output) {
      const scope = scopeOf(req);
      await assertInstalled(scope);
      const { json, quota } = await store.list(scope, {
        withLocalizations: req.with_localizations,
        locale: req.locale,
      });
      return { commands_json: json, quota: wireQuota(quota) };
    },

    async GetCommand(req: commandRegistry.GetCommandRequest__Output) {
      const scope = scopeOf(req);
      await assertInstalled(scope);
      const stored = await store.get(scope, readPathSnowflake('command_id', req.command_id));
      return { command_json: JSON.stringify(renderCommand(stored)), quota: await quotaOf(scope) };
    },

    async CreateCommand(req: commandRegistry.CreateCommandRequest__Output) {
      const scope = scopeOf(req);
      const command = validateCommand(parseJsonBody(req.body_json), contextOf(scope, req.application_flags));
      await assertInstalled(scope);
      const { stored, created } = await store.upsert(scope, command);
      return { command_json: JSON.stringify(renderCommand(stored)), created, quota: await quotaOf(scope) };
    },

    async EditCommand(req: commandRegistry.EditCommandRequest__Output) {
      const scope = scopeOf(req);
      const patch = parseJsonBody(req.body_json);
      await assertInstalled(scope);
      const ctx = contextOf(scope, req.application_flags);
      const stored = await store.edit(scope, readPathSnowflake('command_id', req.command_id), (current) =>
        validateCommand(mergeCommandPatch(current, patch), ctx),
      );
      return { command_json: JSON.stringify(renderCommand(stored)), quota: await quotaOf(scope) };
    },

    async DeleteCommand(req: commandRegistry.DeleteCommandRequest__Output) {
      const scope = scopeOf(req);
      await assertInstalled(scope);
      await store.remove(scope, readPathSnowflake('command_id', req.command_id));
      return { quota: await quotaOf(scope) };
    },

    async BulkOverwriteCommands(req: commandRegistry.BulkOverwriteCommandsRequest__Output) {
      const scope = scopeOf(req);
      const items = validateBulk(parseJsonBody(req.body_json), contextOf(scope, req.application_flags));
      await assertInstalled(scope);
      const { commands, changed } = await store.overwrite(scope, items);
      return {
        commands_json: JSON.stringify(commands.map((s) => renderCommand(s))),
        changed,
        quota: await quotaOf(scope),
      };
    },

    async PreviewBulkOverwrite(req: commandRegistry.PreviewBulkOverwriteRequest__Output) {
      // The PUT's checks in the PUT's order: the body, the installation, then the store's.
      const scope = scopeOf(req);
      const items = validateBulk(parseJsonBody(req.body_json), contextOf(scope, req.application_flags));
      await assertInstalled(scope);
      const { diff, createsCounted, quota } = await store.previewOverwrite(scope, items);
      const diff_json = JSON.stringify({
        ...diff,
        creates_counted: createsCounted,
        // After the PUT: the store refused a PUT that would count more than what remains (30034).
        creates_remaining: quota.remaining - createsCounted,
      });
      const changed = diff.created.length + diff.updated.length + diff.deleted.length > 0;
      return { diff_json, changed, quota: wireQuota(quota) };
    },

    async GetCreateQuota(req: commandRegistry.GetCreateQuotaRequest__Output) {
      return { quota: await quotaOf(scopeOf(req)) };
    },

    async EnsureEntryPoint(req: commandRegistry.EnsureEntryPointRequest__Output) {
      const scope = { applicationId: readPathSnowflake('application_id', req.application_id), guildId: '' };
      const command = validateCommand(LAUNCH_COMMAND, contextOf(scope, req.application_flags));
      const { stored, created } = await store.ensureEntryPoint(req.application_id, command);
      return { command_json: JSON.stringify(renderCommand(stored)), created };
    },
  };
}

/** A quota as command-registry's answers carry it. */
function wireQuota(quota: CreateQuota): commandRegistry.CreateQuota {
  return { remaining: quota.remaining, reset_after_ms: quota.resetAfterMs };
}

/**
 * The scope a request names. Its ids are checked here too, not only at api-gateway: any
 * caller of this service gets 50035 for an id that is no snowflake or exceeds 2^63 − 1
 * (the one id rule of `readPathSnowflake`), never a database error.
 */
function scopeOf(req: { application_id: string; guild_id?: string }): CommandScope {
  const guildId = req.guild_id ?? '';
  return {
    applicationId: readPathSnowflake('application_id', req.application_id),
    guildId: guildId === '' ? '' : readPathSnowflake('guild_id', guildId),
  };
}

function contextOf(scope: CommandScope, applicationFlags: number): CommandContext {
  return { scope: scope.guildId === '' ? 'global' : 'guild', applicationFlags: Number(applicationFlags) };
}
