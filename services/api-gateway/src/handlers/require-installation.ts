import type { oauth as oauthTypes } from '@acs/protos';
import { call } from '../clients/backend-clients';

/**
 * Refuses an application not installed in the guild: 403 / 50001 Missing Access, oauth's
 * answer to `GetInstallation`, as command-registry answers the same app's guild command
 * routes there. Asked here, at the edge, so that no service calls oauth for it (oauth
 * calls permissions; permissions asking oauth would close a call cycle).
 */
export async function requireInstallation(
  oauth: oauthTypes.OAuthServiceClient,
  ids: { application_id: string; guild_id: string },
): Promise<void> {
  await call(oauth, oauth.GetInstallation, ids);
}
