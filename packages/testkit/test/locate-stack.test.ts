import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findDataDir, locateStack, stackPointerFile } from '../src/locate-stack';

let root: string;
let home: string;
let checkout: string;

/** A checkout whose `npm start` runs: .data with stack.json and admin-token. */
function startedCheckout(dir: string, apiUrl = 'http://127.0.0.1:9999'): string {
  const data = join(dir, '.data');
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'stack.json'), JSON.stringify({ apiUrl }));
  writeFileSync(join(data, 'admin-token'), 'secret\n');
  return data;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'acs-locate-'));
  home = join(root, 'home');
  checkout = join(root, 'checkout');
  mkdirSync(home);
  mkdirSync(checkout);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

it('takes ACS_URL and ACS_ADMIN_TOKEN (or ADMIN_TOKEN) first', () => {
  const env = { ACS_URL: 'http://acs.test:8080/', ACS_ADMIN_TOKEN: 't' };
  expect(locateStack(env, { cwd: root, home })).toEqual({ apiUrl: 'http://acs.test:8080', adminToken: 't' });
  expect(locateStack({ ACS_URL: 'http://a', ADMIN_TOKEN: 'u' }, { cwd: root, home }).adminToken).toBe('u');
});

it("finds the running npm start's .data above the current folder, or through ~/.acs/stack.json", () => {
  const data = startedCheckout(checkout);
  const inside = join(checkout, 'examples', 'bot');
  mkdirSync(inside, { recursive: true });
  expect(locateStack({}, { cwd: inside, home })).toEqual({
    apiUrl: 'http://127.0.0.1:9999',
    adminToken: 'secret',
    dataDir: data,
  });
  const elsewhere = join(root, 'my-bot');
  mkdirSync(elsewhere);
  expect(findDataDir({}, { cwd: elsewhere, home })).toBeUndefined();
  mkdirSync(join(home, '.acs'));
  writeFileSync(stackPointerFile(home), JSON.stringify({ dataDir: data }));
  expect(locateStack({}, { cwd: elsewhere, home }).apiUrl).toBe('http://127.0.0.1:9999');
  // ACS_URL alone overrides the address; the token still comes from .data.
  expect(locateStack({ ACS_URL: 'http://other' }, { cwd: elsewhere, home })).toMatchObject({
    apiUrl: 'http://other',
    adminToken: 'secret',
  });
  expect(findDataDir({ ACS_DATA_DIR: '/x' }, { cwd: elsewhere, home })).toBe('/x');
});

it('says what to do when no stack is found, and ignores a pointer to a stopped one', () => {
  const data = startedCheckout(checkout);
  rmSync(join(data, 'stack.json'));
  mkdirSync(join(home, '.acs'));
  writeFileSync(stackPointerFile(home), JSON.stringify({ dataDir: data }));
  expect(() => locateStack({}, { cwd: root, home })).toThrow(
    'no running ACS found: set ACS_URL and ACS_ADMIN_TOKEN, or run `npm start` in an ACS checkout',
  );
});
