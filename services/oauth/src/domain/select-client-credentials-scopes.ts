import { invalidScope } from './oauth2-errors';
import { CLIENT_CREDENTIALS_SCOPES, isScope, splitScopeParam, type Scope } from './scopes';

/**
 * The scopes of a client-credentials request (RFC 6749 §3.3, §4.4.2): required, every
 * one known and one a client-credentials token may hold; `invalid_scope` otherwise.
 */
export function selectClientCredentialsScopes(param: string | undefined): Scope[] {
  const names = splitScopeParam(param ?? '');
  if (names.length === 0) throw invalidScope('A "scope" is required.');
  for (const name of names) {
    if (!isScope(name)) throw invalidScope(`Unknown scope "${name.slice(0, 64)}".`);
    if (!CLIENT_CREDENTIALS_SCOPES.includes(name)) {
      throw invalidScope(`Scope "${name}" cannot be granted through client credentials.`);
    }
  }
  return names as Scope[];
}

/**
 * The scopes of a refreshed token (RFC 6749 §6): those requested, which must all have been
 * granted, or every granted one when none is requested; `invalid_scope` otherwise.
 */
export function narrowRefreshScopes(param: string | undefined, granted: readonly string[]): string[] {
  const names = splitScopeParam(param ?? '');
  if (names.length === 0) return [...granted];
  const excess = names.find((name) => !granted.includes(name));
  if (excess !== undefined) throw invalidScope(`Scope "${excess.slice(0, 64)}" was not granted.`);
  return names;
}
