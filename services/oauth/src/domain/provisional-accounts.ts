import { DiscordError, SocialSdkErrorCode, type ErrorBodyFields } from '@acs/discord-errors';
import { FormErrors } from '@acs/validation';
import { MAX_GLOBAL_NAME_LENGTH, MIN_GLOBAL_NAME_LENGTH } from './limits';
import { addRequired, checkLength, getField, isAbsent, readString, type JsonObject } from './read-value';

// Provisional accounts of the Social SDK (facts A): a user owned by one application,
// created (or found again) from a game's identity of the player, with a 7-day token.

/** The user flag that marks a provisional account (UD: PROVISIONAL_ACCOUNT = 1 << 23). */
export const PROVISIONAL_ACCOUNT_FLAG = 1 << 23;

/** Every provisional token lives 7 days; there is no refresh (facts A.1, A.3). */
export const PROVISIONAL_TOKEN_TTL_SECONDS = 604_800;

/**
 * What a provisional token grants: `sdk.social_layer` and, of its expansion (UD), the one
 * scope ACS knows and a provisional player needs: `identify` (`GET /users/@me`).
 */
export const PROVISIONAL_SCOPES: readonly string[] = ['identify', 'sdk.social_layer'];

/** The provider type of identities the Bot Token Endpoint creates (UD's 530010 body). */
export const BOT_AUTH_TYPE = 'DISCORD_BOT';

/** `external_user_id`: 1-1024 characters (OAS). */
export const MAX_EXTERNAL_USER_ID_LENGTH = 1024;

/** The token kind of `token_grant.kind` for provisional tokens. */
export const PROVISIONAL_GRANT_KIND = 'provisional';

/** 400 with a 5300xx code (facts A.1; the status of all but 530010 is [Inf] 400). */
export class ProvisionalAccountError extends DiscordError {
  constructor(code: SocialSdkErrorCode, message: string, fields?: ErrorBodyFields) {
    super(400, code, message, undefined, fields);
  }
}

/** The identity a 530010 names (UD's body: `provider_type`, `provider_id`, `provider_issued_user_id`). */
export interface IdentityOfError {
  userId: string;
  authType: string;
  externalUserId: string;
  /** The OIDC issuer of an OIDC identity; null otherwise. */
  providerId?: string | null;
}

/**
 * 530010: the identity belongs to a full account, which authenticates through OAuth2; the
 * body names the account and the identity (UD): `provider_type` is `DISCORD_BOT` for the bot
 * endpoint's identities, else the `external_auth_type`; `provider_id` the issuer of an OIDC
 * identity (null for the other types).
 */
export function nonProvisionalAccountError(identity?: IdentityOfError): ProvisionalAccountError {
  return new ProvisionalAccountError(
    SocialSdkErrorCode.ACCOUNT_NOT_PROVISIONAL,
    'User account is non-provisional and should be authed through OAuth2',
    identity && {
      user_id: identity.userId,
      provider_type: identity.authType,
      provider_id: identity.providerId ?? null,
      provider_issued_user_id: identity.externalUserId,
    },
  );
}

/** A validated `POST /partner-sdk/token/bot` body. */
export interface BotTokenRequest {
  externalUserId: string;
  preferredGlobalName: string | null;
}

/** Reads `external_user_id` (required, 1-1024) into `errors`. */
export function readExternalUserId(body: JsonObject, errors: FormErrors): string {
  const value = getField(body, 'external_user_id');
  if (isAbsent(value)) {
    addRequired(errors, ['external_user_id']);
    return '';
  }
  const id = readString(value, errors, ['external_user_id']);
  if (id === undefined) return '';
  return checkLength(id, 1, MAX_EXTERNAL_USER_ID_LENGTH, errors, ['external_user_id']) ? id : '';
}

/** Validates a bot unmerge body (`external_user_id`, 1-1024, required); 400 / 50035 otherwise. */
export function validateUnmergeBotBody(body: JsonObject): string {
  const errors = new FormErrors();
  const externalUserId = readExternalUserId(body, errors);
  errors.throwIfAny();
  return externalUserId;
}

