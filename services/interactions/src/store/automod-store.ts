import type { Pool, PoolClient } from 'pg';
import { createEvent, type OutboxRow } from '@acs/events';
import { withTransaction } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import {
  UnknownRuleError,
  assertMayManageRules,
  assertRuleRoom,
  checkRuleInGuild,
  compileRule,
  readAutoModRule,
  type AutoModRule,
  type CompiledRule,
  type ExecutionPlan,
  type GuildFacts,
  type RuleFields,
  type RuleManager,
} from '../domain/automod';
import { writeEvents } from './write-events';

/** How many guilds' compiled rules a replica keeps (the least recently judged go first). */
const MAX_CACHED_GUILDS = 1000;

/**
 * A guild's AutoMod rules (`interactions.automod_rule`): the rule routes' reads and changes,
 * each change with its `interactions.automod_rule.*` event in one transaction; the compiled
 * rules a message is judged by; and what running a verdict's actions writes.
 */
export class AutoModStore {
  /** Per guild: the (id, updated_at) list the compiled rules were built from, and them. */
  private readonly compiled = new Map<string, { version: string; rules: CompiledRule[] }>();

  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
  ) {}

  /** The guild's rules, oldest first. */
  async list(guildId: string): Promise<AutoModRule[]> {
    const { rows } = await this.pool.query<{ body: AutoModRule }>(
      'SELECT body FROM automod_rule WHERE guild_id = $1 ORDER BY id',
      [guildId],
    );
    return rows.map((row) => row.body);
  }

  /** One rule of the guild: 404 for another guild's or none. */
  async get(guildId: string, ruleId: string): Promise<AutoModRule> {
    const { rows } = await this.pool.query<{ body: AutoModRule }>(
      'SELECT body FROM automod_rule WHERE guild_id = $1 AND id = $2',
      [guildId, ruleId],
    );
    if (!rows[0]) throw new UnknownRuleError();
    return rows[0].body;
  }

  /**
   * Creates a rule (checkRuleInGuild, then assertRuleRoom under the guild's lock, so that two
   * racing creates cannot pass the limit of its trigger type together).
   */
  async create(
    guildId: string,
    creatorId: string,
    fields: RuleFields,
    guild: GuildFacts,
  ): Promise<AutoModRule> {
    checkRuleInGuild(fields, guild);
    return withTransaction(this.pool, async (db) => {
      await lockGuild(db, guildId);
      const { rows } = await db.query<{ trigger_type: number }>(
        'SELECT trigger_type FROM automod_rule WHERE guild_id = $1',
        [guildId],
      );
      assertRuleRoom(fields.trigger_type, rows);
      const rule: AutoModRule = { id: this.ids.next(), guild_id: guildId, creator_id: creatorId, ...fields };
      await db.query('INSERT INTO automod_rule (id, guild_id, trigger_type, body) VALUES ($1, $2, $3, $4)', [
        rule.id,
        guildId,
        rule.trigger_type,
        JSON.stringify(rule),
      ]);
      await writeEvents(db, [ruleEvent('interactions.automod_rule.created', rule)]);
      return rule;
    });
  }

  /**
   * Applies an Update's body to the rule (readAutoModRule with the stored rule,
   * assertMayManageRules for its actions, checkRuleInGuild).
   */
  async update(
    guildId: string,
    ruleId: string,
    body: unknown,
    guild: GuildFacts,
    manager: RuleManager,
  ): Promise<AutoModRule> {
    return withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ body: AutoModRule }>(
        'SELECT body FROM automod_rule WHERE guild_id = $1 AND id = $2 FOR UPDATE',
        [guildId, ruleId],
      );
      const existing = rows[0]?.body;
      if (!existing) throw new UnknownRuleError();
      const fields = readAutoModRule(body, existing);
      assertMayManageRules(manager, fields.actions);
      checkRuleInGuild(fields, guild);
      const rule: AutoModRule = { ...existing, ...fields };
      await db.query('UPDATE automod_rule SET body = $2, updated_at = clock_timestamp() WHERE id = $1', [
        ruleId,
        JSON.stringify(rule),
      ]);
      await writeEvents(db, [ruleEvent('interactions.automod_rule.updated', rule)]);
      return rule;
    });
  }

  /** Deletes a rule with its event; answers it. */
  async remove(guildId: string, ruleId: string): Promise<AutoModRule> {
    return withTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ body: AutoModRule }>(
        'DELETE FROM automod_rule WHERE guild_id = $1 AND id = $2 RETURNING body',
        [guildId, ruleId],
      );
      const rule = rows[0]?.body;
      if (!rule) throw new UnknownRuleError();
      await writeEvents(db, [ruleEvent('interactions.automod_rule.deleted', rule)]);
      return rule;
    });
  }

  /**
   * The guild's enabled rules, compiled. One small query per message (the rules' ids and
   * change times); the rules are read and compiled again only when that list changed, so
   * every replica follows every change at its next message without an event.
   */
  async rulesOf(guildId: string): Promise<CompiledRule[]> {
    const { rows } = await this.pool.query<{ version: string | null }>(
      `SELECT string_agg(id::text || ':' || (extract(epoch FROM updated_at) * 1000)::bigint::text, ',' ORDER BY id) AS version
         FROM automod_rule WHERE guild_id = $1`,
      [guildId],
    );
    const version = rows[0]?.version ?? '';
    const known = this.compiled.get(guildId);
    if (known && known.version === version) {
      this.compiled.delete(guildId);
      this.compiled.set(guildId, known);
      return known.rules;
    }
    const rules =
      version === '' ? [] : (await this.list(guildId)).filter((rule) => rule.enabled).map(compileRule);
    this.compiled.set(guildId, { version, rules });
    if (this.compiled.size > MAX_CACHED_GUILDS) {
      const oldest = this.compiled.keys().next().value;
      if (oldest !== undefined) this.compiled.delete(oldest);
    }
    return rules;
  }

  /** A new id (for alert messages planned outside a transaction of this store). */
  nextId(): string {
    return this.ids.next();
  }

  /** Writes a verdict's executions on their own: a blocked message's alerts and events. */
  async recordExecutions(plan: ExecutionPlan): Promise<void> {
    await withTransaction(this.pool, (db) => writeExecutions(db, plan));
  }
}

