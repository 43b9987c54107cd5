import { DiscordError, InvalidFormBodyError } from '@acs/discord-errors';
import {
  planProvisionalAccount,
  PROVISIONAL_ACCOUNT_FLAG,
  provisionalUsername,
  renderProvisionalToken,
  requireOwnProvisionalAccount,
  validateBotTokenBody,
  validateRename,
} from '../../src/domain/provisional-accounts';
import { renderPublicUser } from '../../src/domain/render-user';

const APP = '1300000000000000001';
const NEW_ID = '1300000000000000099';

function errorsOf(body: Record<string, unknown>): unknown {
  try {
    validateBotTokenBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFormBodyError);
    return (error as InvalidFormBodyError).errors;
  }
  throw new Error('accepted');
}

describe('validateBotTokenBody', () => {
  it('reads external_user_id and preferred_global_name', () => {
    expect(validateBotTokenBody({ external_user_id: 'p1', preferred_global_name: 'Ann' })).toEqual({
      externalUserId: 'p1',
      preferredGlobalName: 'Ann',
    });
    expect(validateBotTokenBody({ external_user_id: 'x'.repeat(1024), preferred_global_name: null })).toEqual(
      {
        externalUserId: 'x'.repeat(1024),
        preferredGlobalName: null,
      },
    );
  });

  it('refuses a missing, empty, oversize, NUL or non-string id and a bad name, all at once', () => {
    expect(errorsOf({})).toEqual({
      external_user_id: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_REQUIRED' })] },
    });
    expect(errorsOf({ external_user_id: '' })).toEqual({
      external_user_id: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_BAD_LENGTH' })] },
    });
    expect(errorsOf({ external_user_id: 'x'.repeat(1025), preferred_global_name: 'y'.repeat(33) })).toEqual({
      external_user_id: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_BAD_LENGTH' })] },
      preferred_global_name: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_BAD_LENGTH' })] },
    });
    expect(errorsOf({ external_user_id: 'a\u0000b' })).toEqual({
      external_user_id: { _errors: [expect.objectContaining({ code: 'STRING_TYPE_NUL_CHARACTER' })] },
    });
    expect(errorsOf({ external_user_id: 12 })).toEqual({
      external_user_id: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_STRING' })] },
    });
  });
});

describe('planProvisionalAccount', () => {
  it('creates an account for a new identity, named as preferred', () => {
    expect(planProvisionalAccount(undefined, APP, NEW_ID, 'Ann')).toEqual({
      kind: 'create',
      userId: NEW_ID,
      user: { id: NEW_ID, username: provisionalUsername(NEW_ID), globalName: 'Ann', applicationId: APP },
    });
  });

  it('finds the provisional account of a known identity again, without renaming it', () => {
    const found = {
      userId: '5',
      provisionalApplicationId: APP,
      authType: 'DISCORD_BOT',
      externalUserId: 'p',
    };
    expect(planProvisionalAccount(found, APP, NEW_ID, 'Other')).toEqual({ kind: 'existing', userId: '5' });
  });

  it('refuses an identity of a full account (or of an account another application owns) with 530010 naming it', () => {
    for (const owner of [null, '1300000000000000002']) {
      let caught: unknown;
      try {
        planProvisionalAccount(
          { userId: '5', provisionalApplicationId: owner, authType: 'DISCORD_BOT', externalUserId: 'p-9' },
          APP,
          NEW_ID,
          null,
        );
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DiscordError);
      expect((caught as DiscordError).httpStatus).toBe(400);
      expect((caught as DiscordError).toBody()).toEqual({
        code: 530010,
        message: 'User account is non-provisional and should be authed through OAuth2',
        user_id: '5',
        provider_type: 'DISCORD_BOT',
        provider_id: null,
        provider_issued_user_id: 'p-9',
      });
    }
  });
});

describe('provisional users and tokens', () => {
  it('generates a username of 2-32 characters, unique per id', () => {
    const name = provisionalUsername('18446744073709551615');
    expect(name.length).toBeLessThanOrEqual(32);
    expect(name).not.toBe(provisionalUsername('18446744073709551614'));
  });

  it('flags a provisional user PROVISIONAL_ACCOUNT (1 << 23), and no one else', () => {
    const user = {
      id: NEW_ID,
      username: 'u',
      globalName: null,
      locale: 'en-US',
      email: null,
      premiumType: 0,
      bot: false,
      profilePrivacy: 'everyone' as const,
      primaryGuild: null,
    };
    expect(renderPublicUser({ ...user, provisional: true })).toMatchObject({
      flags: 1 << 23,
      public_flags: 1 << 23,
    });
    expect(PROVISIONAL_ACCOUNT_FLAG).toBe(8388608);
    expect(renderPublicUser({ ...user, provisional: false })).toMatchObject({ flags: 0, public_flags: 0 });
  });

  it('answers a 7-day Bearer token with sdk.social_layer and its ID token', () => {
    expect(renderProvisionalToken('tok', 'a.b.c')).toEqual({
      access_token: 'tok',
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'identify sdk.social_layer',
      id_token: 'a.b.c',
    });
  });
});

describe('renaming a provisional account', () => {
  it('takes a global_name of 1-32 characters, required', () => {
    expect(validateRename({ global_name: 'New' })).toBe('New');
    for (const body of [
      {},
      { global_name: null },
      { global_name: '' },
      { global_name: 'x'.repeat(33) },
      { global_name: 'a\u0000' },
    ]) {
      expect(() => validateRename(body)).toThrow(InvalidFormBodyError);
    }
  });

  it("allows only the owning application's token, 403 / 50001 otherwise", () => {
    expect(() => requireOwnProvisionalAccount(APP, APP)).not.toThrow();
    for (const owner of [null, undefined, '1300000000000000002']) {
      let caught: unknown;
      try {
        requireOwnProvisionalAccount(owner, APP);
      } catch (error) {
        caught = error;
      }
      expect([(caught as DiscordError).httpStatus, (caught as DiscordError).code]).toEqual([403, 50001]);
    }
  });
});
