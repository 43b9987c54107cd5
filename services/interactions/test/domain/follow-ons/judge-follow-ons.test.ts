import { FormErrors } from '@acs/validation';
import {
  buildComponentData,
  buildModalData,
  judgeComponentUse,
  judgeModalSubmit,
  type ComponentSource,
  type OpenModal,
  type SelectLookups,
} from '../../../src/domain/follow-ons';
import {
  readInteractionRequest,
  type ComponentBody,
  type ModalSubmitBody,
} from '../../../src/domain/invocation';
import { readMessageComponents, readModal } from '../../../src/domain/messages/components';
import { UnknownMessageError } from '../../../src/domain/messages';
import { UnknownInteractionError } from '../../../src/domain/callbacks';
import { codesAt, discordErrorOf, formErrorsOf } from '../form-errors-of';
import { APP, CHANNEL, OTHER_USER, ROLE, USER } from '../invocation/fixtures';

const MESSAGE = '1500000000000000100';
const OTHER_APP = '1500000000000000101';

function componentsOf(raw: unknown[], v2 = false) {
  const errors = new FormErrors();
  const read = readMessageComponents(raw, v2, errors, []);
  errors.throwIfAny();
  return read ?? [];
}

const origin = {
  id: '1',
  commandId: '2',
  commandName: 'menu',
  commandType: 1,
  userInstallOnly: false,
  payload: {},
};
const sourceOf = (components: unknown[], extra: Partial<ComponentSource> = {}): ComponentSource => ({
  messageId: MESSAGE,
  channelId: CHANNEL,
  guildId: null,
  applicationId: APP,
  ephemeralUserId: null,
  message: { id: MESSAGE, components: componentsOf(components) },
  origin,
  ...extra,
});
const row = (...components: unknown[]) => ({ type: 1, components });
const button = (customId: string, extra: object = {}) => ({
  type: 2,
  style: 1,
  label: 'B',
  custom_id: customId,
  ...extra,
});
const click = (data: object, extra: object = {}): ComponentBody =>
  readInteractionRequest(
    JSON.stringify({
      type: 3,
      application_id: APP,
      channel_id: CHANNEL,
      message_id: MESSAGE,
      data,
      ...extra,
    }),
  ) as ComponentBody;
const noLookups: SelectLookups = { users: {}, members: {}, roles: {}, channels: {} };

