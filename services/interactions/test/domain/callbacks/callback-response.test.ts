import { activityInstanceId, renderCallbackResponse } from '../../../src/domain/callbacks';
import { readMessageSource, renderLoadingMessage, renderMessage } from '../../../src/domain/messages';

const source = readMessageSource(
  {
    id: '1300000000000000500',
    application_id: '1300000000000000001',
    type: 2,
    channel_id: '1300000000000000200',
    data: { name: 'ping', type: 1 },
    user: { id: '1300000000000000010' },
  },
  { id: '1300000000000000001', bot: true },
);
const CREATED = new Date('2026-11-24T07:20:00Z');

describe('renderCallbackResponse', () => {
  it('CHANNEL_MESSAGE_WITH_SOURCE: the response message and the message itself', () => {
    const message = renderMessage(source, {
      id: '600',
      createdAt: CREATED,
      content: 'pong',
      embeds: [],
      tts: false,
      flags: 64,
    });
    expect(
      renderCallbackResponse({ interactionId: '500', interactionType: 2, callbackType: 4, message }),
    ).toEqual({
      interaction: {
        id: '500',
        type: 2,
        response_message_id: '600',
        response_message_loading: false,
        response_message_ephemeral: true,
      },
      resource: { type: 4, message },
    });
  });

  it('UPDATE_MESSAGE: the updated message is the resource too (A4: types 4 and 7); 6 and 9 have none', () => {
    const message = renderMessage(source, {
      id: '600',
      createdAt: CREATED,
      content: 'updated',
      embeds: [],
      tts: false,
      flags: 0,
    });
    expect(
      renderCallbackResponse({ interactionId: '500', interactionType: 3, callbackType: 7, message }),
    ).toMatchObject({
      interaction: { id: '500', type: 3, response_message_id: '600' },
      resource: { type: 7, message },
    });
    for (const callbackType of [6, 9]) {
      expect(renderCallbackResponse({ interactionId: '500', interactionType: 3, callbackType })).toEqual({
        interaction: { id: '500', type: 3 },
      });
    }
  });

  it('DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: the loading message, not in the resource', () => {
    const message = renderLoadingMessage(source, '601', CREATED, false);
    expect(
      renderCallbackResponse({ interactionId: '500', interactionType: 2, callbackType: 5, message }),
    ).toEqual({
      interaction: {
        id: '500',
        type: 2,
        response_message_id: '601',
        response_message_loading: true,
        response_message_ephemeral: false,
      },
    });
  });

  it('APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: no message', () => {
    expect(renderCallbackResponse({ interactionId: '500', interactionType: 4, callbackType: 8 })).toEqual({
      interaction: { id: '500', type: 4 },
    });
  });

  it('LAUNCH_ACTIVITY: the Activity instance', () => {
    const id = activityInstanceId('500', '100', '200');
    expect(
      renderCallbackResponse({
        interactionId: '500',
        interactionType: 2,
        callbackType: 12,
        activityInstanceId: id,
      }),
    ).toEqual({
      interaction: { id: '500', type: 2, activity_instance_id: 'i-500-gc-100-200' },
      resource: { type: 12, activity_instance: { id: 'i-500-gc-100-200' } },
    });
  });
});

describe('activityInstanceId', () => {
  it('has Discord form, guild channel or private channel', () => {
    expect(activityInstanceId('500', '100', '200')).toBe('i-500-gc-100-200');
    expect(activityInstanceId('500', null, '200')).toBe('i-500-pc-200');
  });
});
