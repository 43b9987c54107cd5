import type { Transcript } from './transcript';
import type { ChannelRef, Timing, UserRef } from './types';
import type { Dispatch } from './user-session';

/** What a world's user needs of its world (the World implements it). */
export interface WorldContext {
  readonly base: string;
  readonly adminToken: string;
  readonly app: { id: string };
  readonly guild: { id: string };
  readonly timing: Required<Timing>;
  channel(ref?: ChannelRef): { id: string; name: string };
  userId(ref: UserRef): string;
  userNameOf(id: string): string | undefined;
  transcriptOf(): Transcript;
  gatewayUrl(): Promise<string>;
  heard(dispatch: Dispatch): void;
}
