import { SocialSdkErrorCode } from '@acs/discord-errors';
import { FormErrors } from '@acs/validation';
import { ErrorCode } from './error-codes';
import { secretMatches } from './hash-secret';
import type { OidcProvider } from './oidc-providers';
import { ProvisionalAccountError, readExternalUserId } from './provisional-accounts';
import { randomToken } from './random-token';
import {
  addChoicesError,
  addRequired,
  checkLength,
  getField,
  isAbsent,
  readSnowflake,
  readString,
  type JsonObject,
} from './read-value';

// The External Credentials Exchange (facts A.2): a game's provider token → the token of
// the player's provisional account. For the providers ACS cannot reach (Steam, Epic,
// Unity, Apple, PlayStation), the admin API turns on a test issuer per application and
// type, which mints tokens the exchange accepts.

/** Every `external_auth_type` of the wire (OAS `ApplicationIdentityProviderAuthType`). */
export const EXTERNAL_AUTH_TYPES = [
  'OIDC',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'STEAM_SESSION_TICKET',
  'UNITY_SERVICES_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
] as const;

/** The types a test issuer stands in for: the providers ACS cannot verify offline. */
export const TEST_ISSUER_TYPES: readonly string[] = EXTERNAL_AUTH_TYPES.filter(
  (type) => type !== 'OIDC' && type !== 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
);

/** `external_auth_token`: 1-10240 characters (OAS). */
export const MAX_EXTERNAL_AUTH_TOKEN_LENGTH = 10_240;

/** `client_secret`: at most 1024 characters (OAS). */
export const MAX_CLIENT_SECRET_LENGTH = 1024;

/** How long a test issuer's token is accepted (a Steam ticket's order of magnitude): 1 hour. */
export const TEST_TOKEN_TTL_SECONDS = 3600;

/** A test issuer's token: a recognisable prefix and 48 random URL-safe characters. */
export function generateTestExternalToken(): string {
  return `acs-test-${randomToken(48)}`;
}

/** 530007: the client is unknown, or its secret wrong or missing (facts A.1). */
export function invalidClientSecretError(): ProvisionalAccountError {
  return new ProvisionalAccountError(SocialSdkErrorCode.CLIENT_SECRET_INVALID, 'Client secret invalid');
}

/** 530020: a token the provider did not issue to this application ([Inf]: the code of an invalid JWT). */
export function invalidExternalTokenError(): ProvisionalAccountError {
  return new ProvisionalAccountError(SocialSdkErrorCode.INVALID_JWT, 'Invalid external auth token');
}

/** 530001: the provider's token expired. */
export function expiredExternalTokenError(): ProvisionalAccountError {
  return new ProvisionalAccountError(SocialSdkErrorCode.ID_TOKEN_EXPIRED, 'External auth token expired');
}

/** 400 / 50035 at `external_auth_type` unless the application has an identity provider of that type. */
export function requireIdentityProvider(configured: boolean): void {
  if (configured) return;
  const errors = new FormErrors();
  errors.add(
    ['external_auth_type'],
    ErrorCode.APPLICATION_IDENTITY_PROVIDER_NOT_CONFIGURED,
    'No identity provider of this type is configured for the application.',
  );
  errors.throwIfAny();
}

/** Reads a required `external_auth_type` (one of `allowed`) into `errors`. */
function readAuthType(body: JsonObject, errors: FormErrors, allowed: readonly string[]): string {
  const value = getField(body, 'external_auth_type');
  if (isAbsent(value)) {
    addRequired(errors, ['external_auth_type']);
    return '';
  }
  const type = readString(value, errors, ['external_auth_type']);
  if (type === undefined) return '';
  if (!allowed.includes(type)) {
    addChoicesError(allowed, errors, ['external_auth_type']);
    return '';
  }
  return type;
}

/** The `{external_auth_type}` of the admin PUT path: a test-issuer type, else 400 / 50035. */
export function readTestIssuerType(type: string): string {
  const errors = new FormErrors();
  const read = readAuthType({ external_auth_type: type }, errors, TEST_ISSUER_TYPES);
  errors.throwIfAny();
  return read;
}

/**
 * Validates `PUT /admin/applications/{id}/identity-providers/{type}`: a test-issuer type
 * with the body `{}` (an `issuer` or `audience` belongs to OIDC, which is not built yet:
 * 400 / 50035). Answers the type.
 */
export function validateTestIssuer(type: string, body: JsonObject): string {
  const authType = readTestIssuerType(type);
  const errors = new FormErrors();
  for (const key of ['issuer', 'audience']) {
    if (!isAbsent(getField(body, key))) {
      errors.add(
        [key],
        ErrorCode.IDENTITY_PROVIDER_FIELD_NOT_ALLOWED,
        'Only an OIDC identity provider has this field.',
      );
    }
  }
  errors.throwIfAny();
  return authType;
}

