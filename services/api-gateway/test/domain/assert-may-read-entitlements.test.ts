import { DiscordError } from '@acs/discord-errors';
import { assertMayReadEntitlements } from '../../src/domain/assert-may-read-entitlements';
import type { Principal } from '../../src/domain/principal';

const APP = '1000';
const principal = (kind: Principal['kind'], scopes: string[] = [], applicationId = APP): Principal => ({
  kind,
  applicationId,
  userId: kind === 'bot' ? applicationId : '2000',
  scopes,
  applicationFlags: 0,
  userLocale: '',
});

/** The [status, code] the check throws, or 'allowed'. */
function answer(p: Principal, allowBearer: boolean): [number, number] | 'allowed' {
  try {
    assertMayReadEntitlements(p, APP, allowBearer);
    return 'allowed';
  } catch (error) {
    if (!(error instanceof DiscordError)) throw error;
    return [error.httpStatus, error.code];
  }
}

describe('assertMayReadEntitlements', () => {
  it("lets the app's bot in, and a Bearer token of the app with applications.entitlements where the route allows it", () => {
    expect(answer(principal('bot'), false)).toBe('allowed');
    expect(answer(principal('bearer', ['applications.entitlements']), true)).toBe('allowed');
  });

  it('refuses sessions, other applications, Bearer tokens on bot-only routes and Bearer tokens without the scope', () => {
    expect(answer(principal('user'), true)).toEqual([401, 0]);
    expect(answer(principal('bot', [], '3000'), true)).toEqual([403, 20012]);
    expect(answer(principal('bearer', ['applications.entitlements']), false)).toEqual([403, 20002]);
    expect(answer(principal('bearer', ['identify']), true)).toEqual([403, 50026]);
    expect(answer(principal('bearer', ['applications.entitlements'], '3000'), true)).toEqual([403, 20012]);
  });
});
