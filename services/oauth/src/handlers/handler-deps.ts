import type { SnowflakeGenerator } from '@acs/snowflake';
import type { OidcIssuers } from '../clients/oidc-issuers';
import type { PermissionsClient } from '../clients/permissions-client';
import type { TokenLifetimes } from '../domain/token-lifetimes';
import type { AccountLinkStore } from '../store/account-link-store';
import type { ApplicationStore } from '../store/application-store';
import type { ConnectionStore } from '../store/connection-store';
import type { EventWebhookSettingsStore } from '../store/event-webhook-settings-store';
import type { GrantStore } from '../store/grant-store';
import type { GuildInstallationStore } from '../store/guild-installation-store';
import type { IdTokenKeyStore } from '../store/id-token-key-store';
import type { IdentityProviderStore } from '../store/identity-provider-store';
import type { InstallationStore } from '../store/installation-store';
import type { InvocationStore } from '../store/invocation-store';
import type { MonetizationStore } from '../store/monetization-store';
import type { ProvisionalAccountStore } from '../store/provisional-account-store';
import type { TokenStore } from '../store/token-store';
import type { UserStore } from '../store/user-store';

/** What the gRPC handlers work with: the stores (built by start-service), the peer, ids, lifetimes and the clock. */
export interface HandlerDeps {
  applications: ApplicationStore;
  users: UserStore;
  tokens: TokenStore;
  installations: InstallationStore;
  grants: GrantStore;
  connections: ConnectionStore;
  eventWebhookSettings: EventWebhookSettingsStore;
  guildInstallations: GuildInstallationStore;
  invocations: InvocationStore;
  monetization: MonetizationStore;
  provisionalAccounts: ProvisionalAccountStore;
  identityProviders: IdentityProviderStore;
  idTokenKeys: IdTokenKeyStore;
  accountLinks: AccountLinkStore;
  /** How long codes and tokens live. */
  lifetimes: TokenLifetimes;
  permissions: PermissionsClient;
  /** Verifies ID tokens of applications' OIDC providers (fetching and caching their keys). */
  oidcIssuers: OidcIssuers;
  /** The local stack's test setting: `http://127.0.0.1:<port>` OIDC issuers are accepted. */
  allowLoopbackIssuers?: boolean;
  snowflakes: SnowflakeGenerator;
  /** The clock (tests move it). */
  now?: () => Date;
}
