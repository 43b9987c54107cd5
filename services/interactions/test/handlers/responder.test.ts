import type { OAuthClient } from '../../src/clients/oauth-client';
import { ApplicationFactsMemo } from '../../src/handlers/application-facts';
import { createResponder, type Responder } from '../../src/handlers/responder';
import {
  APP,
  BOT,
  openResponseStores,
  recordInteraction,
  type ResponseContext,
} from '../store/response-fixtures';

let ctx: ResponseContext;
let responder: Responder;
let applications: ApplicationFactsMemo;
/** oauth at its client interface (the network edge): every call fails, so a test sees any it makes. */
const asked: string[] = [];
const oauth: OAuthClient = {
  async describeInvocation(query) {
    asked.push(query.applicationId);
    throw new Error('oauth was asked');
  },
  async users() {
    throw new Error('oauth was asked');
  },
};

beforeAll(async () => {
  ctx = await openResponseStores();
  applications = new ApplicationFactsMemo(3000);
  responder = createResponder({ responses: ctx.responses, oauth, applications, traces: ctx.traces });
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
    ).resolves.toMatchObject({ json: '' });
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

describe('the responder, with the interaction at hand', () => {
  it('records an inline answer against the record the delivery hands it', async () => {
    const interaction = await recordInteraction(ctx);
    await responder.respond({
      interactionId: interaction.id,
      body: { type: 4, data: { content: 'handed' } },
      withResponse: false,
      inline: true,
      application: { botUser: BOT, applicationFlags: 0 },
      record: await interaction.record(),
    });
    expect((await interaction.record()).state).toBe('acknowledged');
    expect(await ctx.messages.get(await interaction.record(), { original: true })).toMatchObject({
      content: 'handed',
      author: BOT,
    });
  });

  it('judges a handed record by its row: 10062 once failed, 40060 once answered, valid answer or not', async () => {
    const failed = await recordInteraction(ctx);
    const handed = await failed.record();
    await ctx.pool.query("UPDATE interaction SET state = 'failed', reason_code = 2 WHERE id = $1", [
      failed.id,
    ]);
    const answered = await recordInteraction(ctx);
    const handedAnswered = await answered.record();
    await responder.respond({
      interactionId: answered.id,
      token: answered.token,
      body: { type: 5 },
      withResponse: false,
      application: { botUser: BOT, applicationFlags: 0 },
    });
    for (const body of [{ type: 4, data: { content: 'late' } }, { type: 1 }]) {
      const inline = {
        body,
        withResponse: false,
        inline: true,
        application: { botUser: BOT, applicationFlags: 0 },
      };
      await expect(
        responder.respond({ ...inline, interactionId: failed.id, record: handed }),
      ).rejects.toMatchObject({ code: 10062 });
      await expect(
        responder.respond({ ...inline, interactionId: answered.id, record: handedAnswered }),
      ).rejects.toMatchObject({ code: 40060 });
    }
    expect(await ctx.messages.get(await answered.record(), { original: true })).toMatchObject({ flags: 128 });
  });

  it('takes the author a callback needs from the invocation that remembered it, not from oauth', async () => {
    const interaction = await recordInteraction(ctx);
    const author = { ...BOT, username: 'Remembered' };
    applications.remember(interaction.id, { botUser: author, applicationFlags: 0 });
    await responder.respond({
      interactionId: interaction.id,
      token: interaction.token,
      body: { type: 4, data: { content: 'from memory' } },
      withResponse: false,
    });
    expect(asked).toEqual([]);
    expect(await ctx.messages.get(await interaction.record(), { original: true })).toMatchObject({
      content: 'from memory',
      author,
    });
    // Another interaction, remembered by no invocation of this replica, asks oauth.
    const other = await recordInteraction(ctx);
    await expect(
      responder.respond({
        interactionId: other.id,
        token: other.token,
        body: { type: 4, data: { content: 'x' } },
        withResponse: false,
      }),
    ).rejects.toThrow('oauth was asked');
    expect(asked).toEqual([APP]);
  });
});
