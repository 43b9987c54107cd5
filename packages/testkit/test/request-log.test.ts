import { describeRequests, type RequestEntry } from '../src/world/request-log';

const entry = (fields: Partial<RequestEntry>): RequestEntry => ({
  id: '1',
  timestamp: '2026-01-02T03:04:05.678Z',
  method: 'POST',
  route: 'POST /channels/{channel_id}/messages',
  path: '/api/v10/channels/5/messages',
  status: 200,
  error: null,
  bucket: 'b',
  duration_ms: 12.5,
  warnings: [],
  fault_id: null,
  ...fields,
});

it('tells each REST call with its status, time, fault, warnings and error tree', () => {
  expect(describeRequests([])).toEqual([]);
  expect(
    describeRequests([
      entry({ warnings: ['unknown field "foo" ignored'] }),
      entry({
        status: 400,
        error: {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            embeds: {
              0: { title: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } },
            },
          },
        },
      }),
      entry({
        status: 429,
        fault_id: '77',
        error: { message: 'You are being rate limited.', retry_after: 1, global: false },
      }),
    ]).join('\n'),
  ).toBe(
    [
      'REST calls of the app (3, oldest first):',
      '  03:04:05.678 POST /api/v10/channels/5/messages → 200 in 12.5 ms',
      '      ⚠ unknown field "foo" ignored',
      '  03:04:05.678 POST /api/v10/channels/5/messages → 400 in 12.5 ms',
      '      ✗ HTTP 400: Invalid Form Body (code 50035)',
      '      ✗   embeds.0.title: This field is required [BASE_TYPE_REQUIRED]',
      '  03:04:05.678 POST /api/v10/channels/5/messages → 429 in 12.5 ms (injected fault 77)',
      '      ✗ HTTP 429: You are being rate limited. (retry after 1 s)',
    ].join('\n'),
  );
});
