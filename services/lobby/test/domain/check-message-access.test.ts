import { checkMessageAccess } from '../../src/domain/check-message-access';
import { NotLobbyMemberError } from '../../src/domain/lobby-errors';

describe('checkMessageAccess', () => {
  it('lets members and the application’s bot read and post', () => {
    expect(() => checkMessageAccess({ bot: false }, true)).not.toThrow();
    expect(() => checkMessageAccess({ bot: true }, false)).not.toThrow();
  });

  it('refuses a user who is not a member with 403 / 50001', () => {
    expect(() => checkMessageAccess({ bot: false }, false)).toThrow(NotLobbyMemberError);
    expect(new NotLobbyMemberError()).toMatchObject({ httpStatus: 403, code: 50001 });
  });
});
