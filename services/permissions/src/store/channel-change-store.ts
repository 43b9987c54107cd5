import { FormErrors } from '@acs/validation';
import type { ViewerContext } from '../domain/channel-visibility';
import { isThreadType, THREAD_PARENT_TYPES } from '../domain/channel-types';
import { checkOverwriteEditor } from '../domain/check-overwrite-editor';
import type { Channel, Overwrite } from '../domain/guild-model';
import {
  InvalidChannelTypeError,
  UnknownChannelError,
  UnknownOverwriteError,
  UnknownRoleError,
} from '../domain/permissions-errors';
import { renderChannel } from '../domain/render/render-channel';
import type { UpdateChannelInput } from '../domain/validate-update-channel';
import { ErrorCode } from '../domain/validation/error-codes';
import type { PrismaClient } from '../generated/prisma/client';
import type { ChannelStore } from './channel-store';
import { lockGuild } from './lock-guild';
import type { PermissionContextStore } from './permission-context-store';
import type { TransactionClient } from './transaction-client';
import { writeOutboxEvent } from './write-outbox-event';

const THREAD_TYPES = [...THREAD_PARENT_TYPES.keys()];

/** A changed channel and the owner of its guild (for rendering threads). */
export interface ChangedChannel {
  channel: Channel;
  guildOwnerId: string;
}

/**
 * Changes to existing guild channels: their name and overwrites (admin API), one overwrite
 * (a bot's Edit / Delete Channel Permission), the channel itself (admin delete). Each runs
 * in one transaction that locks the guild and writes its `permissions.channel.*` event.
 */
