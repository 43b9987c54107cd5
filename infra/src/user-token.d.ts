// Types of user-token.js.
import type { AdminRequest } from './admin-client';

/** A user's access token for `application` with `scope` (space-separated), through consent and the token endpoint. */
export function userAccessToken(
  apiUrl: string,
  admin: AdminRequest,
  grant: {
    application: { id: string; clientSecret: string };
    userId: string;
    scope: string;
    redirectUri: string;
  },
): Promise<string>;
