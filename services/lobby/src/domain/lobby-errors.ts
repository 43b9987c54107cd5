import { DiscordError, fieldError, InvalidFormBodyError, UnknownResourceError } from '@acs/discord-errors';

/** 404 / 10031: no such lobby, or one of another application (FACTS §13, B5). */
export class UnknownLobbyError extends UnknownResourceError {
  constructor() {
    super(10031, 'Unknown Lobby');
  }
}

/** 404 / 10013: a member given by id is no user (B5, bulk). */
export class UnknownUserError extends UnknownResourceError {
  constructor() {
    super(10013, 'Unknown User');
  }
}

/** 404 / 10008: no such message in the lobby. */
export class UnknownMessageError extends UnknownResourceError {
  constructor() {
    super(10008, 'Unknown Message');
  }
}

/**
 * 403 / 50001: a user who is not a member reads or writes the lobby's messages, or links
 * it without CanLinkLobby. Discord documents no code for these: Missing Access is ACS's choice.
 */
export class NotLobbyMemberError extends DiscordError {
  constructor() {
    super(403, 50001, 'Missing Access');
  }
}

/**
 * A lobby at its member limit, or a user at their lobby limit, on a route that adds one
 * user (PUT member, PUT /lobbies): 400 / 50035 with a request-level error. Discord
 * documents no code for these (bulk and create drop such users silently, B5).
 */
export function limitReachedError(code: string, message: string): InvalidFormBodyError {
  return new InvalidFormBodyError({ _errors: [{ code, message }] });
}

/** 400 / 50035 on `channel_id`: the channel is linked to another lobby already (D: "not linked elsewhere"). */
export function channelTakenError(): InvalidFormBodyError {
  return fieldError('channel_id', 'CHANNEL_ALREADY_LINKED', 'This channel is already linked to a lobby');
}
