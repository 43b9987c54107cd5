/**
 * acs-testkit: a bot's end-to-end test against ACS. `connectAcs()`, then
 * `acs.createWorld({users, channels})`; the world's users invoke, click, select and submit
 * modals as the chat client does, and each result tells what the bot answered.
 */
export { connectAcs, Acs, type ConnectOptions, type WorldSpec } from './connect-acs';
export { World, type WorldApp, type WorldChannel } from './world/world';
export { WorldUser, type InvokeOptions } from './world/world-user';
export { WorldPlayer, type DiscordLobby } from './world/world-player';
export type { RequestEntry, FaultOptions, InjectedFault } from './world/request-log';
export type {
  InteractionResult,
  DiscordMessage,
  OpenedModal,
  Choice,
  Timing,
  ChannelRef,
  UserRef,
  TimelineEntry,
} from './world/types';
export { locateStack, findDataDir, stackPointerFile, type StackLocation } from './locate-stack';
