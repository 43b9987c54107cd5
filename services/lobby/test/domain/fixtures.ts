import type { LobbyRecord, MemberRecord } from '../../src/domain/lobby-objects';
import type { MemberInput } from '../../src/domain/read-lobby-bodies';

export const APP = '100000000000000001';
export const LOBBY = '200000000000000001';
export const [ALICE, BOB, CAROL, DAVE] = ['3001', '3002', '3003', '3004'] as const;

/** A stored member. */
export function member(userId: string, overrides: Partial<MemberRecord> = {}): MemberRecord {
  return { userId, metadata: null, flags: 0, additionalName: null, ...overrides };
}

/** A member as a body gives it. */
export function input(id: string, overrides: Partial<MemberInput> = {}): MemberInput {
  return { id, metadata: null, flags: 0, additionalName: undefined, remove: false, ...overrides };
}

/** A stored lobby of APP with `members`. */
export function lobby(members: MemberRecord[], overrides: Partial<LobbyRecord> = {}): LobbyRecord {
  return {
    id: LOBBY,
    applicationId: APP,
    metadata: null,
    flags: 0,
    idleTimeoutSeconds: 300,
    overrideEventWebhooksUrl: null,
    linkedChannel: null,
    members,
    ...overrides,
  };
}
