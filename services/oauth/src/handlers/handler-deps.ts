import type { SnowflakeGenerator } from '@acs/snowflake';
import type { PermissionsClient } from '../clients/permissions-client';
import type { TokenLifetimes } from '../domain/token-lifetimes';
import type { ApplicationStore } from '../store/application-store';
import type { ConnectionStore } from '../store/connection-store';
import type { GrantStore } from '../store/grant-store';
import type { InstallationStore } from '../store/installation-store';
import type { TokenStore } from '../store/token-store';
import type { UserStore } from '../store/user-store';

/** What the gRPC handlers work with. */
export interface HandlerDeps {
  applications: ApplicationStore;
  users: UserStore;
  tokens: TokenStore;
  installations: InstallationStore;
  grants: GrantStore;
  connections: ConnectionStore;
  /** How long codes and tokens live. */
  lifetimes: TokenLifetimes;
  permissions: PermissionsClient;
  snowflakes: SnowflakeGenerator;
  /** The clock (tests move it). */
  now?: () => Date;
}
