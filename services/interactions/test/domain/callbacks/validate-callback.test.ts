import {
  EMBEDDED_APPLICATION_FLAG,
  focusedOptionType,
  peekCallbackType,
  validateCallback,
  type CallbackContext,
} from '../../../src/domain/callbacks';
import { EmptyMessageError } from '../../../src/domain/messages';
import { codesAt, discordErrorOf, formErrorsOf, oneError } from '../form-errors-of';

const COMMAND: CallbackContext = { interactionType: 2, applicationFlags: 0 };
const EMBEDDED: CallbackContext = { interactionType: 2, applicationFlags: EMBEDDED_APPLICATION_FLAG };
const autocomplete = (focusedOptionType?: number): CallbackContext => ({
  interactionType: 4,
  applicationFlags: 0,
  ...(focusedOptionType !== undefined ? { focusedOptionType } : {}),
});

const errorsOf = (body: unknown, ctx: CallbackContext = COMMAND) =>
  formErrorsOf(() => validateCallback(body, ctx));

describe('callback type', () => {
  it('an application command takes 4, 5 and (EMBEDDED apps) 12', () => {
    expect(validateCallback({ type: 4, data: { content: 'pong' } }, COMMAND)).toEqual({
      type: 4,
      message: { content: 'pong', embeds: [], tts: false, flags: 0, components: [], newAttachments: [] },
    });
    expect(validateCallback({ type: 5 }, COMMAND)).toEqual({ type: 5, ephemeral: false });
    expect(validateCallback({ type: 12 }, EMBEDDED)).toEqual({ type: 12 });
  });

  it('an autocomplete takes 8 only', () => {
    expect(validateCallback({ type: 8, data: { choices: [] } }, autocomplete(3))).toEqual({
      type: 8,
      choices: [],
    });
    for (const type of [1, 4, 5, 6, 7, 9, 10, 12]) {
      expect(
        errorsOf(
          { type, data: { content: 'x' } },
          { ...autocomplete(3), applicationFlags: EMBEDDED_APPLICATION_FLAG },
        ),
      ).toEqual(oneError(['type'], 'INTERACTION_CALLBACK_TYPE_INVALID'));
    }
  });

  it.each([1, 6, 7, 8, 10])('an application command refuses %p at `type`', (type) => {
    expect(errorsOf({ type, data: { content: 'x' } }, EMBEDDED)).toEqual(
      oneError(['type'], 'INTERACTION_CALLBACK_TYPE_INVALID'),
    );
  });

  it('says what the interaction takes', () => {
    expect(errorsOf({ type: 7 })).toEqual(
      oneError(
        ['type'],
        'INTERACTION_CALLBACK_TYPE_INVALID',
        'UPDATE_MESSAGE (7) cannot answer an APPLICATION_COMMAND (2) interaction; it takes CHANNEL_MESSAGE_WITH_SOURCE (4), DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (5), MODAL (9), LAUNCH_ACTIVITY (12)',
      ),
    );
  });

  it('refuses LAUNCH_ACTIVITY for an app without the EMBEDDED flag', () => {
    expect(errorsOf({ type: 12 })).toEqual(
      oneError(
        ['type'],
        'INTERACTION_CALLBACK_TYPE_INVALID',
        'LAUNCH_ACTIVITY (12) is only available to applications with the EMBEDDED flag (1 << 17), i.e. with an Activity',
      ),
    );
  });

  it('refuses values outside the enum, wrong types and a missing type', () => {
    for (const type of [0, 2, 3, 11, 13, 99]) {
      expect(errorsOf({ type })).toEqual(
        oneError(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 4, 5, 6, 7, 8, 9, 10, 12).'),
      );
    }
    expect(errorsOf({ type: '4' })).toEqual(
      oneError(['type'], 'NUMBER_TYPE_COERCE', 'Value "4" is not int.'),
    );
    expect(errorsOf({ type: 4.5 })).toEqual(oneError(['type'], 'NUMBER_TYPE_COERCE'));
    expect(errorsOf({ data: { content: 'x' } })).toEqual(
      oneError(['type'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
    expect(errorsOf([4])).toEqual(oneError([], 'MODEL_TYPE_CONVERT'));
  });

  it('peeks at the type without judging it', () => {
    expect(peekCallbackType({ type: 12 })).toBe(12);
    expect(peekCallbackType({ type: '12' })).toBeUndefined();
    expect(peekCallbackType(null)).toBeUndefined();
    expect(peekCallbackType([{ type: 4 }])).toBeUndefined();
  });
});

describe('CHANNEL_MESSAGE_WITH_SOURCE (4)', () => {
  it('validates the message under `data`', () => {
    const tree = errorsOf({ type: 4, data: { content: 'x'.repeat(2001), embeds: [{ title: 5 }] } });
    expect(codesAt(tree, ['data', 'content'])).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(tree, ['data', 'embeds', 0, 'title'])).toEqual(['BASE_TYPE_STRING']);
    expect(errorsOf({ type: 4, data: 'pong' })).toEqual(oneError(['data'], 'MODEL_TYPE_CONVERT'));
  });

  it('keeps EPHEMERAL and the other settable flags', () => {
    expect(validateCallback({ type: 4, data: { content: 'x', flags: 64 | 4096 } }, COMMAND)).toMatchObject({
      message: { flags: 64 | 4096 },
    });
  });

  it('is an empty message without data or content', () => {
    for (const body of [
      { type: 4 },
      { type: 4, data: null },
      { type: 4, data: {} },
      { type: 4, data: { content: '' } },
    ]) {
      expect(discordErrorOf(() => validateCallback(body, COMMAND))).toBeInstanceOf(EmptyMessageError);
    }
  });
});

describe('DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (5)', () => {
  it('takes EPHEMERAL only, and ignores the message fields', () => {
    expect(validateCallback({ type: 5, data: { flags: 64 } }, COMMAND)).toEqual({ type: 5, ephemeral: true });
    expect(validateCallback({ type: 5, data: { flags: 0, content: 'ignored' } }, COMMAND)).toEqual({
      type: 5,
      ephemeral: false,
    });
    expect(validateCallback({ type: 5, data: null }, COMMAND)).toEqual({ type: 5, ephemeral: false });
  });

  it.each([4, 4096, 32768, 64 | 4, 128])('refuses flags %p at `data.flags`', (flags) => {
    expect(errorsOf({ type: 5, data: { flags } })).toEqual(
      oneError(['data', 'flags'], 'MESSAGE_FLAGS_INVALID'),
    );
  });

  it('checks JSON types', () => {
    expect(errorsOf({ type: 5, data: [] })).toEqual(oneError(['data'], 'MODEL_TYPE_CONVERT'));
    expect(errorsOf({ type: 5, data: { flags: 'ephemeral' } })).toEqual(
      oneError(['data', 'flags'], 'NUMBER_TYPE_COERCE'),
    );
  });
});

describe('APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (8)', () => {
  const answer = (choices: unknown, focused?: number) =>
    validateCallback({ type: 8, data: { choices } }, autocomplete(focused)) as {
      type: 8;
      choices: unknown[];
    };
  const answerErrors = (choices: unknown, focused?: number) =>
    errorsOf({ type: 8, data: { choices } }, autocomplete(focused));

  it('takes up to 25 choices of the focused option type', () => {
    const choices = Array.from({ length: 25 }, (_, i) => ({ name: `Choice ${i}`, value: `v${i}` }));
    expect(answer(choices, 3)).toEqual({ type: 8, choices });
    expect(answer([{ name: 'One', value: 1 }], 4)).toEqual({ type: 8, choices: [{ name: 'One', value: 1 }] });
    expect(answer([{ name: 'Half', value: 0.5 }], 10)).toEqual({
      type: 8,
      choices: [{ name: 'Half', value: 0.5 }],
    });
    expect(answer(null, 3)).toEqual({ type: 8, choices: [] });
  });

  it('refuses 26 choices at `data.choices`', () => {
    const choices = Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` }));
    expect(answerErrors(choices, 3)).toEqual(
      oneError(['data', 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'),
    );
  });

  it('checks names: 1 to 100 characters, localizations alike, with supported locales', () => {
    expect(answerErrors([{ name: '', value: 'a' }], 3)).toEqual(
      oneError(
        ['data', 'choices', 0, 'name'],
        'BASE_TYPE_BAD_LENGTH',
        'Must be between 1 and 100 in length.',
      ),
    );
    expect(answerErrors([{ name: 'x'.repeat(101), value: 'a' }], 3)).toEqual(
      oneError(['data', 'choices', 0, 'name'], 'BASE_TYPE_BAD_LENGTH'),
    );
    expect(answerErrors([{ value: 'a' }], 3)).toEqual(
      oneError(['data', 'choices', 0, 'name'], 'BASE_TYPE_REQUIRED'),
    );
    expect(
      answer([{ name: 'Red', name_localizations: { fr: 'Rouge', de: null }, value: 'red' }], 3).choices,
    ).toEqual([{ name: 'Red', name_localizations: { fr: 'Rouge' }, value: 'red' }]);
    const tree = answerErrors([{ name: 'Red', name_localizations: { xx: 'R', fr: '' }, value: 'red' }], 3);
    expect(codesAt(tree, ['data', 'choices', 0, 'name_localizations', 'xx'])).toEqual(['BASE_TYPE_CHOICES']);
    expect(codesAt(tree, ['data', 'choices', 0, 'name_localizations', 'fr'])).toEqual([
      'BASE_TYPE_BAD_LENGTH',
    ]);
  });

  it('checks values by the focused option type', () => {
    expect(answerErrors([{ name: 'a', value: 1 }], 3)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'BASE_TYPE_STRING', 'Could not interpret "1" as string.'),
    );
    expect(answerErrors([{ name: 'a', value: 'x'.repeat(101) }], 3)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.'),
    );
    expect(answerErrors([{ name: 'a', value: 1.5 }], 4)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_COERCE', 'Value "1.5" is not int.'),
    );
    expect(answerErrors([{ name: 'a', value: '1' }], 4)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_COERCE'),
    );
    expect(answerErrors([{ name: 'a', value: 2 ** 53 }], 4)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_MAX'),
    );
    expect(answerErrors([{ name: 'a', value: 'x' }], 10)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_COERCE', 'Value "x" is not float.'),
    );
    expect(answerErrors([{ name: 'a' }], 3)).toEqual(
      oneError(['data', 'choices', 0, 'value'], 'BASE_TYPE_REQUIRED'),
    );
  });

  it('takes strings or numbers when no focused option is known', () => {
    expect(
      answer([
        { name: 'a', value: 'x' },
        { name: 'b', value: 2 },
      ]).choices,
    ).toHaveLength(2);
  });

  it('requires data and checks its JSON types', () => {
    expect(errorsOf({ type: 8 }, autocomplete(3))).toEqual(oneError(['data'], 'BASE_TYPE_REQUIRED'));
    expect(answerErrors({ name: 'a' }, 3)).toEqual(oneError(['data', 'choices'], 'LIST_TYPE_CONVERT'));
    expect(answerErrors(['a'], 3)).toEqual(oneError(['data', 'choices', 0], 'MODEL_TYPE_CONVERT'));
  });
});

describe('focusedOptionType', () => {
  it('finds the focused option at any depth', () => {
    const data = {
      name: 'tag',
      options: [
        {
          name: 'edit',
          type: 1,
          options: [
            { name: 'name', type: 3, value: 'a' },
            { name: 'count', type: 4, value: '1', focused: true },
          ],
        },
      ],
    };
    expect(focusedOptionType({ data })).toBe(4);
    expect(
      focusedOptionType({
        data: { name: 'x', options: [{ name: 'q', type: 10, value: '', focused: true }] },
      }),
    ).toBe(10);
    expect(focusedOptionType({ data: { name: 'x' } })).toBeUndefined();
    expect(focusedOptionType({})).toBeUndefined();
  });
});

describe('components and modals (issue 11)', () => {
  const COMPONENT: CallbackContext = { interactionType: 3, applicationFlags: 0, fromComponent: true };
  const SUBMIT = (fromComponent: boolean): CallbackContext => ({
    interactionType: 5,
    applicationFlags: 0,
    fromComponent,
  });
  const modal = {
    custom_id: 'form',
    title: 'Tell us',
    components: [{ type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } }],
  };

  it('a component takes 6, 7 (an edit of its message) and 9', () => {
    expect(validateCallback({ type: 6 }, COMPONENT)).toEqual({ type: 6 });
    expect(validateCallback({ type: 7, data: { content: 'updated', components: [] } }, COMPONENT)).toEqual({
      type: 7,
      edit: { content: 'updated', components: [] },
    });
    expect(validateCallback({ type: 7 }, COMPONENT)).toEqual({ type: 7, edit: {} });
    expect(validateCallback({ type: 9, data: modal }, COMPONENT)).toMatchObject({
      type: 9,
      modal: { custom_id: 'form' },
    });
    expect(
      codesAt(errorsOf({ type: 7, data: { content: 'x'.repeat(2001) } }, COMPONENT), ['data', 'content']),
    ).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(errorsOf({ type: 10 }, COMPONENT), ['type'])).toEqual([
      'INTERACTION_CALLBACK_TYPE_INVALID',
    ]);
  });

  it('a command opens a modal with 9; its errors are at `data`', () => {
    expect(validateCallback({ type: 9, data: modal }, COMMAND)).toMatchObject({ type: 9 });
    expect(
      codesAt(errorsOf({ type: 9, data: { ...modal, title: 't'.repeat(46) } }), ['data', 'title']),
    ).toEqual(['BASE_TYPE_BAD_LENGTH']);
    expect(codesAt(errorsOf({ type: 9 }), ['data'])).toEqual(['BASE_TYPE_REQUIRED']);
  });

  it('a modal submit takes 6 and 7 only when the modal came from a component, and never 9', () => {
    expect(validateCallback({ type: 6 }, SUBMIT(true))).toEqual({ type: 6 });
    expect(codesAt(errorsOf({ type: 6 }, SUBMIT(false)), ['type'])).toEqual([
      'INTERACTION_CALLBACK_TYPE_INVALID',
    ]);
    expect(codesAt(errorsOf({ type: 7 }, SUBMIT(false)), ['type'])).toEqual([
      'INTERACTION_CALLBACK_TYPE_INVALID',
    ]);
    expect(codesAt(errorsOf({ type: 9, data: modal }, SUBMIT(true)), ['type'])).toEqual([
      'INTERACTION_CALLBACK_TYPE_INVALID',
    ]);
    expect(validateCallback({ type: 4, data: { content: 'thanks' } }, SUBMIT(false))).toMatchObject({
      type: 4,
    });
  });
});
