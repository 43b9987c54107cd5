import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import { hasPermissions, PERMISSION_FLAGS as P } from '../../src/domain/permission-flags';

describe('the @everyone role of a new guild', () => {
  it('gets the default set 1126971605503553: the template set plus USE_EXTERNAL_APPS, without moderation rights', () => {
    expect(DEFAULT_EVERYONE_PERMISSIONS).toBe(1126971605503553n);
    for (const bit of [
      P.ADMINISTRATOR,
      P.MANAGE_GUILD,
      P.MANAGE_ROLES,
      P.MANAGE_CHANNELS,
      P.KICK_MEMBERS,
      P.MANAGE_MESSAGES,
      P.PIN_MESSAGES,
      P.BYPASS_SLOWMODE,
    ]) {
      expect(hasPermissions(DEFAULT_EVERYONE_PERMISSIONS, bit)).toBe(false);
    }
    for (const bit of [P.VIEW_CHANNEL, P.SEND_MESSAGES, P.USE_APPLICATION_COMMANDS, P.USE_EXTERNAL_APPS]) {
      expect(hasPermissions(DEFAULT_EVERYONE_PERMISSIONS, bit)).toBe(true);
    }
  });
});