/** Validates a Bot Token Endpoint body; 400 / 50035 with every error found. */
export function validateBotTokenBody(body: JsonObject): BotTokenRequest {
  const errors = new FormErrors();
  const externalUserId = readExternalUserId(body, errors);
  let preferredGlobalName: string | null = null;
  const name = getField(body, 'preferred_global_name');
  if (!isAbsent(name)) {
    const text = readString(name, errors, ['preferred_global_name']);
    if (
      text !== undefined &&
      checkLength(text, MIN_GLOBAL_NAME_LENGTH, MAX_GLOBAL_NAME_LENGTH, errors, ['preferred_global_name'])
    ) {
      preferredGlobalName = text;
    }
  }
  errors.throwIfAny();
  return { externalUserId, preferredGlobalName };
}

/** An identity as the store found it, with its account. */
export interface FoundIdentity {
  userId: string;
  /** The identity's provider type and the provider's id of the player. */
  authType: string;
  externalUserId: string;
  /** The OIDC issuer of an OIDC identity; null otherwise. */
  providerId?: string | null;
  /** The owning application of a provisional account; null for a full account. */
  provisionalApplicationId: string | null;
}

/** A provisional account to create. */
export interface NewProvisionalUser {
  id: string;
  username: string;
  globalName: string | null;
  applicationId: string;
}

/** What to do for an identity: create its account, or issue a token for the one found. */
export type ProvisionalAccountPlan =
  { kind: 'create'; userId: string; user: NewProvisionalUser } | { kind: 'existing'; userId: string };

/**
 * The account an identity of `applicationId` gets a token for (facts A.0): none yet → a new
 * provisional account (named `displayName`, else only its generated username); a
 * provisional account → that one (a second call does not rename it: see README); a full
 * account (merged, or another application's) → 530010.
 */
export function planProvisionalAccount(
  found: FoundIdentity | undefined,
  applicationId: string,
  newUserId: string,
  displayName: string | null,
): ProvisionalAccountPlan {
  if (!found) {
    return {
      kind: 'create',
      userId: newUserId,
      user: {
        id: newUserId,
        username: provisionalUsername(newUserId),
        globalName: displayName,
        applicationId,
      },
    };
  }
  if (found.provisionalApplicationId !== applicationId) throw nonProvisionalAccountError(found);
  return { kind: 'existing', userId: found.userId };
}

/**
 * The generated username of a provisional account: Discord's is a random string (SDKH);
 * ours is derived from the id, so it is unique and within 2-32 characters.
 */
export function provisionalUsername(userId: string): string {
  return `provisional_${BigInt(userId).toString(36)}`;
}

/** The `ProvisionalTokenResponse` (OAS) of a new access token and its ID token. */
export function renderProvisionalToken(accessToken: string, idToken: string): Record<string, unknown> {
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: PROVISIONAL_TOKEN_TTL_SECONDS,
    scope: PROVISIONAL_SCOPES.join(' '),
    id_token: idToken,
  };
}

/** Validates `PATCH /users/@me/account` of a provisional account: `global_name` 1-32, required. */
export function validateRename(body: JsonObject): string {
  const errors = new FormErrors();
  const value = getField(body, 'global_name');
  let name = '';
  if (isAbsent(value)) addRequired(errors, ['global_name']);
  else {
    const text = readString(value, errors, ['global_name']);
    if (
      text !== undefined &&
      checkLength(text, MIN_GLOBAL_NAME_LENGTH, MAX_GLOBAL_NAME_LENGTH, errors, ['global_name'])
    ) {
      name = text;
    }
  }
  errors.throwIfAny();
  return name;
}

/**
 * Whether the token's application may rename the account: only a provisional account it
 * owns. A full account (or none) is 403 / 50001 ([Inf]: a full account's name is the
 * person's own, which no game's token changes).
 */
export function requireOwnProvisionalAccount(
  provisionalApplicationId: string | null | undefined,
  applicationId: string,
): void {
  if (provisionalApplicationId !== applicationId) throw new DiscordError(403, 50001, 'Missing Access');
}
