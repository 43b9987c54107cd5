import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { requireBot } from '../domain/require-scope';
import { snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendNoContent } from '../http/send-json';

/**
 * `PUT /channels/{channel.id}/voice-status` (D:resources/channel.mdx §Set Voice Channel
 * Status; facts §14): a bot sets or clears (`status` null) a voice channel's status, at
 * most 500 characters; 204. Bot tokens only (OAS; anyone else 403 / 20002). permissions
 * decides: SET_VOICE_CHANNEL_STATUS, plus MANAGE_CHANNELS when the bot is not connected to
 * that channel (op 4), else 403 / 50013; a channel it cannot see 403 / 50001; not a voice
 * or stage channel 400 / 50024. VOICE_CHANNEL_STATUS_UPDATE follows from its event.
 */
export function voiceStatusRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const set: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    const channelId = snowflakeParam(req, 'channel_id');
    await clients.permissions.setVoiceChannelStatus(channelId, principal.userId, req.rawBody ?? '');
    sendNoContent(res);
  };
  return [{ method: 'put', path: '/channels/:channel_id/voice-status', handlers: [...readBody, set] }];
}
