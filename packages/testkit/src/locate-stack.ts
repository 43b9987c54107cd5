import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where a running ACS answers and the admin token it takes. */
export interface StackLocation {
  /** api-gateway's origin (`http://127.0.0.1:8080`): the public API is under `/api/v10`. */
  apiUrl: string;
  adminToken: string;
  /** The `.data` folder of the `npm start` that runs it, when it was found through one. */
  dataDir?: string;
}

/**
 * The file `npm start` writes in the user's home naming its `.data` folder, so that a bot's
 * own project, outside the checkout, finds the running stack.
 */
export function stackPointerFile(home = homedir()): string {
  return join(home, '.acs', 'stack.json');
}

/**
 * The `.data` folder of a running `npm start`: ACS_DATA_DIR; else `.data/stack.json` in
 * `cwd` or a folder above it (inside a checkout); else the one `~/.acs/stack.json` names.
 * Undefined when none is found.
 */
export function findDataDir(
  env: Record<string, string | undefined>,
  { cwd = process.cwd(), home = homedir() }: { cwd?: string; home?: string } = {},
): string | undefined {
  if (env.ACS_DATA_DIR) return env.ACS_DATA_DIR;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.data', 'stack.json'))) return join(dir, '.data');
    if (dirname(dir) === dir) break;
  }
  const pointer = readJson(stackPointerFile(home));
  const dataDir = typeof pointer?.dataDir === 'string' ? pointer.dataDir : undefined;
  return dataDir && existsSync(join(dataDir, 'stack.json')) ? dataDir : undefined;
}

/**
 * The running ACS: ACS_URL and ACS_ADMIN_TOKEN (or ADMIN_TOKEN) when set; what is missing
 * comes from the `.data` folder of the running `npm start` (findDataDir): its stack.json
 * and admin-token. Throws saying what to do when neither gives both.
 */
export function locateStack(
  env: Record<string, string | undefined> = process.env,
  where: { cwd?: string; home?: string } = {},
): StackLocation {
  const fromEnv = {
    apiUrl: env.ACS_URL,
    adminToken: env.ACS_ADMIN_TOKEN ?? env.ADMIN_TOKEN,
  };
  const dataDir = fromEnv.apiUrl && fromEnv.adminToken ? undefined : findDataDir(env, where);
  const stack = dataDir ? readJson(join(dataDir, 'stack.json')) : undefined;
  const apiUrl = fromEnv.apiUrl ?? (typeof stack?.apiUrl === 'string' ? stack.apiUrl : undefined);
  const adminToken = fromEnv.adminToken ?? readText(dataDir && join(dataDir, 'admin-token'));
  if (!apiUrl || !adminToken) {
    throw new Error(
      'no running ACS found: set ACS_URL and ACS_ADMIN_TOKEN, or run `npm start` in an ACS checkout ' +
        `(it writes .data/stack.json and ${stackPointerFile(where.home)})` +
        (dataDir ? `; ${dataDir} lacks ${apiUrl ? 'admin-token' : 'a stack.json with apiUrl'}` : ''),
    );
  }
  return { apiUrl: apiUrl.replace(/\/+$/, ''), adminToken, ...(dataDir ? { dataDir } : {}) };
}

function readText(file: string | undefined): string | undefined {
  if (!file || !existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim() || undefined;
}

function readJson(file: string): Record<string, unknown> | undefined {
  const text = readText(file);
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
