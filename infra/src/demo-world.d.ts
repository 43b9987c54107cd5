// Types of demo-world.js.
import type { AdminRequest } from './admin-client';

export interface DemoWorld {
  user: { id: string; username: string };
  guild: { id: string; name: string };
  role: { id: string; name: string };
  channel: { id: string; name: string };
  application: { id: string; name: string; verifyKey: string; botToken: string; clientSecret: string };
}

/** The typical world of ADMIN-API.md, built through the admin API. */
export function createDemoWorld(
  admin: AdminRequest,
  names?: { username?: string; guildName?: string; applicationName?: string },
): Promise<DemoWorld>;
export const INSTALL_SCOPES: string;
