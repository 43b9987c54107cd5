/* The console talks to its own origin only: the public API (as the viewer's chat-client
   session) and the admin API (with the admin token held in this tab's sessionStorage). */

/** A Discord-shaped answer: status and parsed body (null when empty). */
export interface Answer<T = any> {
  status: number;
  body: T;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
  ) {
    super(describeError(status, body));
  }
}

/** The error as the API gave it: its message and each field's error. */
export function describeError(status: number, body: any): string {
  const parts = [
    `${status}${body?.code !== undefined ? ` / ${body.code}` : ''}: ${body?.message ?? 'request failed'}`,
  ];
  const walk = (node: any, path: string) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node._errors)) {
      for (const e of node._errors) parts.push(`${path || 'body'}: ${e?.message ?? e?.code}`);
    }
    for (const [key, value] of Object.entries(node))
      if (key !== '_errors') walk(value, path ? `${path}.${key}` : key);
  };
  walk(body?.errors, '');
  return parts.join('\n');
}

export async function call<T = any>(
  method: string,
  path: string,
  authorization: string,
  body?: unknown,
): Promise<Answer<T>> {
  // A FormData (a message with files) goes as multipart/form-data, the browser naming its boundary.
  const form = body instanceof FormData;
  const response = await fetch(path, {
    method,
    headers: {
      Authorization: authorization,
      ...(body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  return { status: response.status, body: parsed };
}

/** Calls and answers the body; throws an ApiError unless the status is 2xx. */
export async function expectOk<T = any>(
  method: string,
  path: string,
  authorization: string,
  body?: unknown,
): Promise<T> {
  const answer = await call<T>(method, path, authorization, body);
  if (answer.status < 200 || answer.status > 299) throw new ApiError(answer.status, answer.body);
  return answer.body;
}

/**
 * A message body with files, as the chat client uploads them: `payload_json` (the JSON
 * body, its `attachments` naming each file by index) and `files[n]`.
 */
export function messageForm(payload: Record<string, unknown>, files: readonly File[]): FormData {
  const form = new FormData();
  form.append(
    'payload_json',
    JSON.stringify({ ...payload, attachments: files.map((file, id) => ({ id, filename: file.name })) }),
  );
  files.forEach((file, index) => form.append(`files[${index}]`, file, file.name));
  return form;
}

const TOKEN_KEY = 'acs-console-admin-token';

/**
 * The capability: taken from the URL fragment (`#token=…`, which browsers never send to
 * a server) into this tab's sessionStorage, and the fragment removed from the address
 * bar and history. Answers the stored token, if any.
 */
export function takeCapability(): string | undefined {
  const hash = window.location.hash;
  if (hash.startsWith('#')) {
    const params = new URLSearchParams(hash.slice(1));
    const token = params.get('token');
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
      history.replaceState(null, '', window.location.pathname + window.location.search);
    }
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storeAdminToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetAdminToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** A nonce as the chat client makes one: a snowflake-like decimal string, unique per call. */
let nonces = 0;
export function newNonce(): string {
  nonces = (nonces + 1) % 4096;
  return String((BigInt(Date.now() - 1420070400000) << 22n) | BigInt(nonces));
}
