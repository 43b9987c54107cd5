import { createAccountLinkHandlers } from './account-link-handlers';
import { createApplicationHandlers } from './application-handlers';
import { createAuthorizeHandlers } from './authorize-handlers';
import { createCurrentUserHandlers } from './current-user-handlers';
import { createDispatcherHandlers } from './dispatcher-handlers';
import { createGuildInstallationHandlers } from './guild-installation-handlers';
import type { HandlerDeps } from './handler-deps';
import { createIdTokenHandlers } from './id-token-handlers';
import { createInstallationHandlers } from './installation-handlers';
import { createInvocationHandlers } from './invocation-handlers';
import { createMonetizationHandlers } from './monetization-handlers';
import { createProvisionalAccountHandlers } from './provisional-account-handlers';
import { createTokenEndpointHandlers } from './token-endpoint-handlers';
import { createTokenHandlers } from './token-handlers';
import { createUserHandlers } from './user-handlers';

/** Every RPC of `acs.oauth.v1.OAuthService`, one async function each (createServer serves them; tests drive them). */
export function createHandlers(deps: HandlerDeps) {
  return {
    ...createTokenHandlers(deps),
    ...createApplicationHandlers(deps),
    ...createUserHandlers(deps),
    ...createAuthorizeHandlers(deps),
    ...createTokenEndpointHandlers(deps),
    ...createCurrentUserHandlers(deps),
    ...createInstallationHandlers(deps),
    ...createDispatcherHandlers(deps),
    ...createGuildInstallationHandlers(deps),
    ...createInvocationHandlers(deps),
    ...createMonetizationHandlers(deps),
    ...createProvisionalAccountHandlers(deps),
    ...createIdTokenHandlers(deps),
    ...createAccountLinkHandlers(deps),
  };
}

/** The object `createHandlers` returns: one async function per RPC. */
export type OAuthHandlers = ReturnType<typeof createHandlers>;
