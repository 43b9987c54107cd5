import type { Logger } from '@acs/service-kit';
import type { OAuthClient } from '../../clients/oauth-client';
import type { PermissionsClient } from '../../clients/permissions-client';
import { Intent } from '../../domain/gateway-codes';
import type { GatewayPrincipal } from '../../domain/gateway-principal';
import {
  OFFLINE_PRESENCE,
  presenceUpdatePayload,
  type Presence,
  type StoredPresence,
} from '../../domain/presence';
import type { PresenceStore } from '../../store/presence-store';
import type { DispatchBus } from './dispatch-bus';

/** What announcing presences takes. */
export interface PresenceAnnouncerDeps {
  store: PresenceStore;
  oauth: OAuthClient;
  permissions: PermissionsClient;
  bus: DispatchBus;
  logger: Pick<Logger, 'warn'>;
}

/**
 * Sets presences and tells the guilds' bots (D:events/gateway-events.mdx §Presence Update):
 * a session's presence is stored (shared by the replicas), and PRESENCE_UPDATE goes, for
 * each guild the user is a member of, to the sessions of every bot in that guild that
 * identified with GUILD_PRESENCES, on the guild's shard. When a user's last session ends,
 * they go offline the same way.
 */
export class PresenceAnnouncer {
  /** Per session, the last of its presence changes still under way. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly deps: PresenceAnnouncerDeps) {}

  /**
   * A session set its presence (op 3, or Identify's `presence`, or a chat client's connection).
   * A session's changes are stored and announced in the order they were made: an op 3 sent
   * right after READY is not overtaken by the connection's own `online`.
   */
  set(sessionId: string, principal: GatewayPrincipal, presence: Presence): Promise<void> {
    return this.inTurn(sessionId, () => this.store(sessionId, principal, presence));
  }

  /** Stores one presence of the session and announces it. */
  private async store(sessionId: string, principal: GatewayPrincipal, presence: Presence): Promise<void> {
    const isBot = principal.kind === 'bot';
    const userId = isBot ? principal.applicationId : principal.userId;
    // Bots have no privacy setting: their custom status is everyone's to see.
    const profilePrivacy = isBot ? 'everyone' : await this.deps.oauth.profilePrivacy(userId);
    const stored = await this.deps.store.put(sessionId, {
      userId,
      presence,
      setter: isBot ? 'bot' : 'user',
      profilePrivacy,
    });
    await this.announce(stored);
  }

  /**
   * The presences of the guild's members `userIds` (a Request Guild Members chunk's), as the
   * store renders them for a guild of `guildMemberCount` members (0 when not known).
   */
  presencesOf(
    guildId: string,
    userIds: readonly string[],
    guildMemberCount = 0,
  ): Promise<Record<string, unknown>[]> {
    return this.deps.store.presencesOf(guildId, userIds, guildMemberCount);
  }

  /**
   * A session ended: its presence goes (after any change still under way, which would
   * otherwise store it again); the user's is their other sessions', or offline.
   */
  end(sessionId: string): void {
    void this.inTurn(sessionId, () => this.deps.store.remove(sessionId))
      .then((left) => {
        if (!left) return;
        return this.announce(
          left.latest ?? {
            userId: left.userId,
            presence: OFFLINE_PRESENCE,
            setter: 'user',
            profilePrivacy: 'everyone',
          },
        );
      })
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, sessionId }, 'presence of an ended session not cleared'),
      );
  }

  /** Runs `work` after the session's earlier presence changes settled, whatever their outcome. */
  private inTurn<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const result = (this.turns.get(sessionId) ?? Promise.resolve()).then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(sessionId, settled);
    void settled.then(() => {
      if (this.turns.get(sessionId) === settled) this.turns.delete(sessionId);
    });
    return result;
  }

  /** PRESENCE_UPDATE of the user to the bots of each of their guilds. */
  private async announce(stored: StoredPresence): Promise<void> {
    const { permissions, oauth, bus } = this.deps;
    const guilds = await permissions.memberGuildCounts(stored.userId);
    if (guilds.length === 0) return;
    const [bots, user] = await Promise.all([
      permissions.guildBots(guilds.map((g) => g.guildId)),
      oauth.user(stored.userId),
    ]);
    for (const { guildId, memberCount } of guilds) {
      const applications = bots.get(guildId) ?? [];
      if (applications.length === 0) continue;
      const d = presenceUpdatePayload(stored, guildId, memberCount, user);
      for (const applicationId of applications) {
        bus.publish(applicationId, {
          kind: 'dispatch',
          t: 'PRESENCE_UPDATE',
          d,
          guildId,
          intent: Intent.GUILD_PRESENCES,
        });
      }
    }
    await bus.flush();
  }
}