export class ChannelChangeStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly channels: ChannelStore,
    private readonly contexts: PermissionContextStore,
  ) {}

  /** Renames the channel and/or replaces its overwrites. 10003 unknown; 50035 for a role overwrite naming no role, or overwrites on a thread. */
  async updateChannel(channelId: string, input: UpdateChannelInput): Promise<ChangedChannel> {
    return this.change(channelId, async (tx, channel) => {
      const { overwrites } = input;
      if (overwrites) {
        await this.checkOverwriteTargets(tx, channel, overwrites);
        await tx.permissionOverwrite.deleteMany({ where: { channelId: BigInt(channelId) } });
        await tx.permissionOverwrite.createMany({ data: overwrites.map((o) => overwriteRow(channelId, o)) });
      }
      if (input.name !== undefined) {
        await tx.channel.update({ where: { id: BigInt(channelId) }, data: { name: input.name } });
      }
      return 'channel.updated';
    });
  }

  /**
   * Deletes the channel and its threads (each with a `permissions.channel.deleted` event); a
   * category's channels stay, without a parent, each with a `permissions.channel.updated`.
   */
  async deleteChannel(channelId: string): Promise<ChangedChannel> {
    return this.change(channelId, async (tx, channel) => {
      const id = BigInt(channelId);
      const owner = await tx.guild.findUniqueOrThrow({
        where: { id: BigInt(channel.guildId) },
        select: { ownerId: true },
      });
      const announce = async (name: 'channel.updated' | 'channel.deleted', c: Channel) =>
        writeOutboxEvent(tx, name, {
          guild_id: c.guildId,
          channel: renderChannel(c, owner.ownerId.toString()),
        });
      const related = (await this.channels.listChannels(channel.guildId, tx)).filter(
        (c) => c.parentId === channelId,
      );
      const threads = related.filter((c) => isThreadType(c.type));
      for (const thread of threads) await announce('channel.deleted', thread);
      await tx.channel.deleteMany({ where: { parentId: id, type: { in: [...THREAD_TYPES] } } });
      await tx.channel.delete({ where: { id } });
      for (const child of related.filter((c) => !isThreadType(c.type))) {
        await announce('channel.updated', { ...child, parentId: null });
      }
      return 'channel.deleted';
    });
  }

  /**
   * Sets one overwrite as the bot `editorId` asks (Edit Channel Permissions): the editor's
   * right is checked on the channel as it is before the change (`checkOverwriteEditor`);
   * a role overwrite must name a role of the guild (404 10011).
   */
  async putOverwrite(channelId: string, overwrite: Overwrite, editorId: string): Promise<void> {
    await this.change(channelId, async (tx, channel, parent) => {
      if (isThreadType(channel.type)) throw new InvalidChannelTypeError();
      const editor = await this.editorContext(tx, channel, editorId);
      checkOverwriteEditor(editor, { channel, parent }, overwrite.allow | overwrite.deny);
      if (overwrite.type === 0 && !(await this.isRole(tx, channel.guildId, overwrite.id))) {
        throw new UnknownRoleError();
      }
      const row = overwriteRow(channelId, overwrite);
      await tx.permissionOverwrite.upsert({
        where: { channelId_targetId: { channelId: row.channelId, targetId: row.targetId } },
        create: row,
        update: { type: row.type, allow: row.allow, deny: row.deny },
      });
      return 'channel.updated';
    });
  }

  /** Removes one overwrite (Delete Channel Permission); 404 10009 when there is none. */
  async deleteOverwrite(channelId: string, targetId: string, editorId: string): Promise<void> {
    await this.change(channelId, async (tx, channel, parent) => {
      const editor = await this.editorContext(tx, channel, editorId);
      checkOverwriteEditor(editor, { channel, parent }, 0n);
      const { count } = await tx.permissionOverwrite.deleteMany({
        where: { channelId: BigInt(channelId), targetId: BigInt(targetId) },
      });
      if (count === 0) throw new UnknownOverwriteError();
      return 'channel.updated';
    });
  }

  /**
   * Runs `apply` on the channel with its guild locked, then writes the event `apply` names
   * with the channel as it is afterwards (as it was, for a delete). 404 10003 when there is
   * no such guild channel.
   */
  private async change(
    channelId: string,
    apply: (
      tx: TransactionClient,
      channel: Channel,
      parent: Channel | null,
    ) => Promise<'channel.updated' | 'channel.deleted'>,
  ): Promise<ChangedChannel> {
    return this.prisma.$transaction(async (tx) => {
      const found = await this.channels.getChannel(channelId, tx);
      if (!found || !(await lockGuild(tx, found.guildId))) throw new UnknownChannelError();
      // Read again under the lock: a concurrent change of the same guild has finished.
      const before = (await this.channels.getChannel(channelId, tx)) ?? found;
      const parent =
        before.parentId === null ? null : ((await this.channels.getChannel(before.parentId, tx)) ?? null);
      const name = await apply(tx, before, parent);
      const after = name === 'channel.deleted' ? before : await this.channels.getChannel(channelId, tx);
      const owner = await tx.guild.findUniqueOrThrow({
        where: { id: BigInt(before.guildId) },
        select: { ownerId: true },
      });
      const guildOwnerId = owner.ownerId.toString();
      const channel = after ?? before;
      await writeOutboxEvent(tx, name, {
        guild_id: channel.guildId,
        channel: renderChannel(channel, guildOwnerId),
      });
      return { channel, guildOwnerId };
    });
  }

  private async editorContext(
    tx: TransactionClient,
    channel: Channel,
    editorId: string,
  ): Promise<ViewerContext> {
    return this.contexts.loadPermissionContext(channel.guildId, editorId, undefined, tx);
  }

  private async isRole(tx: TransactionClient, guildId: string, roleId: string): Promise<boolean> {
    const role = await tx.role.findFirst({
      where: { id: BigInt(roleId), guildId: BigInt(guildId) },
      select: { id: true },
    });
    return role !== null;
  }

  /** 50035 at `permission_overwrites[.<index>.id]`: a thread has none; role overwrites name roles of the guild. */
  private async checkOverwriteTargets(
    tx: TransactionClient,
    channel: Channel,
    overwrites: Overwrite[],
  ): Promise<void> {
    const errors = new FormErrors();
    if (isThreadType(channel.type) && overwrites.length > 0) {
      errors.add(
        ['permission_overwrites'],
        ErrorCode.CHANNEL_OVERWRITES_INVALID,
        "Threads have no permission overwrites; they use their parent channel's.",
      );
    }
    const roleIds = overwrites.filter((o) => o.type === 0).map((o) => BigInt(o.id));
    const roles =
      roleIds.length === 0
        ? []
        : await tx.role.findMany({
            where: { guildId: BigInt(channel.guildId), id: { in: roleIds } },
            select: { id: true },
          });
    const known = new Set(roles.map((r) => r.id.toString()));
    overwrites.forEach((o, index) => {
      if (o.type === 0 && !known.has(o.id)) {
        errors.add(['permission_overwrites', index, 'id'], ErrorCode.UNKNOWN_ROLE, 'Unknown Role');
      }
    });
    if (errors.count > 0) throw errors.toError();
  }
}

function overwriteRow(channelId: string, o: Overwrite) {
  return { channelId: BigInt(channelId), targetId: BigInt(o.id), type: o.type, allow: o.allow, deny: o.deny };
}
