import { channelForViewer } from './obfuscate-channel';

/** Thread types (D:resources/channel.mdx §Channel Types): their updates are THREAD_UPDATE. */
const THREAD_TYPES: readonly unknown[] = [10, 11, 12];

/** One dispatch a session needs to match what it was told to what it may view now. */
export interface ViewChangeDispatch {
  t: 'CHANNEL_UPDATE' | 'THREAD_UPDATE';
  d: Record<string, unknown>;
}

/**
 * The updates a session that asked for obfuscation gets when what its bot may view
 * changed: for each channel of the guild whose visibility differs from what the session
 * was last told (`before`), the channel in full (the bot gained VIEW_CHANNEL) or obfuscated
 * (it lost it), as Discord dispatches CHANNEL_UPDATE "the moment your bot gains access".
 * `except` is a channel whose own dispatch already went out with its new form.
 */
export function channelViewChanges(
  guildId: string,
  before: ReadonlySet<string>,
  channels: readonly Record<string, unknown>[],
  after: ReadonlySet<string>,
  except?: string,
): ViewChangeDispatch[] {
  const changes: ViewChangeDispatch[] = [];
  for (const channel of channels) {
    const id = String(channel.id);
    if (id === except || before.has(id) === after.has(id)) continue;
    changes.push({
      t: THREAD_TYPES.includes(channel.type) ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE',
      d: channelForViewer({ ...channel, guild_id: guildId }, guildId, after),
    });
  }
  return changes;
}
