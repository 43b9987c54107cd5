import type { interactions } from '@acs/protos';
import { PERMISSION_FLAGS as P } from '@acs/validation';
import {
  APP,
  BOT,
  openResponseStores,
  recordInteraction,
  type InteractionFixture,
  type ResponseContext,
} from '../store/response-fixtures';
import { serveResponses, type ResponsesOverGrpc } from './serve-responses';

// USE_EXTERNAL_APPS (D:topics/permissions.mdx): where the invoker lacks it and the app is
// not installed in the guild (only their user install authorizes it), the app's responses
// and follow-ups are ephemeral whatever flags the app sends.

let ctx: ResponseContext;
let server: ResponsesOverGrpc;

beforeAll(async () => {
  ctx = await openResponseStores();
  server = await serveResponses(ctx, BOT);
});
afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

const WITHOUT = (P.VIEW_CHANNEL | P.SEND_MESSAGES | P.USE_APPLICATION_COMMANDS).toString();
const WITH = (BigInt(WITHOUT) | P.USE_EXTERNAL_APPS).toString();

/** The flags of the response (callback `body`) and of a follow-up, for an interaction of `fixture`. */
async function flagsOf(
  fixture: InteractionFixture,
  body: object,
): Promise<{ response: number; followup: number }> {
  const interaction = await recordInteraction(ctx, fixture);
  const answer = await server.call<
    interactions.CreateCallbackRequest,
    interactions.CreateCallbackResponse__Output
  >('CreateCallback', {
    interaction_id: interaction.id,
    token: interaction.token,
    body_json: JSON.stringify(body),
    with_response: true,
  });
  const response = JSON.parse(answer.response_json) as {
    interaction: { response_message_ephemeral: boolean };
  };
  const followup = await server.call<
    interactions.CreateFollowupRequest,
    interactions.MessageResponse__Output
  >('CreateFollowup', {
    application_id: APP,
    token: interaction.token,
    body_json: JSON.stringify({ content: 'more' }),
  });
  return {
    response: response.interaction.response_message_ephemeral ? 64 : 0,
    followup: (JSON.parse(followup.message_json) as { flags: number }).flags & 64,
  };
}

describe('USE_EXTERNAL_APPS', () => {
  const reply = { type: 4, data: { content: 'public please' } };

  it("forces a user-installed app's response and follow-ups ephemeral where the invoker lacks it", async () => {
    expect(await flagsOf({ userInstallOnly: true, memberPermissions: WITHOUT }, reply)).toEqual({
      response: 64,
      followup: 64,
    });
    // A deferred response too.
    expect(await flagsOf({ userInstallOnly: true, memberPermissions: WITHOUT }, { type: 5 })).toMatchObject({
      response: 64,
    });
  });

  it('leaves them public with the permission, for an app installed in the guild, and in DMs', async () => {
    expect(await flagsOf({ userInstallOnly: true, memberPermissions: WITH }, reply)).toEqual({
      response: 0,
      followup: 0,
    });
    expect(await flagsOf({ userInstallOnly: false, memberPermissions: WITHOUT }, reply)).toEqual({
      response: 0,
      followup: 0,
    });
    expect(await flagsOf({ userInstallOnly: true, guildId: null }, reply)).toEqual({
      response: 0,
      followup: 0,
    });
  });
});
