import type { PoolClient } from 'pg';
import { UnknownLobbyError } from '../domain/lobby-errors';
import type { LobbyRecord } from '../domain/lobby-objects';
import { LOBBY_COLUMNS, lobbyOf, MEMBER_COLUMNS, type LobbyRow, type MemberRow } from './lobby-rows';

/**
 * The application's lobby with its members (its row locked for the transaction when
 * `lock`), or 404 / 10031 when there is none or it is past its idle timeout.
 */
export async function readLobby(
  db: PoolClient,
  applicationId: string,
  lobbyId: string,
  lock: boolean,
): Promise<LobbyRecord> {
  const found = await db.query<LobbyRow>(
    `SELECT ${LOBBY_COLUMNS} FROM lobby
      WHERE id = $1 AND application_id = $2 AND expires_at > now() ${lock ? 'FOR UPDATE' : ''}`,
    [lobbyId, applicationId],
  );
  const row = found.rows[0];
  if (!row) throw new UnknownLobbyError();
  const members = await db.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM lobby_member WHERE lobby_id = $1 ORDER BY joined_at, user_id`,
    [lobbyId],
  );
  return lobbyOf(row, members.rows);
}
