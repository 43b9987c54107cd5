import type { OAuthClient } from '../../src/clients/oauth-client';
import { createResponder, type Responder } from '../../src/handlers/responder';
import { BOT, openResponseStores, recordInteraction, type ResponseContext } from '../store/response-fixtures';

let ctx: ResponseContext;
let responder: Responder;
/** oauth at its client interface (the network edge): every call fails, so a test sees any it makes. */
const asked: string[] = [];
const oauth: OAuthClient = {
  async describeInvocation(query) {
    asked.push(query.applicationId);
    throw new Error('oauth was asked');
  },
};

beforeAll(async () => {
  ctx = await openResponseStores();
  responder = createResponder({ responses: ctx.responses, oauth });
});
afterAll(async () => ctx?.close());
beforeEach(() => {
  asked.length = 0;
});

describe('the responder, for an inline answer of an interactions endpoint', () => {
  it('needs no token, and uses the application facts the delivery hands it', async () => {
    const interaction = await recordInteraction(ctx);
    await expect(
      responder.respond({
        interactionId: interaction.id,
        body: { type: 4, data: { content: 'inline' } },
        withResponse: false,
        inline: true,
        application: { botUser: BOT, applicationFlags: 0 },
      }),
    ).resolves.toBe('');
    expect(asked).toEqual([]);
    expect(await ctx.messages.get(await interaction.record(), { original: true })).toMatchObject({
      content: 'inline',
      author: BOT,
    });
  });

  it('refuses an invalid answer like a callback, leaving the interaction pending', async () => {
    const interaction = await recordInteraction(ctx);
    await expect(
      responder.respond({
        interactionId: interaction.id,
        body: { type: 1 },
        withResponse: false,
        inline: true,
      }),
    ).rejects.toMatchObject({ code: 50035 });
    expect((await interaction.record()).state).toBe('pending');
  });

  it('answers 10062 for an interaction that does not exist, and checks the token without `inline`', async () => {
    await expect(
      responder.respond({
        interactionId: '1500000000000009999',
        body: { type: 5 },
        withResponse: false,
        inline: true,
      }),
    ).rejects.toMatchObject({ code: 10062 });
    const interaction = await recordInteraction(ctx);
    await expect(
      responder.respond({ interactionId: interaction.id, body: { type: 5 }, withResponse: false }),
    ).rejects.toMatchObject({ code: 10062 });
  });

  it('refuses a second answer (40060) and a late one (10062) before asking oauth anything', async () => {
    const interaction = await recordInteraction(ctx);
    const answer = { interactionId: interaction.id, token: interaction.token, withResponse: false };
    await responder.respond({
      ...answer,
      body: { type: 5 },
      application: { botUser: BOT, applicationFlags: 0 },
    });
    await expect(
      responder.respond({ ...answer, body: { type: 4, data: { content: 'x' } } }),
    ).rejects.toMatchObject({
      code: 40060,
    });
    const late = await recordInteraction(ctx, { deadlineMs: -1 });
    await expect(
      responder.respond({
        interactionId: late.id,
        token: late.token,
        withResponse: false,
        body: { type: 5 },
      }),
    ).rejects.toMatchObject({ code: 10062 });
    expect(asked).toEqual([]);
  });
});
