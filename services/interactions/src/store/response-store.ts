import type { Pool, PoolClient } from 'pg';
import { createEvent, type OutboxRow } from '@acs/events';
import { snowflakeTimestamp, type SnowflakeGenerator } from '@acs/snowflake';
import type { JsonObject } from '@acs/validation';
import {
  activityInstanceId,
  CallbackType,
  InteractionAlreadyAcknowledgedError,
  UnknownInteractionError,
  type ValidCallback,
} from '../domain/callbacks';
import {
  MessageFlag,
  hasFlag,
  readMessageSource,
  renderLoadingMessage,
  renderMessage,
  type InteractionMessage,
} from '../domain/messages';
import { interactionAudienceOf, messageAudienceOf } from './event-audience';
import {
  INTERACTION_RECORD_COLUMNS,
  toInteractionRecord,
  type InteractionRecord,
  type InteractionRow,
} from './interaction-record';
import { insertMessage } from './message-rows';
import { withTransaction } from './with-transaction';
import { notifyOutcome, writeEvents } from './write-events';

/** What an initial response made. */
export interface Acknowledgement {
  /** Callbacks 4 and 5: the response message (5: the loading message). */
  message?: InteractionMessage;
  /** Callback 12: the launched Activity instance. */
  activityInstanceId?: string;
}

/**
 * Interactions as their initial response sees them. Acknowledging is one transaction: a
 * conditional UPDATE that only a pending interaction within its deadline passes (so of two
 * racing callbacks, or a callback racing the deadline, exactly one wins), the response
 * message, the events, and the outcome notification, all or nothing.
 */
export class ResponseStore {
  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
  ) {}

  /** The interaction with this id, or undefined. */
  async find(interactionId: string): Promise<InteractionRecord | undefined> {
    const { rows } = await this.pool.query<InteractionRow>(
      `SELECT ${INTERACTION_RECORD_COLUMNS} FROM interaction WHERE id = $1`,
      [interactionId],
    );
    return rows[0] ? toInteractionRecord(rows[0]) : undefined;
  }

  /**
   * Records the initial response of `record`: 400 / 40060 when it already has one, 404 /
   * 10062 when it failed or its deadline passed. `botUser` (the messages' author) is needed
   * by callbacks 4 and 5.
   */
  async acknowledge(
    record: InteractionRecord,
    callback: ValidCallback,
    botUser: JsonObject | undefined,
  ): Promise<Acknowledgement> {
    const made = this.makeResponse(record, callback, botUser);
    return withTransaction(this.pool, async (db) => {
      const { rowCount } = await db.query(
        `UPDATE interaction
            SET state = 'acknowledged', response_type = $2, response = $3,
                original_message_id = $4, activity_instance_id = $5
          WHERE id = $1 AND state = 'pending' AND deadline_at > now()`,
        [
          record.id,
          callback.type,
          JSON.stringify(storedResponse(callback)),
          made.message?.id ?? null,
          made.activityInstanceId ?? null,
        ],
      );
      if (rowCount !== 1) await throwWhyNotPending(db, record.id);
      const events: OutboxRow[] = [
        createEvent('interactions.interaction.succeeded', interactionAudienceOf(record)),
      ];
      if (made.message) {
        const ephemeral = hasFlag(made.message.flags, MessageFlag.EPHEMERAL);
        await insertMessage(db, record, made.message, { isOriginal: true, ephemeral });
        events.push(
          createEvent('interactions.message.created', {
            ...messageAudienceOf(record, ephemeral),
            message: { ...made.message },
          }),
        );
      }
      if (callback.type === CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT) {
        events.push(
          createEvent('interactions.autocomplete.answered', {
            ...interactionAudienceOf(record),
            choices: callback.choices.map((choice) => ({ ...choice })),
          }),
        );
      }
      await writeEvents(db, events);
      await notifyOutcome(db, record.id);
      return made;
    });
  }

  // The message or Activity instance a callback makes, built before the transaction opens.
  private makeResponse(
    record: InteractionRecord,
    callback: ValidCallback,
    botUser: JsonObject | undefined,
  ): Acknowledgement {
    switch (callback.type) {
      case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
      case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
        const source = readMessageSource(record.payload, botUser ?? {});
        const id = this.ids.next();
        const createdAt = new Date(snowflakeTimestamp(id));
        const message =
          callback.type === CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
            ? renderMessage(source, { id, createdAt, ...callback.message })
            : renderLoadingMessage(source, id, createdAt, callback.ephemeral);
        return { message };
      }
      case CallbackType.LAUNCH_ACTIVITY:
        return { activityInstanceId: activityInstanceId(record.id, record.guildId, record.channelId) };
      default:
        return {};
    }
  }
}

/** The initial response as kept on the interaction: `{type, data}` as validated (the wait outcome shows it). */
function storedResponse(callback: ValidCallback): JsonObject {
  switch (callback.type) {
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
      return { type: callback.type, data: { ...callback.message } };
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
      return { type: callback.type, data: { flags: callback.ephemeral ? MessageFlag.EPHEMERAL : 0 } };
    case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
      return { type: callback.type, data: { choices: callback.choices } };
    default:
      return { type: callback.type };
  }
}

// The conditional UPDATE found no pending interaction within its deadline: say why, from
// the row as the winning transaction left it.
async function throwWhyNotPending(db: PoolClient, interactionId: string): Promise<never> {
  const { rows } = await db.query<{ state: string }>('SELECT state FROM interaction WHERE id = $1', [
    interactionId,
  ]);
  if (rows[0]?.state === 'acknowledged') throw new InteractionAlreadyAcknowledgedError();
  throw new UnknownInteractionError();
}
