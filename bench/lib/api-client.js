'use strict';
/** A caller of the stack's public API (/api/v10), as a bot or a user, that never throws on a status. */

/**
 * @typedef {(method: string, route: string, authorization: string, body?: unknown) =>
 *   Promise<{ status: number, headers: Headers, body: any }>} ApiRequest
 */

/**
 * `api('POST', '/lobbies', 'Bot …', body)`: the answer's status, headers and body (parsed
 * JSON, the text when it is not JSON, null when empty).
 * @param {string} apiUrl  api-gateway's origin
 * @param {{ timeoutMs?: number }} [options]  timeoutMs: abort a request that takes longer
 * @returns {ApiRequest}
 */
function createApiClient(apiUrl, options = {}) {
  return async (method, route, authorization, body) => {
    const response = await fetch(`${apiUrl}/api/v10${route}`, {
      method,
      headers: { Authorization: authorization, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
    });
    const text = await response.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

module.exports = { createApiClient };
