import { checkMayLink } from '../../src/domain/check-may-link';
import { NotLobbyMemberError } from '../../src/domain/lobby-errors';
import { CAN_LINK_LOBBY } from '../../src/domain/lobby-limits';
import { ALICE, BOB, CAROL, lobby, member } from './fixtures';

describe('checkMayLink', () => {
  const linked = lobby([member(ALICE, { flags: CAN_LINK_LOBBY }), member(BOB)]);

  it('lets a member with CanLinkLobby link', () => {
    expect(() => checkMayLink(linked, ALICE)).not.toThrow();
  });

  it('refuses a member without CanLinkLobby, and a user who is no member', () => {
    expect(() => checkMayLink(linked, BOB)).toThrow(NotLobbyMemberError);
    expect(() => checkMayLink(linked, CAROL)).toThrow(NotLobbyMemberError);
  });
});
