import { PRIVILEGED_INTENTS } from './gateway-codes';

/**
 * The privileged intents among `intents` the application is not granted (0 when all are):
 * an app in `threshold` guilds or more needs each one's full flag, below it the full or
 * the `_LIMITED` flag (D:resources/application.mdx §Application Flags). Identify with any
 * closes 4014 (D:events/gateway.mdx §Privileged Intents, Gateway Restrictions).
 */
export function disallowedIntents(
  intents: number,
  applicationFlags: number,
  guildCount: number,
  threshold: number,
): number {
  let refused = 0;
  for (const { intent, full, limited } of PRIVILEGED_INTENTS) {
    if ((intents & intent) === 0) continue;
    const granting = guildCount >= threshold ? full : full | limited;
    if ((applicationFlags & granting) === 0) refused |= intent;
  }
  return refused;
}
