// Types of admin-client.js.
export interface AdminResponse<T = any> {
  status: number;
  /** Parsed JSON, the text when it is not JSON, or null when empty. */
  body: T;
  headers: Headers;
}

export type AdminRequest = <T = any>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<AdminResponse<T>>;

/** A caller of the admin API; never throws on an HTTP status. */
export function createAdminClient(apiUrl: string, adminToken: string): AdminRequest;
/** Calls the admin API and returns the body; throws showing the answer when the status differs. */
export function adminExpect<T = any>(
  admin: AdminRequest,
  expectedStatus: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<T>;
