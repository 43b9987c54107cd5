import { FormErrors } from '@acs/validation';
import { readMessageComponents } from '../../../../src/domain/messages/components';
import { codesAt, formErrorsOf } from '../../form-errors-of';

/** Reads components at `data.components` as a callback's would be. */
function read(components: unknown, v2 = false) {
  const errors = new FormErrors();
  const read = readMessageComponents(components, v2, errors, ['data', 'components']);
  errors.throwIfAny();
  return read;
}
const errorsOf = (components: unknown, v2 = false) => formErrorsOf(() => read(components, v2));
const at = (...path: (string | number)[]) => ['data', 'components', ...path];

const button = (customId: string, extra: object = {}) => ({
  type: 2,
  style: 1,
  label: 'B',
  custom_id: customId,
  ...extra,
});
const row = (...components: unknown[]) => ({ type: 1, components });
const stringSelect = (extra: object = {}) => ({
  type: 3,
  custom_id: 'pick',
  options: [
    { label: 'A', value: 'a' },
    { label: 'B', value: 'b' },
  ],
  ...extra,
});
const text = (content = 'hello') => ({ type: 10, content });

describe('readMessageComponents: legacy messages', () => {
  it('echoes a row of buttons with ids assigned in reading order', () => {
    expect(read([row(button('a'), button('b', { style: 4, disabled: true }))])).toEqual([
      {
        type: 1,
        id: 1,
        components: [
          { type: 2, id: 2, style: 1, label: 'B', custom_id: 'a' },
          { type: 2, id: 3, style: 4, label: 'B', custom_id: 'b', disabled: true },
        ],
      },
    ]);
  });

  it('keeps the ids sent and numbers the others around them; refuses a repeated id', () => {
    const [first] = read([row({ ...button('a'), id: 2 }, button('b'))]) ?? [];
    expect(first).toMatchObject({ id: 1, components: [{ id: 2 }, { id: 3 }] });
    expect(
      codesAt(
        errorsOf([
          { ...row(button('a')), id: 7 },
          { ...row(button('b')), id: 7 },
        ]),
        at(1, 'id'),
      ),
    ).toEqual(['COMPONENT_ID_DUPLICATED']);
    expect(codesAt(errorsOf([{ ...row(button('a')), id: 2 ** 31 }]), at(0, 'id'))).toEqual([
      'NUMBER_TYPE_MAX',
    ]);
  });

  it('takes null and [] as none, and 5 rows at most', () => {
    expect(read(null)).toEqual([]);
    expect(read([])).toEqual([]);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => row(button(`b${i}`)));
    expect(read(rows(5))).toHaveLength(5);
    expect(codesAt(errorsOf(rows(6)), at())).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(errorsOf('rows'), at())).toEqual(['LIST_TYPE_CONVERT']);
  });

  it('takes only action rows at the top level without IS_COMPONENTS_V2', () => {
    const tree = errorsOf([text(), button('x')]);
    expect(codesAt(tree, at(0, 'type'))).toEqual(['UNION_TYPE_CHOICES']);
    expect(codesAt(tree, at(1, 'type'))).toEqual(['UNION_TYPE_CHOICES']);
    expect(codesAt(errorsOf([{}]), at(0, 'type'))).toEqual(['BASE_TYPE_REQUIRED']);
    expect(codesAt(errorsOf([7]), at(0))).toEqual(['MODEL_TYPE_CONVERT']);
  });

  it('holds 1-5 buttons a row, or one select, by width', () => {
    const five = Array.from({ length: 5 }, (_, i) => button(`b${i}`));
    expect(read([row(...five)])).toHaveLength(1);
    expect(codesAt(errorsOf([row(...five, button('b5'))]), at(0, 'components', 5))).toEqual([
      'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
    ]);
    expect(codesAt(errorsOf([row(stringSelect(), button('x'))]), at(0, 'components', 1))).toEqual([
      'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
    ]);
    expect(codesAt(errorsOf([row(button('x'), stringSelect())]), at(0, 'components', 1))).toEqual([
      'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
    ]);
    expect(codesAt(errorsOf([row()]), at(0, 'components'))).toEqual(['BASE_TYPE_MIN_LENGTH']);
    expect(codesAt(errorsOf([{ type: 1 }]), at(0, 'components'))).toEqual(['BASE_TYPE_REQUIRED']);
    expect(codesAt(errorsOf([row(row(button('x')))]), at(0, 'components', 0, 'type'))).toEqual([
      'UNION_TYPE_CHOICES',
    ]);
    expect(
      codesAt(errorsOf([row({ type: 4, custom_id: 't', style: 1 })]), at(0, 'components', 0, 'type')),
    ).toEqual(['UNION_TYPE_CHOICES']);
  });

  describe('custom_id', () => {
    it('is 1-100 characters', () => {
      expect(read([row(button('x'.repeat(100)))])).toHaveLength(1);
      expect(codesAt(errorsOf([row(button('x'.repeat(101)))]), at(0, 'components', 0, 'custom_id'))).toEqual([
        'BASE_TYPE_BAD_LENGTH',
      ]);
      expect(codesAt(errorsOf([row(button(''))]), at(0, 'components', 0, 'custom_id'))).toEqual([
        'BASE_TYPE_BAD_LENGTH',
      ]);
      expect(
        codesAt(errorsOf([row(button(5 as unknown as string))]), at(0, 'components', 0, 'custom_id')),
      ).toEqual(['BASE_TYPE_STRING']);
    });

    it('is unique in the whole message, disabled or not', () => {
      const tree = errorsOf([row(button('same')), row(button('other'), button('same', { disabled: true }))]);
      expect(codesAt(tree, at(1, 'components', 1, 'custom_id'))).toEqual(['COMPONENT_CUSTOM_ID_DUPLICATED']);
      expect(codesAt(tree, at(0, 'components', 0, 'custom_id'))).toEqual([]);
    });
  });

  describe('buttons', () => {
    const one = (b: object) => errorsOf([row(b)]);
    const b = (...path: (string | number)[]) => at(0, 'components', 0, ...path);

    it('style is required and 1-6', () => {
      expect(codesAt(one({ type: 2, label: 'x', custom_id: 'x' }), b('style'))).toEqual([
        'BASE_TYPE_REQUIRED',
      ]);
      expect(codesAt(one({ type: 2, style: 7, label: 'x', custom_id: 'x' }), b('style'))).toEqual([
        'BASE_TYPE_CHOICES',
      ]);
    });

    it('styles 1-4 need a custom_id and take no url or sku_id', () => {
      expect(codesAt(one({ type: 2, style: 2, label: 'x' }), b('custom_id'))).toEqual([
        'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED',
      ]);
      expect(codesAt(one(button('x', { url: 'https://a.example' })), b('url'))).toEqual([
        'BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE',
      ]);
      expect(codesAt(one(button('x', { sku_id: '1' })), b('sku_id'))).toEqual([
        'COMPONENT_FIELD_NOT_ALLOWED',
      ]);
    });

    it('need a label (≤ 80) or an emoji', () => {
      expect(codesAt(one({ type: 2, style: 1, custom_id: 'x' }), b('label'))).toEqual([
        'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED',
      ]);
      expect(read([row({ type: 2, style: 1, custom_id: 'x', emoji: { name: '🔥' } })])?.[0]).toMatchObject({
        components: [{ emoji: { name: '🔥' } }],
      });
      expect(read([row(button('x', { label: 'l'.repeat(80) }))])).toHaveLength(1);
      expect(codesAt(one(button('x', { label: 'l'.repeat(81) })), b('label'))).toEqual([
        'BASE_TYPE_MAX_LENGTH',
      ]);
      expect(codesAt(one(button('x', { emoji: {} })), b('emoji', 'name'))).toEqual(['BASE_TYPE_REQUIRED']);
      expect(codesAt(one(button('x', { emoji: { id: 'no' } })), b('emoji', 'id'))).toEqual([
        'NUMBER_TYPE_COERCE',
      ]);
    });

    it('links need a url (≤ 512, http, https or discord) and no custom_id', () => {
      const link = (extra: object) => ({ type: 2, style: 5, label: 'Docs', ...extra });
      expect(read([row(link({ url: 'https://discord.com/developers' }))])?.[0]).toMatchObject({
        components: [{ style: 5, url: 'https://discord.com/developers' }],
      });
      expect(read([row(link({ url: 'discord://-/channels/1/2' }))])).toHaveLength(1);
      expect(codesAt(one(link({})), b('url'))).toEqual(['BUTTON_COMPONENT_URL_REQUIRED']);
      expect(codesAt(one(link({ url: 'https://a.example', custom_id: 'x' })), b('custom_id'))).toEqual([
        'BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE',
      ]);
      expect(codesAt(one(link({ url: 'ftp://a.example/x' })), b('url'))).toEqual(['URL_TYPE_INVALID_SCHEME']);
      expect(codesAt(one(link({ url: 'not a url' })), b('url'))).toEqual(['URL_TYPE_INVALID_URL']);
      const long = `https://a.example/${'x'.repeat(512 - 18)}`;
      expect(read([row(link({ url: long }))])).toHaveLength(1);
      expect(codesAt(one(link({ url: `${long}x` })), b('url'))).toEqual(['BASE_TYPE_BAD_LENGTH']);
    });

    it('premium buttons (6) need a sku_id and take no custom_id, label, url or emoji', () => {
      expect(read([row({ type: 2, style: 6, sku_id: '1234567890123' })])?.[0]).toMatchObject({
        components: [{ type: 2, style: 6, sku_id: '1234567890123' }],
      });
      expect(codesAt(one({ type: 2, style: 6 }), b('sku_id'))).toEqual(['BUTTON_COMPONENT_SKU_ID_REQUIRED']);
      const tree = one({
        type: 2,
        style: 6,
        sku_id: '1',
        custom_id: 'x',
        label: 'l',
        url: 'https://a.b',
        emoji: { name: 'x' },
      });
      for (const key of ['custom_id', 'label', 'url', 'emoji']) {
        expect(codesAt(tree, b(key))).toEqual(['COMPONENT_FIELD_NOT_ALLOWED']);
      }
    });

    it('disabled is a boolean', () => {
      expect(codesAt(one(button('x', { disabled: 'yes' })), b('disabled'))).toEqual(['BASE_TYPE_BOOLEAN']);
    });
  });

  describe('string selects', () => {
    const s = (...path: (string | number)[]) => at(0, 'components', 0, ...path);
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));

    it('echoes defaults: min_values 1, max_values 1', () => {
      expect(read([row(stringSelect({ placeholder: 'Pick' }))])?.[0]).toEqual({
        type: 1,
        id: 1,
        components: [
          {
            type: 3,
            id: 2,
            custom_id: 'pick',
            options: [
              { label: 'A', value: 'a', default: false },
              { label: 'B', value: 'b', default: false },
            ],
            placeholder: 'Pick',
            min_values: 1,
            max_values: 1,
          },
        ],
      });
    });

    it('takes 1-25 options with unique values', () => {
      expect(read([row(stringSelect({ options: options(25) }))])).toHaveLength(1);
      expect(codesAt(errorsOf([row(stringSelect({ options: options(26) }))]), s('options'))).toEqual([
        'BASE_TYPE_MAX_LENGTH',
      ]);
      expect(codesAt(errorsOf([row(stringSelect({ options: [] }))]), s('options'))).toEqual([
        'BASE_TYPE_MIN_LENGTH',
      ]);
      expect(codesAt(errorsOf([row(stringSelect({ options: undefined }))]), s('options'))).toEqual([
        'BASE_TYPE_REQUIRED',
      ]);
      const twice = [
        { label: 'A', value: 'same' },
        { label: 'B', value: 'same' },
      ];
      expect(codesAt(errorsOf([row(stringSelect({ options: twice }))]), s('options', 1, 'value'))).toEqual([
        'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
      ]);
    });

    it('checks each option: label and value 1-100, description ≤ 100', () => {
      const option = (o: object) => errorsOf([row(stringSelect({ options: [o] }))]);
      expect(
        read([row(stringSelect({ options: [{ label: 'l'.repeat(100), value: 'v'.repeat(100) }] }))]),
      ).toHaveLength(1);
      expect(codesAt(option({ label: 'l'.repeat(101), value: 'v' }), s('options', 0, 'label'))).toEqual([
        'BASE_TYPE_BAD_LENGTH',
      ]);
      expect(codesAt(option({ label: 'l', value: '' }), s('options', 0, 'value'))).toEqual([
        'BASE_TYPE_REQUIRED',
      ]);
      expect(
        codesAt(
          option({ label: 'l', value: 'v', description: 'd'.repeat(101) }),
          s('options', 0, 'description'),
        ),
      ).toEqual(['BASE_TYPE_MAX_LENGTH']);
      expect(codesAt(option({ label: 'l', value: 'v', default: 1 }), s('options', 0, 'default'))).toEqual([
        'BASE_TYPE_BOOLEAN',
      ]);
    });

    it('min_values 0-25 ≤ max_values 1-25 ≤ the options; no more defaults than max_values', () => {
      const withValues = (extra: object) => errorsOf([row(stringSelect({ options: options(25), ...extra }))]);
      expect(
        read([row(stringSelect({ options: options(25), min_values: 0, max_values: 25 }))])?.[0],
      ).toMatchObject({
        components: [{ min_values: 0, max_values: 25 }],
      });
      expect(codesAt(withValues({ min_values: 26, max_values: 25 }), s('min_values'))).toEqual([
        'NUMBER_TYPE_MAX',
      ]);
      expect(codesAt(withValues({ min_values: -1 }), s('min_values'))).toEqual(['NUMBER_TYPE_MIN']);
      expect(codesAt(withValues({ max_values: 0 }), s('max_values'))).toEqual(['NUMBER_TYPE_MIN']);
      expect(codesAt(withValues({ max_values: 26 }), s('max_values'))).toEqual(['NUMBER_TYPE_MAX']);
      expect(codesAt(withValues({ min_values: 3, max_values: 2 }), s('min_values'))).toEqual([
        'NUMBER_TYPE_MAX',
      ]);
      expect(codesAt(errorsOf([row(stringSelect({ max_values: 3 }))]), s('options'))).toEqual([
        'SELECT_COMPONENT_VALUES_INVALID',
      ]);
      const defaults = [
        { label: 'A', value: 'a', default: true },
        { label: 'B', value: 'b', default: true },
      ];
      expect(codesAt(errorsOf([row(stringSelect({ options: defaults }))]), s('options'))).toEqual([
        'SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES',
      ]);
      expect(read([row(stringSelect({ options: defaults, max_values: 2 }))])).toHaveLength(1);
    });

    it('placeholder ≤ 150; `required` is a modal field and not echoed in a message', () => {
      expect(
        read([row(stringSelect({ placeholder: 'p'.repeat(150), required: false }))])?.[0],
      ).not.toMatchObject({
        components: [{ required: false }],
      });
      expect(
        codesAt(errorsOf([row(stringSelect({ placeholder: 'p'.repeat(151) }))]), s('placeholder')),
      ).toEqual(['BASE_TYPE_MAX_LENGTH']);
    });
  });

  describe('user, role, mentionable and channel selects', () => {
    const s = (...path: (string | number)[]) => at(0, 'components', 0, ...path);
    it.each([5, 6, 7, 8])('type %i takes a custom_id and bounds, no options needed', (type) => {
      expect(read([row({ type, custom_id: 'who', max_values: 25 })])?.[0]).toMatchObject({
        components: [{ type, custom_id: 'who', min_values: 1, max_values: 25 }],
      });
    });

    it('default_values are of the select kind, no more than max_values', () => {
      expect(
        read([
          row({
            type: 7,
            custom_id: 'm',
            max_values: 2,
            default_values: [
              { id: '1', type: 'user' },
              { id: '2', type: 'role' },
            ],
          }),
        ]),
      ).toHaveLength(1);
      expect(
        codesAt(
          errorsOf([row({ type: 5, custom_id: 'u', default_values: [{ id: '1', type: 'role' }] })]),
          s('default_values', 0, 'type'),
        ),
      ).toEqual(['SELECT_COMPONENT_DEFAULT_VALUE_TYPE_INVALID']);
      expect(
        codesAt(
          errorsOf([
            row({
              type: 5,
              custom_id: 'u',
              default_values: [
                { id: '1', type: 'user' },
                { id: '2', type: 'user' },
              ],
            }),
          ]),
          s('default_values'),
        ),
      ).toEqual(['SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES']);
      expect(
        codesAt(
          errorsOf([row({ type: 8, custom_id: 'c', default_values: [{ type: 'channel' }] })]),
          s('default_values', 0, 'id'),
        ),
      ).toEqual(['BASE_TYPE_REQUIRED']);
    });

    it('channel_types are channel types, each once', () => {
      expect(read([row({ type: 8, custom_id: 'c', channel_types: [0, 2] })])?.[0]).toMatchObject({
        components: [{ channel_types: [0, 2] }],
      });
      expect(
        codesAt(errorsOf([row({ type: 8, custom_id: 'c', channel_types: [99] })]), s('channel_types', 0)),
      ).toEqual(['BASE_TYPE_CHOICES']);
    });
  });
});

