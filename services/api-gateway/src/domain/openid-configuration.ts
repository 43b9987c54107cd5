/**
 * The OpenID Connect discovery document of the deployment (facts A.6: the shape of
 * Discord's, with its issuer's URLs): no userinfo endpoint, only RS256, and no
 * `token_endpoint_auth_methods_supported` (so the default, client_secret_basic).
 */
export function renderOpenIdConfiguration(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/api/v10/oauth2/authorize`,
    token_endpoint: `${issuer}/api/v10/oauth2/token`,
    jwks_uri: `${issuer}/api/v10/oauth2/keys`,
    response_types_supported: ['code', 'token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
}