/** The `{external_auth_type}` of the admin PUT path: OIDC or a test-issuer type, else 400 / 50035. */
export function readProviderType(type: string): string {
  const errors = new FormErrors();
  const read = readAuthType({ external_auth_type: type }, errors, ['OIDC', ...TEST_ISSUER_TYPES]);
  errors.throwIfAny();
  return read;
}

/** The admin API's answer for a test issuer. */
export function renderTestIssuer(authType: string): Record<string, unknown> {
  return { external_auth_type: authType, issuer: null, test_issuer: true };
}

/** A validated `POST /admin/applications/{id}/external-tokens` body. */
export interface TestTokenRequest {
  externalAuthType: string;
  externalUserId: string;
}

/** Validates the admin's request for a test issuer's token; 400 / 50035 with every error. */
export function validateTestTokenRequest(body: JsonObject): TestTokenRequest {
  const errors = new FormErrors();
  const externalAuthType = readAuthType(body, errors, TEST_ISSUER_TYPES);
  const externalUserId = readExternalUserId(body, errors);
  errors.throwIfAny();
  return { externalAuthType, externalUserId };
}

/** A validated `POST /partner-sdk/token` body. */
export interface ExchangeRequest {
  clientId: string;
  /** null when absent (a public client). */
  clientSecret: string | null;
  externalAuthType: string;
  externalAuthToken: string;
}

/** Validates an External Credentials Exchange body; 400 / 50035 with every error found. */
export function validateExchangeBody(body: JsonObject): ExchangeRequest {
  const errors = new FormErrors();
  const request: ExchangeRequest = {
    clientId: '',
    clientSecret: null,
    externalAuthType: '',
    externalAuthToken: '',
  };
  const clientId = getField(body, 'client_id');
  if (isAbsent(clientId)) addRequired(errors, ['client_id']);
  else request.clientId = readSnowflake(clientId, errors, ['client_id']) ?? '';
  const secret = getField(body, 'client_secret');
  if (!isAbsent(secret)) {
    const text = readString(secret, errors, ['client_secret']);
    if (text !== undefined && checkLength(text, 0, MAX_CLIENT_SECRET_LENGTH, errors, ['client_secret'])) {
      request.clientSecret = text;
    }
  }
  request.externalAuthType = readAuthType(body, errors, EXTERNAL_AUTH_TYPES);
  const token = getField(body, 'external_auth_token');
  if (isAbsent(token)) addRequired(errors, ['external_auth_token']);
  else {
    const text = readString(token, errors, ['external_auth_token']);
    if (
      text !== undefined &&
      checkLength(text, 1, MAX_EXTERNAL_AUTH_TOKEN_LENGTH, errors, ['external_auth_token'])
    ) {
      request.externalAuthToken = text;
    }
  }
  errors.throwIfAny();
  return request;
}

/** The client of an exchange, as the store read it. */
export interface ExchangeClient {
  clientSecretHash: Uint8Array;
  publicClient: boolean;
}

/** A test issuer's token, as the store found it by its digest. */
export interface TestTokenRecord {
  applicationId: string;
  externalAuthType: string;
  externalUserId: string;
  expiresAt: Date;
}

/** What an exchange needs to know, read by the store. */
export interface ExchangeFacts {
  client: ExchangeClient | undefined;
  /** Whether the application has an identity provider of the requested type. */
  providerConfigured: boolean;
  /** The test token with the presented token's digest, if any. */
  token: TestTokenRecord | undefined;
  /** The application's OIDC provider, when the type is OIDC and one is configured. */
  oidcProvider?: OidcProvider | undefined;
}

/**
 * The first checks of every exchange: the client (530007: unknown client, wrong secret,
 * or no secret from a confidential client), then the provider (50035 when the type has
 * none configured).
 */
export function checkExchangeClient(request: ExchangeRequest, facts: ExchangeFacts): void {
  const { client } = facts;
  if (!client) throw invalidClientSecretError();
  if (request.clientSecret === null) {
    if (!client.publicClient) throw invalidClientSecretError();
  } else if (!secretMatches(request.clientSecret, client.clientSecretHash)) throw invalidClientSecretError();
  requireIdentityProvider(facts.providerConfigured);
}

/**
 * Checks an exchange, in the order Discord's checks are documented: the client (530007:
 * unknown client, wrong secret, or no secret from a confidential client), the provider
 * (50035 when the type has none configured), then the token (530020 when unknown, of another
 * application or another type; 530001 when expired). Answers the identity it proves.
 */
export function planExchange(
  request: ExchangeRequest,
  facts: ExchangeFacts,
  now: Date,
): { externalAuthType: string; externalUserId: string } {
  checkExchangeClient(request, facts);
  const token = facts.token;
  if (
    !token ||
    token.applicationId !== request.clientId ||
    token.externalAuthType !== request.externalAuthType
  ) {
    throw invalidExternalTokenError();
  }
  if (token.expiresAt.getTime() <= now.getTime()) throw expiredExternalTokenError();
  return { externalAuthType: token.externalAuthType, externalUserId: token.externalUserId };
}
