import { ErrorCode } from './error-codes';
import { MAX_NONCE_LENGTH } from './id-tokens';
import { FormErrors, readBitSet } from '@acs/validation';
import {
  INTEGRATION_TYPES,
  MAX_CODE_CHALLENGE_LENGTH,
  MAX_PERMISSIONS,
  MAX_STATE_LENGTH,
  MIN_CODE_CHALLENGE_LENGTH,
  type IntegrationType,
} from './limits';
import { AUTHORIZE_SCOPES, isScope, withImpliedScopes, type Scope } from './scopes';
import {
  addChoicesError,
  addRequired,
  checkLength,
  describeValue,
  getField,
  isAbsent,
  readInteger,
  readSnowflake,
  readString,
  type JsonObject,
} from './read-value';

/** A user's consent, as `POST /admin/oauth2/authorize` gives it (ADMIN-API.md, facts §11). */
export interface AuthorizeInput {
  clientId: string;
  userId: string;
  /** Requested scopes, without repeats, plus what they imply (`bot` → `applications.commands`). */
  scopes: Scope[];
  redirectUri: string | null;
  state: string | null;
  guildId: string | null;
  /** Decimal bit set the bot is granted (bot flow). */
  permissions: string | null;
  integrationType: IntegrationType;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | null;
  /** `nonce` (OIDC), echoed as the ID token's claim; null when absent. */
  nonce: string | null;
}

const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9._~-]+$/;

/** Validates the consent body; throws 400 / 50035 with every error found. */
export function validateAuthorizeBody(body: JsonObject): AuthorizeInput {
  const errors = new FormErrors();
  const field = (key: string): unknown => getField(body, key);
  const input: AuthorizeInput = {
    clientId: readRequiredSnowflake(field('client_id'), errors, 'client_id'),
    userId: readRequiredSnowflake(field('user_id'), errors, 'user_id'),
    scopes: readScopes(field('scope'), errors),
    redirectUri: readOptionalString(field('redirect_uri'), errors, 'redirect_uri', 2048),
    state: readOptionalString(field('state'), errors, 'state', MAX_STATE_LENGTH),
    guildId: isAbsent(field('guild_id'))
      ? null
      : (readSnowflake(field('guild_id'), errors, ['guild_id']) ?? null),
    permissions: readPermissions(field('permissions'), errors),
    integrationType: readIntegrationType(field('integration_type'), errors),
    codeChallenge: null,
    codeChallengeMethod: null,
    nonce: readOptionalString(field('nonce'), errors, 'nonce', MAX_NONCE_LENGTH),
  };
  readPkce(body, input, errors);
  errors.throwIfAny();
  return input;
}

function readRequiredSnowflake(value: unknown, errors: FormErrors, key: string): string {
  if (isAbsent(value)) {
    addRequired(errors, [key]);
    return '';
  }
  return readSnowflake(value, errors, [key]) ?? '';
}

function readOptionalString(value: unknown, errors: FormErrors, key: string, max: number): string | null {
  if (isAbsent(value)) return null;
  const text = readString(value, errors, [key]);
  return text !== undefined && checkLength(text, 0, max, errors, [key]) ? text : null;
}

// `scope` is one space-separated string, as in the authorize URL.
function readScopes(value: unknown, errors: FormErrors): Scope[] {
  if (isAbsent(value)) {
    addRequired(errors, ['scope']);
    return [];
  }
  const text = readString(value, errors, ['scope']);
  if (text === undefined) return [];
  const names = text.split(/\s+/).filter((s) => s !== '');
  if (names.length === 0) {
    addRequired(errors, ['scope']);
    return [];
  }
  const scopes: Scope[] = [];
  for (const name of names) {
    if (isScope(name) && AUTHORIZE_SCOPES.includes(name)) scopes.push(name);
    else if (isScope(name)) {
      errors.add(
        ['scope'],
        ErrorCode.BASE_TYPE_CHOICES,
        `Scope "${name}" is granted only through the client credentials grant.`,
      );
    } else {
      errors.add(
        ['scope'],
        ErrorCode.BASE_TYPE_CHOICES,
        `Value "${describeValue(name)}" is not a valid scope.`,
      );
    }
  }
  return withImpliedScopes(scopes);
}

// A decimal bit set (or an integer), bounded before any BigInt work, normalized to decimal.
function readPermissions(value: unknown, errors: FormErrors): string | null {
  if (isAbsent(value)) return null;
  return readBitSet(value, MAX_PERMISSIONS, errors, ['permissions'])?.toString() ?? null;
}

function readIntegrationType(value: unknown, errors: FormErrors): IntegrationType {
  if (isAbsent(value)) return 0;
  const type = readInteger(value, errors, ['integration_type']);
  if (type === undefined) return 0;
  if ((INTEGRATION_TYPES as readonly number[]).includes(type)) return type as IntegrationType;
  addChoicesError(INTEGRATION_TYPES, errors, ['integration_type']);
  return 0;
}

// PKCE (RFC 7636 §4.2-4.3). A challenge without a method means "plain", which hides
// nothing (RFC 9700 §2.1.1): only S256 is accepted, and saying so beats guessing.
function readPkce(body: JsonObject, input: AuthorizeInput, errors: FormErrors): void {
  const challenge = getField(body, 'code_challenge');
  const method = getField(body, 'code_challenge_method');
  if (!isAbsent(challenge)) {
    const text = readString(challenge, errors, ['code_challenge']);
    if (
      text !== undefined &&
      checkLength(text, MIN_CODE_CHALLENGE_LENGTH, MAX_CODE_CHALLENGE_LENGTH, errors, ['code_challenge'])
    ) {
      if (CODE_CHALLENGE_PATTERN.test(text)) input.codeChallenge = text;
      else
        errors.add(
          ['code_challenge'],
          ErrorCode.STRING_TYPE_REGEX,
          'String value did not match validation regex.',
        );
    }
  } else if (!isAbsent(method)) {
    addRequired(errors, ['code_challenge']);
  }
  if (!isAbsent(method)) {
    const text = readString(method, errors, ['code_challenge_method']);
    if (text === 'S256') input.codeChallengeMethod = 'S256';
    else if (text !== undefined) addChoicesError(['S256'], errors, ['code_challenge_method']);
  } else if (!isAbsent(challenge)) {
    errors.add(
      ['code_challenge_method'],
      ErrorCode.BASE_TYPE_REQUIRED,
      'This field is required: the default method "plain" is not supported, use "S256".',
    );
  }
}
