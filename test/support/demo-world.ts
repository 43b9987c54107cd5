import { adminExpect, type AdminRequest } from '../../infra/src/admin-client';
import { createDemoWorld as createWorld, type DemoWorld } from '../../infra/src/demo-world';
import type { TestStack } from './start-test-stack';

export type { DemoWorld };

/** The stack, or just its admin API caller (`stack.admin`). */
export type AdminTarget = Pick<TestStack, 'admin'> | AdminRequest;

const adminOf = (target: AdminTarget): AdminRequest => (typeof target === 'function' ? target : target.admin);

/**
 * The typical world of ADMIN-API.md (the one `npm start` seeds): a user owning a guild
 * with a role and a text channel, an application with its bot token and client secret,
 * installed in the guild with `bot applications.commands`. Throws with the admin API's
 * answer when a step fails.
 */
export function createDemoWorld(
  target: AdminTarget,
  names?: { username?: string; guildName?: string; applicationName?: string },
): Promise<DemoWorld> {
  return createWorld(adminOf(target), names);
}

/** A user (201 from POST /admin/users). */
export function createUser(
  target: AdminTarget,
  body: { username: string; global_name?: string; locale?: string; email?: string },
): Promise<{ id: string; username: string; [key: string]: unknown }> {
  return adminExpect(adminOf(target), 201, 'POST', '/admin/users', body);
}

/** A guild owned by `owner_id`, who becomes a member (its @everyone role's id is the guild id). */
export function createGuild(
  target: AdminTarget,
  body: { name: string; owner_id: string },
): Promise<{ id: string; name: string; owner_id: string; [key: string]: unknown }> {
  return adminExpect(adminOf(target), 201, 'POST', '/admin/guilds', body);
}

/** An application with its bot; the answer carries `bot_token` and `client_secret` this once. */
export function createApplication(
  target: AdminTarget,
  body: { name: string; owner_id?: string; [key: string]: unknown },
): Promise<{
  id: string;
  name: string;
  bot_token: string;
  client_secret: string;
  verify_key: string;
  [key: string]: unknown;
}> {
  return adminExpect(adminOf(target), 201, 'POST', '/admin/applications', body);
}

/** Installs an application in a guild the way a user with MANAGE_GUILD consents to it. */
export async function installApplication(
  target: AdminTarget,
  install: { applicationId: string; userId: string; guildId: string; scope?: string },
): Promise<void> {
  await adminExpect(adminOf(target), 200, 'POST', '/admin/oauth2/authorize', {
    client_id: install.applicationId,
    user_id: install.userId,
    guild_id: install.guildId,
    scope: install.scope ?? 'bot applications.commands',
  });
}
