'use strict';
/**
 * A user's OAuth2 access token for an application, the way a test or a benchmark gets one:
 * the user's consent through the admin API (`POST /admin/oauth2/authorize`), then the
 * authorization_code grant at `POST /api/v10/oauth2/token`. The application must list
 * `redirectUri` among its redirect URIs.
 */
const { adminExpect } = require('./admin-client');

/** @type {import('./user-token').userAccessToken} */
async function userAccessToken(apiUrl, admin, { application, userId, scope, redirectUri }) {
  const { code } = await adminExpect(admin, 200, 'POST', '/admin/oauth2/authorize', {
    client_id: application.id,
    user_id: userId,
    scope,
    redirect_uri: redirectUri,
  });
  const response = await fetch(`${apiUrl}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: application.id,
      client_secret: application.clientSecret,
    }).toString(),
  });
  const body = await response.json();
  if (response.status !== 200 || !body.access_token) {
    throw new Error(`token: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.access_token;
}

module.exports = { userAccessToken };
