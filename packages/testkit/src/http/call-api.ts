import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** One HTTP answer: its status and its body (parsed JSON, the text when not JSON, null when empty). */
export interface ApiAnswer {
  status: number;
  // Discord's JSON of any shape: callers read fields off it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * One HTTP call to ACS; answers `{status, body}` and never throws on a status. With
 * `files` (paths), the body goes as multipart/form-data: `payload_json` first, then each
 * file as `files[n]`, as a chat client sends files.
 */
export async function callApi(
  base: string,
  method: string,
  route: string,
  { token, body, files }: { token?: string; body?: unknown; files?: string[] } = {},
): Promise<ApiAnswer> {
  let sent: string | FormData | undefined = body === undefined ? undefined : JSON.stringify(body);
  if (files && files.length > 0) {
    const form = new FormData();
    form.append('payload_json', typeof sent === 'string' ? sent : '{}');
    files.forEach((file, n) => form.append(`files[${n}]`, new Blob([readFileSync(file)]), basename(file)));
    sent = form;
  }
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(token ? { Authorization: token } : {}),
      ...(typeof sent === 'string' ? { 'Content-Type': 'application/json' } : {}),
    },
    body: sent,
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

/** Discord's error body as lines: `code message` and each leaf of the `errors` tree with its path. */
export function describeError({ status, body }: ApiAnswer): string {
  if (!body || typeof body !== 'object') return `HTTP ${status}${body ? `: ${String(body)}` : ''}`;
  const lines = [`HTTP ${status}: ${body.message ?? 'error'} (code ${body.code})`];
  const walk = (node: unknown, at: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '_errors' && Array.isArray(value)) {
        for (const e of value as { message: string; code: string }[])
          lines.push(`  ${at || '(body)'}: ${e.message} [${e.code}]`);
      } else walk(value, at ? `${at}.${key}` : key);
    }
  };
  walk(body.errors, '');
  return lines.join('\n');
}