describe('readMessageComponents: components-v2 messages', () => {
  it('takes every layout at the top level, and 40 components in all', () => {
    const components = [
      text('# Title'),
      {
        type: 9,
        components: [text('a'), text('b')],
        accessory: { type: 11, media: { url: 'https://a.example/i.png' } },
      },
      { type: 12, items: [{ media: { url: 'attachment://pic.png' }, description: 'alt', spoiler: true }] },
      { type: 13, file: { url: 'attachment://report.pdf' } },
      { type: 14, spacing: 2, divider: false },
      { type: 17, accent_color: 0xff0000, components: [text('inside'), row(button('in'))] },
      row(button('top')),
    ];
    const read_ = read(components, true) ?? [];
    expect(read_.map((c) => c.type)).toEqual([10, 9, 12, 13, 14, 17, 1]);
    expect(read_[3]).toEqual({ type: 13, id: 7, file: { url: 'attachment://report.pdf' }, spoiler: false });
    expect(read_[4]).toEqual({ type: 14, id: 8, divider: false, spacing: 2 });
  });

  it('counts nested components: 40 pass, 41 do not', () => {
    // A container and 39 texts: 40.
    const container = (n: number) => ({ type: 17, components: Array.from({ length: n }, () => text()) });
    expect(read([container(39)], true)).toHaveLength(1);
    expect(codesAt(errorsOf([container(40)], true), at())).toEqual(['COMPONENT_MAX_TOTAL_EXCEEDED']);
    const texts = (n: number) => Array.from({ length: n }, () => text());
    expect(read(texts(40), true)).toHaveLength(40);
    expect(codesAt(errorsOf(texts(41), true), at())).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('refuses v2 components without the flag, and modal components in a message', () => {
    expect(codesAt(errorsOf([text()]), at(0, 'type'))).toEqual(['UNION_TYPE_CHOICES']);
    expect(
      codesAt(
        errorsOf([{ type: 18, label: 'l', component: { type: 4, custom_id: 'x', style: 1 } }], true),
        at(0, 'type'),
      ),
    ).toEqual(['UNION_TYPE_CHOICES']);
    expect(
      codesAt(
        errorsOf([{ type: 17, components: [{ type: 17, components: [text()] }] }], true),
        at(0, 'components', 0, 'type'),
      ),
    ).toEqual(['UNION_TYPE_CHOICES']);
  });

  it('sections: 1-3 texts and a button or thumbnail accessory', () => {
    const section = (n: number, accessory: unknown) => ({
      type: 9,
      components: Array.from({ length: n }, () => text()),
      accessory,
    });
    expect(read([section(3, button('go'))], true)).toHaveLength(1);
    expect(codesAt(errorsOf([section(4, button('go'))], true), at(0, 'components'))).toEqual([
      'BASE_TYPE_MAX_LENGTH',
    ]);
    expect(codesAt(errorsOf([section(0, button('go'))], true), at(0, 'components'))).toEqual([
      'BASE_TYPE_MIN_LENGTH',
    ]);
    expect(codesAt(errorsOf([section(1, undefined)], true), at(0, 'accessory'))).toEqual([
      'BASE_TYPE_REQUIRED',
    ]);
    expect(codesAt(errorsOf([section(1, text())], true), at(0, 'accessory', 'type'))).toEqual([
      'UNION_TYPE_CHOICES',
    ]);
  });

  it('text displays hold 1-4000 characters', () => {
    expect(read([text('t'.repeat(4000))], true)).toHaveLength(1);
    expect(codesAt(errorsOf([text('t'.repeat(4001))], true), at(0, 'content'))).toEqual([
      'BASE_TYPE_BAD_LENGTH',
    ]);
    expect(codesAt(errorsOf([text('')], true), at(0, 'content'))).toEqual(['BASE_TYPE_REQUIRED']);
  });

  it('media: URLs http(s) or attachment://, galleries of 1-10, files attachment:// only', () => {
    const gallery = (n: number) => ({
      type: 12,
      items: Array.from({ length: n }, () => ({ media: { url: 'https://a.example/x.png' } })),
    });
    expect(read([gallery(10)], true)).toHaveLength(1);
    expect(codesAt(errorsOf([gallery(11)], true), at(0, 'items'))).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(errorsOf([gallery(0)], true), at(0, 'items'))).toEqual(['BASE_TYPE_MIN_LENGTH']);
    expect(
      codesAt(
        errorsOf([{ type: 12, items: [{ media: { url: 'ftp://x/y' } }] }], true),
        at(0, 'items', 0, 'media', 'url'),
      ),
    ).toEqual(['URL_TYPE_INVALID_SCHEME']);
    expect(
      codesAt(errorsOf([{ type: 12, items: [{ media: {} }] }], true), at(0, 'items', 0, 'media', 'url')),
    ).toEqual(['BASE_TYPE_REQUIRED']);
    expect(
      codesAt(errorsOf([{ type: 13, file: { url: 'https://a.example/x.pdf' } }], true), at(0, 'file', 'url')),
    ).toEqual(['MEDIA_URL_ATTACHMENT_REQUIRED']);
    expect(
      codesAt(
        errorsOf(
          [
            {
              type: 12,
              items: [{ media: { url: 'https://a.example/x.png' }, description: 'd'.repeat(1025) }],
            },
          ],
          true,
        ),
        at(0, 'items', 0, 'description'),
      ),
    ).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('separators: spacing 1 or 2; containers: accent_color ≤ 0xFFFFFF', () => {
    expect(codesAt(errorsOf([{ type: 14, spacing: 3 }], true), at(0, 'spacing'))).toEqual([
      'NUMBER_TYPE_MAX',
    ]);
    expect(
      codesAt(
        errorsOf([{ type: 17, accent_color: 0x1000000, components: [text()] }], true),
        at(0, 'accent_color'),
      ),
    ).toEqual(['NUMBER_TYPE_MAX']);
    expect(read([{ type: 17, accent_color: null, components: [text()] }], true)?.[0]).toMatchObject({
      accent_color: null,
    });
  });

  it('custom_ids are unique across containers and section accessories', () => {
    const tree = errorsOf(
      [
        { type: 9, components: [text()], accessory: button('dup') },
        { type: 17, components: [row(button('dup'))] },
      ],
      true,
    );
    expect(codesAt(tree, at(1, 'components', 0, 'components', 0, 'custom_id'))).toEqual([
      'COMPONENT_CUSTOM_ID_DUPLICATED',
    ]);
  });

  it('answers a row of twenty thousand buttons with width errors', () => {
    const many = Array.from({ length: 20000 }, (_, i) => button(`b${i}`));
    const tree = errorsOf([row(...many)]);
    expect(codesAt(tree, at(0, 'components', 5))).toEqual(['COMPONENT_LAYOUT_WIDTH_EXCEEDED']);
  });
});
