import type { InvocationFacts, InvocationQuery } from '../domain/invocation-facts';
import { UnknownApplicationError, UnknownUserError } from '../domain/oauth-errors';
import type { PrismaClient } from '../generated/prisma/client';
import { APPLICATION_RELATIONS, toApplicationRecord } from './to-application-record';
import { toUserRecord } from './to-user-record';

/** Reads what an invocation needs of the application, its installations and the users involved. */
export class InvocationStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The facts of one invocation in two reads run together: the application with its
   * installation in the guild and the invoking user's install, and every user involved
   * (the invoker and those to resolve) in one query. 404 / 10002 when the application is
   * unknown, then 404 / 10013 when the invoking user is.
   */
  async describe(query: InvocationQuery): Promise<InvocationFacts> {
    const [app, users] = await Promise.all([
      this.prisma.application.findUnique({
        where: { id: query.applicationId },
        include: {
          ...APPLICATION_RELATIONS,
          guildInstallations:
            query.guildId === null ? false : { where: { guildId: query.guildId }, select: { scopes: true } },
          userInstallations: { where: { userId: query.userId }, select: { userId: true } },
        },
      }),
      this.prisma.user.findMany({ where: { id: { in: [query.userId, ...query.resolveUserIds] } } }),
    ]);
    if (!app) throw new UnknownApplicationError();
    const byId = new Map(users.map((row) => [row.id, toUserRecord(row)]));
    const user = byId.get(query.userId);
    if (!user) throw new UnknownUserError();
    return {
      application: toApplicationRecord(app),
      signingKeyPem: app.signingKey,
      user,
      guildScopes: app.guildInstallations?.[0]?.scopes ?? null,
      userInstalled: app.userInstallations.length > 0,
      resolvedUsers: query.resolveUserIds.flatMap((id) => byId.get(id) ?? []),
    };
  }
}
