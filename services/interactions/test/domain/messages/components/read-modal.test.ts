import { FormErrors } from '@acs/validation';
import { findComponent, listInputs, readModal } from '../../../../src/domain/messages/components';
import { codesAt, formErrorsOf } from '../../form-errors-of';

function read(data: unknown) {
  const errors = new FormErrors();
  const modal = readModal(data, errors, ['data']);
  errors.throwIfAny();
  return modal;
}
const errorsOf = (data: unknown) => formErrorsOf(() => read(data));
const textInput = (customId = 'name', extra: object = {}) => ({
  type: 4,
  custom_id: customId,
  style: 1,
  ...extra,
});
const label = (component: unknown, extra: object = {}) => ({
  type: 18,
  label: 'Your name',
  component,
  ...extra,
});
const modal = (components: unknown[], extra: object = {}) => ({
  custom_id: 'form',
  title: 'Tell us',
  components,
  ...extra,
});
const at = (...path: (string | number)[]) => ['data', ...path];

describe('readModal', () => {
  it('echoes a modal of labels with ids assigned', () => {
    expect(read(modal([label(textInput('name', { max_length: 20 }), { description: 'As shown' })]))).toEqual({
      custom_id: 'form',
      title: 'Tell us',
      components: [
        {
          type: 18,
          id: 1,
          label: 'Your name',
          description: 'As shown',
          component: { type: 4, id: 2, custom_id: 'name', style: 1, required: true, max_length: 20 },
        },
      ],
    });
  });

  it('custom_id 1-100, title 1-45, 1-5 components', () => {
    expect(
      read(modal([label(textInput())], { custom_id: 'c'.repeat(100), title: 't'.repeat(45) })),
    ).toBeDefined();
    expect(
      codesAt(errorsOf(modal([label(textInput())], { custom_id: 'c'.repeat(101) })), at('custom_id')),
    ).toEqual(['BASE_TYPE_BAD_LENGTH']);
    expect(codesAt(errorsOf(modal([label(textInput())], { title: 't'.repeat(46) })), at('title'))).toEqual([
      'BASE_TYPE_BAD_LENGTH',
    ]);
    expect(codesAt(errorsOf(modal([label(textInput())], { title: undefined })), at('title'))).toEqual([
      'BASE_TYPE_REQUIRED',
    ]);
    const labels = (n: number) => Array.from({ length: n }, (_, i) => label(textInput(`t${i}`)));
    expect(read(modal(labels(5)))?.components).toHaveLength(5);
    expect(codesAt(errorsOf(modal(labels(6))), at('components'))).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(errorsOf(modal([])), at('components'))).toEqual(['BASE_TYPE_MIN_LENGTH']);
    expect(codesAt(errorsOf(null), at())).toEqual(['BASE_TYPE_REQUIRED']);
  });

  it('still takes the deprecated action row with one text input, which then needs its own label', () => {
    const row = { type: 1, components: [textInput('old', { label: 'Old style', style: 2 })] };
    expect(read(modal([row]))?.components[0]).toMatchObject({
      type: 1,
      components: [{ label: 'Old style', style: 2 }],
    });
    expect(
      codesAt(
        errorsOf(modal([{ type: 1, components: [textInput('old')] }])),
        at('components', 0, 'components', 0, 'label'),
      ),
    ).toEqual(['BASE_TYPE_REQUIRED']);
    expect(
      codesAt(
        errorsOf(
          modal([{ type: 1, components: [textInput('a', { label: 'a' }), textInput('b', { label: 'b' })] }]),
        ),
        at('components', 0, 'components'),
      ),
    ).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(
      codesAt(
        errorsOf(modal([{ type: 1, components: [{ type: 2, style: 1, label: 'b', custom_id: 'b' }] }])),
        at('components', 0, 'components', 0, 'type'),
      ),
    ).toEqual(['UNION_TYPE_CHOICES']);
  });

  it('labels: label 1-45, description ≤ 100, one modal input', () => {
    expect(
      codesAt(errorsOf(modal([label(textInput(), { label: 'l'.repeat(46) })])), at('components', 0, 'label')),
    ).toEqual(['BASE_TYPE_BAD_LENGTH']);
    expect(
      codesAt(
        errorsOf(modal([label(textInput(), { description: 'd'.repeat(101) })])),
        at('components', 0, 'description'),
      ),
    ).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(errorsOf(modal([label(undefined)])), at('components', 0, 'component'))).toEqual([
      'BASE_TYPE_REQUIRED',
    ]);
    expect(
      codesAt(
        errorsOf(modal([label({ type: 2, style: 1, label: 'x', custom_id: 'x' })])),
        at('components', 0, 'component', 'type'),
      ),
    ).toEqual(['UNION_TYPE_CHOICES']);
    expect(
      read(modal([{ type: 10, content: 'Read this first' }, label(textInput())]))?.components,
    ).toHaveLength(2);
  });

  it('text inputs: style 1-2, lengths 0-4000 with min ≤ max, value within max_length, placeholder ≤ 100', () => {
    const input = (extra: object) => errorsOf(modal([label(textInput('t', extra))]));
    const c = (...path: (string | number)[]) => at('components', 0, 'component', ...path);
    expect(
      read(modal([label(textInput('t', { min_length: 0, max_length: 4000, value: 'v'.repeat(4000) }))])),
    ).toBeDefined();
    expect(codesAt(input({ style: 3 }), c('style'))).toEqual(['BASE_TYPE_CHOICES']);
    expect(codesAt(input({ min_length: 4001 }), c('min_length'))).toEqual(['NUMBER_TYPE_MAX']);
    expect(codesAt(input({ max_length: 0 }), c('max_length'))).toEqual(['NUMBER_TYPE_MIN']);
    expect(codesAt(input({ min_length: 10, max_length: 5 }), c('min_length'))).toEqual([
      'TEXT_INPUT_LENGTH_INVALID',
    ]);
    expect(codesAt(input({ max_length: 3, value: 'long' }), c('value'))).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(codesAt(input({ placeholder: 'p'.repeat(101) }), c('placeholder'))).toEqual([
      'BASE_TYPE_MAX_LENGTH',
    ]);
  });

  it('selects in a label: required (default true) needs min_values ≥ 1; disabled is refused', () => {
    const select = (extra: object) => ({
      type: 3,
      custom_id: 's',
      options: [{ label: 'A', value: 'a' }],
      ...extra,
    });
    const c = (...path: (string | number)[]) => at('components', 0, 'component', ...path);
    expect(read(modal([label(select({}))]))?.components[0]).toMatchObject({
      component: { required: true, min_values: 1 },
    });
    expect(read(modal([label(select({ required: false, min_values: 0 }))]))).toBeDefined();
    expect(codesAt(errorsOf(modal([label(select({ min_values: 0 }))])), c('min_values'))).toEqual([
      'NUMBER_TYPE_MIN',
    ]);
    expect(codesAt(errorsOf(modal([label(select({ disabled: true }))])), c('disabled'))).toEqual([
      'COMPONENT_FIELD_NOT_ALLOWED',
    ]);
    expect(read(modal([label({ type: 5, custom_id: 'who' })]))).toBeDefined();
  });

  it('file uploads: 0-10 files, file types ≤ 10', () => {
    const upload = (extra: object) => label({ type: 19, custom_id: 'files', ...extra });
    const c = (...path: (string | number)[]) => at('components', 0, 'component', ...path);
    expect(
      read(modal([upload({ min_values: 0, max_values: 10, required: false, file_types: ['image', '.pdf'] })]))
        ?.components[0],
    ).toMatchObject({
      component: { min_values: 0, max_values: 10, required: false, file_types: ['image', '.pdf'] },
    });
    expect(codesAt(errorsOf(modal([upload({ max_values: 11 })])), c('max_values'))).toEqual([
      'NUMBER_TYPE_MAX',
    ]);
    expect(codesAt(errorsOf(modal([upload({ min_values: 11, max_values: 10 })])), c('min_values'))).toEqual([
      'NUMBER_TYPE_MAX',
    ]);
    expect(codesAt(errorsOf(modal([upload({ file_types: ['exe'] })])), c('file_types', 0))).toEqual([
      'COMPONENT_FIELD_NOT_ALLOWED',
    ]);
    expect(
      codesAt(
        errorsOf(modal([upload({ file_types: Array.from({ length: 11 }, () => 'image') })])),
        c('file_types'),
      ),
    ).toEqual(['BASE_TYPE_MAX_LENGTH']);
  });

  it('radio groups (2-10, one default), checkbox groups (1-10), checkboxes', () => {
    const opts = (n: number, defaults = 0) =>
      Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `v${i}`, default: i < defaults }));
    const c = (...path: (string | number)[]) => at('components', 0, 'component', ...path);
    expect(read(modal([label({ type: 21, custom_id: 'r', options: opts(10, 1) })]))).toBeDefined();
    expect(
      codesAt(errorsOf(modal([label({ type: 21, custom_id: 'r', options: opts(1) })])), c('options')),
    ).toEqual(['BASE_TYPE_MIN_LENGTH']);
    expect(
      codesAt(errorsOf(modal([label({ type: 21, custom_id: 'r', options: opts(3, 2) })])), c('options')),
    ).toEqual(['SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES']);
    expect(read(modal([label({ type: 22, custom_id: 'g', options: opts(3) })]))?.components[0]).toMatchObject(
      {
        component: { min_values: 1, max_values: 3 },
      },
    );
    expect(
      codesAt(errorsOf(modal([label({ type: 22, custom_id: 'g', options: opts(11) })])), c('options')),
    ).toEqual(['BASE_TYPE_MAX_LENGTH']);
    expect(
      codesAt(
        errorsOf(modal([label({ type: 22, custom_id: 'g', options: opts(2), max_values: 3 })])),
        c('max_values'),
      ),
    ).toEqual(['SELECT_COMPONENT_VALUES_INVALID']);
    expect(read(modal([label({ type: 23, custom_id: 'ok', default: true })]))?.components[0]).toMatchObject({
      component: { type: 23, custom_id: 'ok', default: true },
    });
  });

  it('custom_ids are unique in the modal', () => {
    const tree = errorsOf(modal([label(textInput('same')), label(textInput('same'))]));
    expect(codesAt(tree, at('components', 1, 'component', 'custom_id'))).toEqual([
      'COMPONENT_CUSTOM_ID_DUPLICATED',
    ]);
  });
});

describe('findComponent, listInputs', () => {
  const components = [
    { type: 9, components: [{ type: 10, content: 'x' }], accessory: { type: 2, custom_id: 'acc' } },
    { type: 17, components: [{ type: 1, components: [{ type: 3, custom_id: 'deep' }] }] },
    { type: 18, label: 'l', component: { type: 4, custom_id: 'in-label' } },
  ];
  it('finds by custom_id through every layout', () => {
    expect(findComponent(components, 'acc')).toMatchObject({ type: 2 });
    expect(findComponent(components, 'deep')).toMatchObject({ type: 3 });
    expect(findComponent(components, 'in-label')).toMatchObject({ type: 4 });
    expect(findComponent(components, 'none')).toBeUndefined();
    expect(listInputs(components).map((c) => c.custom_id)).toEqual(['acc', 'deep', 'in-label']);
  });
});
