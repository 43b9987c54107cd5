import { createApplicationHandlers } from './handlers/application-handlers';
import { createAuthorizeHandlers } from './handlers/authorize-handlers';
import { createCurrentUserHandlers } from './handlers/current-user-handlers';
import type { HandlerDeps } from './handlers/handler-deps';
import { createInstallationHandlers } from './handlers/installation-handlers';
import { createTokenEndpointHandlers } from './handlers/token-endpoint-handlers';
import { createTokenHandlers } from './handlers/token-handlers';
import { createUserHandlers } from './handlers/user-handlers';

export type { HandlerDeps } from './handlers/handler-deps';

/** The handlers of every `acs.oauth.v1.OAuthService` RPC. */
export function createHandlers(deps: HandlerDeps) {
  return {
    ...createTokenHandlers(deps),
    ...createApplicationHandlers(deps),
    ...createUserHandlers(deps),
    ...createAuthorizeHandlers(deps),
    ...createTokenEndpointHandlers(deps),
    ...createCurrentUserHandlers(deps),
    ...createInstallationHandlers(deps),
  };
}

/** The object `createHandlers` returns: one async function per RPC. */
export type OAuthHandlers = ReturnType<typeof createHandlers>;
