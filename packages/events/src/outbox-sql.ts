/**
 * The statement a service runs in the transaction that inserts outbox rows: the relay
 * LISTENs on this channel, and PostgreSQL delivers the notification at commit, so the
 * relay wakes at once instead of polling fast. (A trigger would do the same, but
 * Prisma's WebAssembly migration engine cannot apply a plpgsql body.)
 */
export function outboxNotifySql(schema: string): string {
  return `SELECT pg_notify('${schema}_outbox', '')`;
}

/** The LISTEN channel of a service's outbox. */
export function outboxChannel(schema: string): string {
  return `${schema}_outbox`;
}
