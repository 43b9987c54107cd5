'use strict';
/**
 * @typedef {object} AdminResponse
 * @property {number} status
 * @property {any} body      parsed JSON, the text when it is not JSON, or null when empty
 * @property {Headers} headers
 */

/**
 * @typedef {(method: string, path: string, body?: unknown) => Promise<AdminResponse>} AdminRequest
 */

/**
 * A caller of api-gateway's admin API (docs/admin-api.md): `admin('POST',
 * '/admin/users', { username })`. It never throws on an HTTP status; callers decide.
 *
 * @param {string} apiUrl  api-gateway's origin
 * @param {string} adminToken
 * @returns {AdminRequest}
 */
function createAdminClient(apiUrl, adminToken) {
  return async (method, path, body) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Admin ${adminToken}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed = text.length ? text : null;
    try {
      parsed = text.length ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
}

/**
 * Calls the admin API and returns the body, or throws an error that shows the request
 * and the answer when the status is not the expected one.
 *
 * @param {AdminRequest} admin
 * @param {number} expectedStatus
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function adminExpect(admin, expectedStatus, method, path, body) {
  const response = await admin(method, path, body);
  if (response.status !== expectedStatus) {
    throw new Error(
      `${method} ${path} answered ${response.status}, expected ${expectedStatus}: ` +
        `${JSON.stringify(response.body)}`,
    );
  }
  return response.body;
}

module.exports = { createAdminClient, adminExpect };
