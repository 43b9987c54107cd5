import { DiscordError, InvalidFormBodyError } from '@acs/discord-errors';
import {
  generateTestExternalToken,
  planExchange,
  readTestIssuerType,
  validateExchangeBody,
  validateTestTokenRequest,
  type ExchangeFacts,
  type ExchangeRequest,
} from '../../src/domain/external-credentials';
import { hashSecret } from '../../src/domain/hash-secret';

const APP = '1300000000000000001';
const NOW = new Date('2026-11-28T00:00:00Z');

function thrown(work: () => unknown): DiscordError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(DiscordError);
    return error as DiscordError;
  }
  throw new Error('did not throw');
}

const codeOf = (work: () => unknown) => {
  const error = thrown(work);
  return [error.httpStatus, error.code];
};

describe('validateExchangeBody', () => {
  const valid = {
    client_id: APP,
    client_secret: 's',
    external_auth_type: 'STEAM_SESSION_TICKET',
    external_auth_token: 't',
  };

  it('reads a whole body, and a public client without a secret', () => {
    expect(validateExchangeBody(valid)).toEqual({
      clientId: APP,
      clientSecret: 's',
      externalAuthType: 'STEAM_SESSION_TICKET',
      externalAuthToken: 't',
    });
    expect(validateExchangeBody({ ...valid, client_secret: null }).clientSecret).toBeNull();
    expect(
      validateExchangeBody({ ...valid, external_auth_token: 'x'.repeat(10240) }).externalAuthToken,
    ).toHaveLength(10240);
  });

  it('refuses oversize or NUL tokens, unknown types, bad client ids (2^64 too), with every error at once', () => {
    const error = thrown(() =>
      validateExchangeBody({
        client_id: '18446744073709551616',
        client_secret: 'x'.repeat(1025),
        external_auth_type: 'NOPE',
        external_auth_token: 'x'.repeat(10241),
      }),
    ) as InvalidFormBodyError;
    expect(error.code).toBe(50035);
    expect(Object.keys(error.errors ?? {}).sort()).toEqual([
      'client_id',
      'client_secret',
      'external_auth_token',
      'external_auth_type',
    ]);
    const nul = thrown(() => validateExchangeBody({ ...valid, external_auth_token: 'a\u0000' }));
    expect(nul.errors).toEqual({
      external_auth_token: { _errors: [expect.objectContaining({ code: 'STRING_TYPE_NUL_CHARACTER' })] },
    });
    expect(Object.keys(thrown(() => validateExchangeBody({})).errors ?? {}).sort()).toEqual([
      'client_id',
      'external_auth_token',
      'external_auth_type',
    ]);
  });
});

describe('the test issuer', () => {
  it('stands in for the providers ACS cannot reach, not for OIDC or bot-issued tokens', () => {
    expect(readTestIssuerType('STEAM_SESSION_TICKET')).toBe('STEAM_SESSION_TICKET');
    for (const type of ['OIDC', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', 'steam', 'x'.repeat(2000)]) {
      expect(codeOf(() => readTestIssuerType(type))).toEqual([400, 50035]);
    }
  });

  it('mints for a type and an external user id of 1-1024 characters', () => {
    expect(validateTestTokenRequest({ external_auth_type: 'APPLE_ID_TOKEN', external_user_id: 'u' })).toEqual(
      {
        externalAuthType: 'APPLE_ID_TOKEN',
        externalUserId: 'u',
      },
    );
    expect(
      codeOf(() =>
        validateTestTokenRequest({ external_auth_type: 'OIDC', external_user_id: 'x'.repeat(1025) }),
      ),
    ).toEqual([400, 50035]);
    expect(generateTestExternalToken()).not.toBe(generateTestExternalToken());
  });
});

describe('planExchange', () => {
  const request: ExchangeRequest = {
    clientId: APP,
    clientSecret: 'secret',
    externalAuthType: 'STEAM_SESSION_TICKET',
    externalAuthToken: 'tok',
  };
  const facts: ExchangeFacts = {
    client: { clientSecretHash: hashSecret('secret'), publicClient: false },
    providerConfigured: true,
    token: {
      applicationId: APP,
      externalAuthType: 'STEAM_SESSION_TICKET',
      externalUserId: 'steam-1',
      expiresAt: new Date(NOW.getTime() + 1000),
    },
  };

  it('answers the identity a live token of this application and type proves', () => {
    expect(planExchange(request, facts, NOW)).toEqual({
      externalAuthType: 'STEAM_SESSION_TICKET',
      externalUserId: 'steam-1',
    });
    const publicClient = { ...facts, client: { ...facts.client!, publicClient: true } };
    expect(planExchange({ ...request, clientSecret: null }, publicClient, NOW).externalUserId).toBe(
      'steam-1',
    );
  });

  it('refuses a bad client with 530007', () => {
    expect(codeOf(() => planExchange(request, { ...facts, client: undefined }, NOW))).toEqual([400, 530007]);
    expect(codeOf(() => planExchange({ ...request, clientSecret: 'wrong' }, facts, NOW))).toEqual([
      400, 530007,
    ]);
    expect(codeOf(() => planExchange({ ...request, clientSecret: null }, facts, NOW))).toEqual([400, 530007]);
  });

  it('refuses a type without a provider with 50035', () => {
    expect(codeOf(() => planExchange(request, { ...facts, providerConfigured: false }, NOW))).toEqual([
      400, 50035,
    ]);
  });

  it('refuses unknown, foreign and other-type tokens with 530020, expired ones with 530001', () => {
    expect(codeOf(() => planExchange(request, { ...facts, token: undefined }, NOW))).toEqual([400, 530020]);
    const foreign = { ...facts, token: { ...facts.token!, applicationId: '1300000000000000002' } };
    expect(codeOf(() => planExchange(request, foreign, NOW))).toEqual([400, 530020]);
    const otherType = { ...facts, token: { ...facts.token!, externalAuthType: 'APPLE_ID_TOKEN' } };
    expect(codeOf(() => planExchange(request, otherType, NOW))).toEqual([400, 530020]);
    const expired = { ...facts, token: { ...facts.token!, expiresAt: NOW } };
    expect(codeOf(() => planExchange(request, expired, NOW))).toEqual([400, 530001]);
  });
});