/**
 * Writes what running a verdict's actions leaves (planExecutions): each alert message (type
 * 24) with its MESSAGE_CREATE, and each AUTO_MODERATION_ACTION_EXECUTION, inside the caller's
 * transaction (the kept message's, so that its alerts exist exactly when it does).
 */
export async function writeExecutions(db: PoolClient, plan: ExecutionPlan): Promise<void> {
  for (const alert of plan.alerts) {
    await db.query(
      `INSERT INTO message (id, application_id, channel_id, guild_id, is_original, flags, body, created_at, author_id)
       VALUES ($1, NULL, $2, $3, false, 0, $4, $5, $6)`,
      [
        alert.id,
        alert.channel_id,
        plan.payloads[0]?.guild_id ?? null,
        JSON.stringify(alert),
        new Date(Date.parse(alert.timestamp)),
        typeof alert.author.id === 'string' ? alert.author.id : null,
      ],
    );
  }
  const guildId = plan.payloads[0]?.guild_id;
  if (guildId === undefined) return;
  await writeEvents(db, [
    ...plan.alerts.map((alert) =>
      createEvent('interactions.channel_message.created', {
        channel_id: alert.channel_id,
        guild_id: guildId,
        recipient_ids: [],
        message: { ...alert },
      }),
    ),
    ...plan.payloads.map((payload) => createEvent('interactions.automod.action_executed', payload)),
  ]);
}

function ruleEvent(
  name:
    | 'interactions.automod_rule.created'
    | 'interactions.automod_rule.updated'
    | 'interactions.automod_rule.deleted',
  rule: AutoModRule,
): OutboxRow {
  return createEvent(name, { guild_id: rule.guild_id, rule: { ...rule } });
}

/** Serializes the rule changes of one guild (the count per trigger type is checked under it). */
async function lockGuild(db: PoolClient, guildId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`automod:${guildId}`]);
}
