import { MissingAccessError } from '@acs/discord-errors';
import { checkGuildPresence } from '../../../src/domain/invocation';
import { dmPlaceOf, errorOf, GUILD, OTHER_USER, placeOf, USER } from './fixtures';

const VIEW_CHANNEL = (1n << 10n).toString();
const SEND_MESSAGES = (1n << 11n).toString();

describe('checkGuildPresence', () => {
  it('refuses a user who is not a member of the guild now as a command decision does: 400 / 50035 at data', () => {
    // permissions answers no member for a user never in the guild, one removed, or a
    // member of another guild alike; their permissions there are none.
    const error = errorOf(() => checkGuildPresence(GUILD, placeOf({ member: null, userPermissions: '0' })));
    expect({ status: error.httpStatus, body: error.toBody() }).toEqual({
      status: 400,
      body: {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          data: {
            _errors: [
              {
                code: 'INTERACTION_APPLICATION_COMMAND_INVALID',
                message: 'You do not have permission to use this command here',
              },
            ],
          },
        },
      },
    });
    // Whatever bits a peer would send with no member, a non-member is refused.
    expect(
      errorOf(() => checkGuildPresence(GUILD, placeOf({ member: null, userPermissions: VIEW_CHANNEL })))
        .httpStatus,
    ).toBe(400);
  });

  it('refuses a member who cannot view the channel with 403 / 50001', () => {
    const error = errorOf(() => checkGuildPresence(GUILD, placeOf({ userPermissions: SEND_MESSAGES })));
    expect(error).toBeInstanceOf(MissingAccessError);
    expect({ status: error.httpStatus, body: error.toBody() }).toEqual({
      status: 403,
      body: { code: 50001, message: 'Missing Access' },
    });
    expect(() => checkGuildPresence(GUILD, placeOf({ userPermissions: 'not bits' }))).toThrow(
      MissingAccessError,
    );
  });

  it('lets a member who views the channel through', () => {
    expect(() => checkGuildPresence(GUILD, placeOf({ userPermissions: VIEW_CHANNEL }))).not.toThrow();
    expect(() => checkGuildPresence(GUILD, placeOf())).not.toThrow();
  });

  it('judges nothing outside a guild (a DM or group DM has no member)', () => {
    expect(() => checkGuildPresence(null, dmPlaceOf([USER, OTHER_USER]))).not.toThrow();
    expect(() => checkGuildPresence(null, placeOf({ member: null, userPermissions: '0' }))).not.toThrow();
  });
});