describe('readInteractionRequest: types 3 and 5 (A8)', () => {
  it('reads a click: message_id, custom_id, component_type (or type), values', () => {
    expect(click({ custom_id: 'go', component_type: 2 })).toMatchObject({
      type: 3,
      messageId: MESSAGE,
      data: { customId: 'go', componentType: 2, values: null },
    });
    expect(click({ custom_id: 'pick', type: 3, values: ['a'] }).data).toEqual({
      customId: 'pick',
      componentType: 3,
      values: ['a'],
    });
  });

  it('refuses a click without message_id or custom_id, or with too many values', () => {
    const tree = formErrorsOf(() =>
      readInteractionRequest(
        JSON.stringify({
          type: 3,
          application_id: APP,
          channel_id: CHANNEL,
          data: { values: Array(26).fill('a') },
        }),
      ),
    );
    expect(codesAt(tree, ['message_id'])).toEqual(['BASE_TYPE_REQUIRED']);
    expect(codesAt(tree, ['data', 'custom_id'])).toEqual(['BASE_TYPE_REQUIRED']);
    expect(codesAt(tree, ['data', 'component_type'])).toEqual(['BASE_TYPE_REQUIRED']);
    expect(codesAt(tree, ['data', 'values'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('reads a modal submit: data.id, custom_id, components', () => {
    const body = readInteractionRequest(
      JSON.stringify({
        type: 5,
        application_id: APP,
        channel_id: CHANNEL,
        data: { id: '99', custom_id: 'form', components: [] },
      }),
    );
    expect(body).toMatchObject({ type: 5, data: { id: '99', customId: 'form', components: [] } });
    const tree = formErrorsOf(() =>
      readInteractionRequest(
        JSON.stringify({ type: 5, application_id: APP, channel_id: CHANNEL, data: { id: 'x' } }),
      ),
    );
    expect(codesAt(tree, ['data', 'id'])).toEqual(['NUMBER_TYPE_COERCE']);
    expect(codesAt(tree, ['data', 'components'])).toEqual(['BASE_TYPE_REQUIRED']);
  });
});

describe('judgeComponentUse', () => {
  it('passes a click on an enabled button and builds the data the app receives', () => {
    const use = judgeComponentUse(
      click({ custom_id: 'go', component_type: 2 }),
      USER,
      sourceOf([row(button('go'))]),
    );
    expect(buildComponentData(use, noLookups)).toEqual({ custom_id: 'go', component_type: 2 });
  });

  it("is 10008 for an unknown message, another channel, another app, another user's ephemeral message", () => {
    const body = click({ custom_id: 'go', component_type: 2 });
    const components = [row(button('go'))];
    for (const source of [
      undefined,
      sourceOf(components, { channelId: '1500000000000000999' }),
      sourceOf(components, { guildId: '1500000000000000998' }),
      sourceOf(components, { applicationId: OTHER_APP }),
      sourceOf(components, { ephemeralUserId: OTHER_USER }),
    ]) {
      expect(discordErrorOf(() => judgeComponentUse(body, USER, source))).toBeInstanceOf(UnknownMessageError);
    }
    expect(judgeComponentUse(body, USER, sourceOf(components, { ephemeralUserId: USER })).values).toBeNull();
  });

  it('refuses a component that is not there, a link button, a disabled one, the wrong type', () => {
    const source = sourceOf([
      row(button('go'), button('off', { disabled: true }), {
        type: 2,
        style: 5,
        label: 'Docs',
        url: 'https://a.example',
      }),
    ]);
    const refuse = (data: object) => formErrorsOf(() => judgeComponentUse(click(data), USER, source));
    expect(codesAt(refuse({ custom_id: 'nope', component_type: 2 }), ['data', 'custom_id'])).toEqual([
      'INTERACTION_COMPONENT_NOT_FOUND',
    ]);
    expect(codesAt(refuse({ custom_id: 'off', component_type: 2 }), ['data', 'custom_id'])).toEqual([
      'INTERACTION_COMPONENT_DISABLED',
    ]);
    expect(codesAt(refuse({ custom_id: 'go', component_type: 3 }), ['data', 'component_type'])).toEqual([
      'INTERACTION_COMPONENT_TYPE_MISMATCH',
    ]);
    expect(
      codesAt(refuse({ custom_id: 'go', component_type: 2, values: ['x'] }), ['data', 'values']),
    ).toEqual(['INTERACTION_COMPONENT_VALUES_INVALID']);
  });

  it("takes a string select's options within min/max values, each once", () => {
    const select = {
      type: 3,
      custom_id: 'pick',
      min_values: 1,
      max_values: 2,
      options: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
        { label: 'C', value: 'c' },
      ],
    };
    const source = sourceOf([row(select)]);
    const use = judgeComponentUse(
      click({ custom_id: 'pick', component_type: 3, values: ['a', 'c'] }),
      USER,
      source,
    );
    expect(buildComponentData(use, noLookups)).toEqual({
      custom_id: 'pick',
      component_type: 3,
      values: ['a', 'c'],
    });
    const refuse = (values: unknown[]) =>
      formErrorsOf(() =>
        judgeComponentUse(click({ custom_id: 'pick', component_type: 3, values }), USER, source),
      );
    expect(codesAt(refuse([]), ['data', 'values'])).toEqual(['INTERACTION_COMPONENT_VALUES_INVALID']);
    expect(codesAt(refuse(['a', 'b', 'c']), ['data', 'values'])).toEqual([
      'INTERACTION_COMPONENT_VALUES_INVALID',
    ]);
    expect(codesAt(refuse(['z']), ['data', 'values', 0])).toEqual(['INTERACTION_COMPONENT_VALUES_INVALID']);
    expect(codesAt(refuse(['a', 'a']), ['data', 'values', 1])).toEqual([
      'INTERACTION_COMPONENT_VALUES_INVALID',
    ]);
  });

  it("resolves a user or role select's ids (a member implies its user), refusing unknown ones", () => {
    const source = sourceOf([row({ type: 7, custom_id: 'who', max_values: 2 })]);
    const use = judgeComponentUse(
      click({ custom_id: 'who', component_type: 7, values: [OTHER_USER, ROLE] }),
      USER,
      source,
    );
    expect(use.ids).toEqual({ users: [OTHER_USER, ROLE], roles: [OTHER_USER, ROLE], channels: [] });
    const lookups: SelectLookups = {
      users: { [OTHER_USER]: { id: OTHER_USER, username: 'other' } },
      members: { [OTHER_USER]: { roles: [] } },
      roles: { [ROLE]: { id: ROLE, name: 'mods' } },
      channels: {},
    };
    expect(buildComponentData(use, lookups)).toEqual({
      custom_id: 'who',
      component_type: 7,
      values: [OTHER_USER, ROLE],
      resolved: {
        users: { [OTHER_USER]: { id: OTHER_USER, username: 'other' } },
        members: { [OTHER_USER]: { roles: [] } },
        roles: { [ROLE]: { id: ROLE, name: 'mods' } },
      },
    });
    expect(
      codesAt(
        formErrorsOf(() => buildComponentData(use, noLookups)),
        ['data', 'values', 1],
      ),
    ).toEqual(['INTERACTION_COMPONENT_VALUES_INVALID']);
  });
});

describe('channel selects and premium buttons', () => {
  it("takes only channels of the select's channel_types", () => {
    const source = sourceOf([row({ type: 8, custom_id: 'where', channel_types: [0] })]);
    const use = judgeComponentUse(
      click({ custom_id: 'where', component_type: 8, values: [CHANNEL] }),
      USER,
      source,
    );
    const withType = (type: number): SelectLookups => ({
      ...noLookups,
      channels: { [CHANNEL]: { id: CHANNEL, type } },
    });
    expect(buildComponentData(use, withType(0)).resolved).toEqual({
      channels: { [CHANNEL]: { id: CHANNEL, type: 0 } },
    });
    expect(
      codesAt(
        formErrorsOf(() => buildComponentData(use, withType(2))),
        ['data', 'values', 0],
      ),
    ).toEqual(['INTERACTION_COMPONENT_VALUES_INVALID']);
  });

  it('a premium button sends no interaction: it has no custom_id to name', () => {
    const source = sourceOf([row({ type: 2, style: 6, sku_id: '1500000000000000555' })]);
    expect(
      codesAt(
        formErrorsOf(() =>
          judgeComponentUse(click({ custom_id: '1500000000000000555', component_type: 2 }), USER, source),
        ),
        ['data', 'custom_id'],
      ),
    ).toEqual(['INTERACTION_COMPONENT_NOT_FOUND']);
  });
});

describe('judgeModalSubmit', () => {
  function openModal(extra: Partial<OpenModal> = {}): OpenModal {
    const errors = new FormErrors();
    const modal = readModal(
      {
        custom_id: 'form',
        title: 'Tell us',
        components: [
          {
            type: 18,
            label: 'Name',
            component: { type: 4, custom_id: 'name', style: 1, min_length: 2, max_length: 10 },
          },
          { type: 10, content: 'Optional below' },
          { type: 1, components: [{ type: 4, custom_id: 'bio', style: 2, label: 'Bio', required: false }] },
          {
            type: 18,
            label: 'Colour',
            component: {
              type: 3,
              custom_id: 'colour',
              options: [
                { label: 'Red', value: 'red' },
                { label: 'Blue', value: 'blue' },
              ],
            },
          },
        ],
      },
      errors,
      ['data'],
    );
    errors.throwIfAny();
    return {
      userId: USER,
      applicationId: APP,
      channelId: CHANNEL,
      guildId: null,
      modal: modal as NonNullable<typeof modal>,
      submitted: false,
      expired: false,
      messageId: null,
      origin,
      ...extra,
    };
  }
  const submit = (components: unknown[], extra: object = {}): ModalSubmitBody =>
    readInteractionRequest(
      JSON.stringify({
        type: 5,
        application_id: APP,
        channel_id: CHANNEL,
        data: { id: '99', custom_id: 'form', components, ...extra },
      }),
    ) as ModalSubmitBody;
  const answers = (name: unknown, colour: unknown[] = ['red']) => [
    { type: 18, component: { type: 4, custom_id: 'name', value: name } },
    { type: 18, component: { type: 3, custom_id: 'colour', values: colour } },
  ];

  it("builds the data the app receives, in the modal's layout", () => {
    const open = openModal();
    const judged = judgeModalSubmit(submit(answers('Ada')), USER, open);
    expect(buildModalData(open, judged, noLookups)).toEqual({
      custom_id: 'form',
      components: [
        { type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'name', value: 'Ada' } },
        { type: 10, id: 3 },
        { type: 1, id: 4, components: [{ type: 4, id: 5, custom_id: 'bio', value: '' }] },
        { type: 18, id: 6, component: { type: 3, id: 7, custom_id: 'colour', values: ['red'] } },
      ],
    });
  });

  it("is 10062 for a modal that is not this user's or app's, submitted, expired, or none", () => {
    const body = submit(answers('Ada'));
    for (const open of [
      undefined,
      openModal({ userId: OTHER_USER }),
      openModal({ applicationId: OTHER_APP }),
      openModal({ guildId: '1500000000000000998' }),
      openModal({ submitted: true }),
      openModal({ expired: true }),
    ]) {
      expect(discordErrorOf(() => judgeModalSubmit(body, USER, open))).toBeInstanceOf(
        UnknownInteractionError,
      );
    }
  });

  it("checks the answers: text length, required inputs, options, unknown inputs, the modal's custom_id", () => {
    const refuse = (components: unknown[], extra: object = {}) =>
      formErrorsOf(() => judgeModalSubmit(submit(components, extra), USER, openModal()));
    expect(codesAt(refuse(answers('A')), ['data', 'components', 0, 'component', 'value'])).toEqual([
      'INTERACTION_MODAL_ANSWER_INVALID',
    ]);
    expect(codesAt(refuse(answers('A'.repeat(11))), ['data', 'components', 0, 'component', 'value'])).toEqual(
      ['INTERACTION_MODAL_ANSWER_INVALID'],
    );
    expect(codesAt(refuse(answers('')), ['data', 'components'])).toEqual([
      'INTERACTION_MODAL_ANSWER_MISSING',
    ]);
    expect(
      codesAt(refuse(answers('Ada', ['green'])), ['data', 'components', 1, 'component', 'values', 0]),
    ).toEqual(['INTERACTION_COMPONENT_VALUES_INVALID']);
    expect(
      codesAt(refuse([...answers('Ada'), { type: 4, custom_id: 'extra', value: 'x' }]), [
        'data',
        'components',
        2,
        'custom_id',
      ]),
    ).toEqual(['INTERACTION_MODAL_ANSWER_INVALID']);
    expect(codesAt(refuse(answers('Ada'), { custom_id: 'other' }), ['data', 'custom_id'])).toEqual([
      'INTERACTION_MODAL_CUSTOM_ID_MISMATCH',
    ]);
  });
});

describe('judgeModalSubmit: file uploads', () => {
  function uploadModal(upload: object): OpenModal {
    const errors = new FormErrors();
    const modal = readModal(
      {
        custom_id: 'files',
        title: 'Send files',
        components: [{ type: 18, label: 'Files', component: { type: 19, custom_id: 'docs', ...upload } }],
      },
      errors,
      ['data'],
    );
    errors.throwIfAny();
    return {
      userId: USER,
      applicationId: APP,
      channelId: CHANNEL,
      guildId: null,
      modal: modal as NonNullable<typeof modal>,
      submitted: false,
      expired: false,
      messageId: null,
      origin,
    };
  }
  const submitFiles = (values: unknown): ModalSubmitBody =>
    readInteractionRequest(
      JSON.stringify({
        type: 5,
        application_id: APP,
        channel_id: CHANNEL,
        data: {
          id: '99',
          custom_id: 'files',
          components: [{ type: 18, component: { type: 19, custom_id: 'docs', values } }],
        },
      }),
    ) as ModalSubmitBody;
  const file = (index: number, filename = `f${index}.txt`, contentType = 'text/plain') => ({
    index,
    blobKey: `uploads/${index}`,
    filename,
    contentType,
    size: 3,
  });
  const valuesPath = ['data', 'components', 0, 'component', 'values'];

  it('names files by index, and the app receives attachment ids resolved to attachments', () => {
    const open = uploadModal({ min_values: 1, max_values: 3 });
    const files = [file(0), file(1)];
    const judged = judgeModalSubmit(submitFiles(['1', '0']), USER, open, files);
    expect(judged.uploads.get('docs')).toEqual([files[1], files[0]]);
    const a = {
      id: '700',
      filename: 'f1.txt',
      content_type: 'text/plain',
      size: 3,
      url: 'u1',
      proxy_url: 'u1',
    };
    const b = { ...a, id: '701', filename: 'f0.txt' };
    expect(buildModalData(open, judged, noLookups, new Map([['docs', [a, b]]]))).toEqual({
      custom_id: 'files',
      components: [
        { type: 18, id: 1, component: { type: 19, id: 2, custom_id: 'docs', values: ['700', '701'] } },
      ],
      resolved: { attachments: { '700': a, '701': b } },
    });
  });

  it('refuses an unknown index, a file named twice, a count out of bounds, an unnamed file, a wrong type', () => {
    const open = uploadModal({ min_values: 1, max_values: 2 });
    const refuse = (values: unknown, files = [file(0), file(1)], modal = open) =>
      formErrorsOf(() => judgeModalSubmit(submitFiles(values), USER, modal, files));
    expect(codesAt(refuse(['0', '5']), [...valuesPath, 1])).toEqual(['INTERACTION_MODAL_ANSWER_INVALID']);
    expect(codesAt(refuse(['0', '0'], [file(0)]), [...valuesPath, 1])).toEqual([
      'INTERACTION_MODAL_ANSWER_INVALID',
    ]);
    expect(codesAt(refuse(['0', '1', '2'], [file(0), file(1), file(2)]), valuesPath)).toEqual([
      'INTERACTION_MODAL_ANSWER_INVALID',
    ]);
    expect(codesAt(refuse([]), ['data', 'components'])).toEqual(['INTERACTION_MODAL_ANSWER_MISSING']);
    expect(codesAt(refuse(['0']), ['files[1]'])).toEqual(['INTERACTION_MODAL_ANSWER_INVALID']);
    expect(codesAt(refuse('0'), valuesPath)).toEqual(['INTERACTION_MODAL_ANSWER_INVALID']);
    expect(codesAt(refuse([0], [file(0)]), [...valuesPath, 0])).toEqual(['INTERACTION_MODAL_ANSWER_INVALID']);
    const images = uploadModal({ file_types: ['image', '.pdf'] });
    expect(codesAt(refuse(['0'], [file(0)], images), [...valuesPath, 0])).toEqual([
      'INTERACTION_MODAL_ANSWER_INVALID',
    ]);
    expect(judgeModalSubmit(submitFiles(['0']), USER, images, [file(0, 'a.PDF')]).uploads.size).toBe(1);
    expect(
      judgeModalSubmit(submitFiles(['0']), USER, images, [file(0, 'a.bin', 'image/png')]).uploads.size,
    ).toBe(1);
  });

  it('takes no files for an upload that is not required', () => {
    const judged = judgeModalSubmit(submitFiles([]), USER, uploadModal({ required: false }), []);
    expect(judged.answers.get('docs')).toEqual({ type: 19, id: 2, custom_id: 'docs', values: [] });
  });
});
