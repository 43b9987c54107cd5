import type { ReceivedEvent } from '@acs/events';
import type { Logger } from '@acs/service-kit';
import type { SearchStore } from '../store/search-store';

/** The events that change what a guild's search finds: messages made, edited, pinned, deleted. */
export const SEARCH_INDEX_EVENTS = [
  'interactions.message.created',
  'interactions.message.updated',
  'interactions.message.deleted',
  'interactions.channel_message.created',
  'interactions.channel_message.updated',
  'interactions.channel_message.deleted',
  'interactions.channel_message.bulk_deleted',
  'interactions.channel.pins_updated',
] as const;

type SearchIndexEvent = ReceivedEvent<(typeof SEARCH_INDEX_EVENTS)[number]>;

/**
 * The handler of interactions' consumer of its own message events (one durable consumer
 * shared by the replicas, SEARCH_CONSUMER_NAME): the documents of the messages an event names
 * are rewritten from the stored messages (SearchStore.reindex), so that search keeps up with
 * new, edited, pinned and deleted messages without costing their requests anything. A DM's
 * message (no guild) is never searched.
 */
export function indexMessagesForSearch(store: SearchStore) {
  return async (event: SearchIndexEvent): Promise<void> => {
    const guildId = event.data.guild_id;
    if (guildId === null) return;
    switch (event.name) {
      case 'interactions.message.created':
      case 'interactions.message.updated':
      case 'interactions.channel_message.created':
      case 'interactions.channel_message.updated': {
        const id = event.data.message.id;
        if (typeof id === 'string') await store.reindex(guildId, [id]);
        return;
      }
      case 'interactions.message.deleted':
      case 'interactions.channel_message.deleted':
        await store.reindex(guildId, [event.data.message_id]);
        return;
      case 'interactions.channel_message.bulk_deleted':
        await store.reindex(guildId, event.data.message_ids);
        return;
      case 'interactions.channel.pins_updated':
        await store.reindex(guildId, await store.pinChanged(guildId, event.data.channel_id));
        return;
    }
  };
}

/**
 * Builds the index of guilds whose first search asked for it, once SEARCH_INDEX_DELAY_MS has
 * passed: one guild at a time, every `intervalMs`, on every replica (a guild another replica
 * is building is skipped).
 */
export class SearchIndexer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SearchStore,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.drain());
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (await this.store.indexDueGuild()) {
        // Another guild may be due: build it before waiting again.
      }
    } catch (err) {
      this.logger.warn({ err }, 'search indexing failed; retried at the next tick');
    }
  }
}
