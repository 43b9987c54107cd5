import type { PoolClient } from 'pg';
import { createEvent, writeOutboxRows, type OutboxRow } from '@acs/events';
import { DB_SCHEMA } from '../config';
import type { LobbyEvent } from '../domain/lobby-events';

/** The outbox row of a planned event, checked against the catalog. */
export function lobbyEventRow(event: LobbyEvent): OutboxRow {
  return createEvent(event.name, event.data);
}

/** Writes planned events to the outbox of the running transaction, in order. */
export async function writeLobbyEvents(db: PoolClient, events: readonly LobbyEvent[]): Promise<void> {
  await writeOutboxRows(db, DB_SCHEMA, events.map(lobbyEventRow));
}
