import { ErrorCode } from './error-codes';
import { FormErrors } from '@acs/validation';
import { GUILD_INSTALL, USER_INSTALL, type IntegrationType } from './limits';
import { addChoicesError, addRequired } from './read-value';
import { isAllowedRedirect, isCustomSchemeRedirect } from './redirect-uris';
import { INSTALL_SCOPES, needsAuthorizationCode, type Scope } from './scopes';
import type { AuthorizeInput } from './validate-authorize-body';

/** What the application allows a consent to do. */
export interface AuthorizingApplication {
  integrationTypes: readonly IntegrationType[];
  redirectUris: readonly string[];
}

/** Where a consent installs the application, if anywhere. */
export type InstallTarget = { type: 0; guildId: string } | { type: 1; userId: string };

/** What one consent does: install, issue a code, and where the browser goes. */
export interface AuthorizationPlan {
  scopes: Scope[];
  install: InstallTarget | null;
  /** What the installation holds: the installing scopes only (`identify` etc. go to the code). */
  installScopes: Scope[];
  issueCode: boolean;
  /** The redirect URI in effect (given, or the only registered one when a code needs one). */
  redirectUri: string | null;
}

const INVALID_REDIRECT = 'Invalid OAuth2 redirect_uri';

/**
 * Decides what a consent does (facts §11; RFC 6749 §3.1.2, RFC 9700 §4.1.3): `bot` or
 * `applications.commands` install the app, in a guild (integration type 0, needs
 * `guild_id`) or to the user (type 1, never with `bot`); any other scope issues a code.
 * A redirect URI must equal a registered one exactly, or be the Social SDK's default
 * `discord-<application_id>:/authorize/callback`, or a registered loopback URI on another
 * port (redirect-uris.ts); a code needs one, which may be left out only when exactly one
 * is registered. A code for a custom-scheme redirect needs a PKCE challenge (facts A.6:
 * mandatory for deep-link redirects; [Inf] enforced).
 */
export function planAuthorization(input: AuthorizeInput, app: AuthorizingApplication): AuthorizationPlan {
  const errors = new FormErrors();
  const installs = input.scopes.includes('bot') || input.scopes.includes('applications.commands');
  let install: InstallTarget | null = null;
  if (installs) {
    if (input.scopes.includes('bot') && input.integrationType !== GUILD_INSTALL) {
      addChoicesError([GUILD_INSTALL], errors, ['integration_type']);
    } else if (!app.integrationTypes.includes(input.integrationType)) {
      addChoicesError(app.integrationTypes, errors, ['integration_type']);
    } else if (input.integrationType === USER_INSTALL) {
      install = { type: USER_INSTALL, userId: input.userId };
    } else if (input.guildId === null) {
      addRequired(errors, ['guild_id']);
    } else {
      install = { type: GUILD_INSTALL, guildId: input.guildId };
    }
  }

  const issueCode = needsAuthorizationCode(input.scopes);
  let redirectUri = input.redirectUri;
  if (redirectUri !== null && !isAllowedRedirect(redirectUri, app.redirectUris, input.clientId)) {
    errors.add(['redirect_uri'], ErrorCode.OAUTH2_INVALID_REDIRECT_URI, INVALID_REDIRECT);
  } else if (redirectUri === null && issueCode) {
    const [only, ...others] = app.redirectUris;
    if (only === undefined)
      errors.add(['redirect_uri'], ErrorCode.OAUTH2_INVALID_REDIRECT_URI, INVALID_REDIRECT);
    else if (others.length > 0) addRequired(errors, ['redirect_uri']);
    else redirectUri = only;
  }
  if (
    issueCode &&
    redirectUri !== null &&
    isCustomSchemeRedirect(redirectUri) &&
    input.codeChallenge === null
  ) {
    errors.add(
      ['code_challenge'],
      ErrorCode.BASE_TYPE_REQUIRED,
      'A PKCE code_challenge (S256) is required for a custom-scheme redirect_uri.',
    );
  }
  errors.throwIfAny();
  const installScopes = install ? input.scopes.filter((s) => INSTALL_SCOPES.includes(s)) : [];
  return { scopes: input.scopes, install, installScopes, issueCode, redirectUri };
}
