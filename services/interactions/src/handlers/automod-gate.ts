import type { PoolClient } from 'pg';
import { DiscordError } from '@acs/discord-errors';
import type { JsonObject } from '@acs/validation';
import { PERMISSION_FLAGS } from '@acs/validation';
import {
  MessageBlockedError,
  judgeMessage,
  judgedMessageOf,
  planExecutions,
  type Verdict,
} from '../domain/automod';
import type { ChannelMessage } from '../domain/channel-messages';
import type { PermissionsClient } from '../clients/permissions-client';
import { type AutoModStore, writeExecutions } from '../store/automod-store';
import type { ChannelPlace } from '../store/channel-message-store';

/** What a kept message's AutoMod actions write, in the message's own transaction. */
export type WriteExecutions = (db: PoolClient, message: ChannelMessage) => Promise<void>;

/** What the gate works with: the guilds' rules, and permissions for the TIMEOUT action. */
export interface AutoModGateDeps {
  automod: AutoModStore;
  permissions: Pick<PermissionsClient, 'timeOutMember'>;
}

/** A message's verdict, as the message routes act on it. */
export interface GateOutcome {
  /** Writes the alerts and execution events with the message (undefined: nothing to write). */
  alsoWrite?: WriteExecutions;
}

/**
 * AutoMod at the door of `POST /channels/{id}/messages` and its edits: judges the content a
 * member sends in a guild channel they may send to (judgeMessage) and acts on the verdict.
 * A blocked message is refused with 400 / 200000 after its alerts and execution events are
 * written (without `message_id`); a kept one carries its executions into its own
 * transaction. Who is judged is ACS's choice, written in docs/architecture.md: users'
 * messages; bots' messages are exempt (Discord's Help Center: "bot messages are exempt"),
 * and interaction responses and follow-ups never pass here. A TIMEOUT action times the
 * sender out through permissions before anything is written (the longest of the matching
 * rules' `duration_seconds`, from now), so their next message is refused; a sender who
 * cannot be timed out (gone meanwhile) is left as they are.
 */
export async function passAutoMod(
  { automod, permissions }: AutoModGateDeps,
  place: ChannelPlace,
  author: JsonObject,
  content: string,
): Promise<GateOutcome> {
  const guildId = place.access.guildId;
  if (guildId === null || place.caller.applicationId !== null || content === '' || !maySend(place)) return {};
  const rules = await automod.rulesOf(guildId);
  if (rules.length === 0) return {};
  const verdict = judgeMessage(rules, judgedMessageOf(content), {
    userId: place.caller.userId,
    roleIds: place.access.roleIds ?? [],
    permissions: place.access.permissions,
    channelId: place.channelId,
  });
  if (verdict.executions.length === 0) return {};
  const facts = {
    guildId,
    channelId: place.channelId,
    author,
    authorId: place.caller.userId,
    content,
    now: new Date(),
  };
  if (verdict.timeoutSeconds > 0) {
    const until = new Date(facts.now.getTime() + verdict.timeoutSeconds * 1000);
    await timeOut(permissions, guildId, place.caller.userId, until);
  }
  if (verdict.blocked) {
    await automod.recordExecutions(
      planExecutions(verdict.executions, { ...facts, nextId: () => automod.nextId() }),
    );
    throw new MessageBlockedError();
  }
  return { alsoWrite: writerOf(automod, verdict, facts) };
}

function writerOf(
  automod: AutoModStore,
  verdict: Verdict,
  facts: Omit<Parameters<typeof planExecutions>[1], 'nextId' | 'messageId'>,
): WriteExecutions {
  return (db, message) =>
    writeExecutions(
      db,
      planExecutions(verdict.executions, { ...facts, messageId: message.id, nextId: () => automod.nextId() }),
    );
}

/** AutoMod's TIMEOUT: a refusal by permissions (the member left, 10007) leaves the message to its fate. */
async function timeOut(
  permissions: AutoModGateDeps['permissions'],
  guildId: string,
  userId: string,
  until: Date,
): Promise<void> {
  try {
    await permissions.timeOutMember(guildId, userId, until);
  } catch (error) {
    if (error instanceof DiscordError && error.httpStatus < 500) return;
    throw error;
  }
}

/** Only a message the sender may send is judged: the others are refused by the message rules. */
function maySend(place: ChannelPlace): boolean {
  const { VIEW_CHANNEL, SEND_MESSAGES } = PERMISSION_FLAGS;
  const needed = VIEW_CHANNEL | SEND_MESSAGES;
  return place.access.isMember && (place.access.permissions & needed) === needed;
}
