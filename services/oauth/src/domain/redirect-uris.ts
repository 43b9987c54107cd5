// The Social SDK's redirect URIs (facts A.6): the default `discord-<application_id>:/authorize/callback`
// of every application, registered custom schemes, and loopback redirects on any port.

/** The redirect the client library uses by default: `discord-<application_id>:/authorize/callback`. */
export function defaultSdkRedirectUri(applicationId: string): string {
  return `discord-${applicationId}:/authorize/callback`;
}

/** Loopback hosts whose port a redirect may choose (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/** A loopback `http` redirect without its port (`http://127.0.0.1/callback`), or null for any other URI. */
function loopbackWithoutPort(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password)
    return null;
  return `http://${url.hostname}${url.pathname}${url.search}`;
}

/**
 * Whether `uri` may be an authorization's redirect: a registered URI exactly (RFC 9700
 * §4.1.3), the SDK's default `discord-<application_id>:/authorize/callback` without
 * registration, or a loopback `http` URI (127.0.0.1 or [::1]) that equals a registered
 * loopback URI but for the port: the SDK's local web server picks a free port (facts A.6
 * [Obs]; RFC 8252 §7.3).
 */
export function isAllowedRedirect(
  uri: string,
  registered: readonly string[],
  applicationId: string,
): boolean {
  if (registered.includes(uri) || uri === defaultSdkRedirectUri(applicationId)) return true;
  const loopback = loopbackWithoutPort(uri);
  return loopback !== null && registered.some((r) => loopbackWithoutPort(r) === loopback);
}

/** Whether a redirect uses a native app's own scheme (not http or https): PKCE is then required. */
export function isCustomSchemeRedirect(uri: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https';
}
