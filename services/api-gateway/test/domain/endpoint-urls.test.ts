import { DiscordError } from '@acs/discord-errors';
import { endpointUrlsSetBy, refuseEndpointUrlsAtCreation } from '../../src/domain/endpoint-urls';
import { needsEntryPoint } from '../../src/domain/needs-entry-point';

describe('the endpoint URLs of an application body', () => {
  it('are the fields set to a non-empty string; null, "" and other types set none', () => {
    expect(
      endpointUrlsSetBy({
        interactions_endpoint_url: 'https://a.test/i',
        event_webhooks_url: 'https://a.test/e',
      }),
    ).toEqual({ interactions_endpoint_url: 'https://a.test/i', event_webhooks_url: 'https://a.test/e' });
    expect(endpointUrlsSetBy({ interactions_endpoint_url: null, event_webhooks_url: '' })).toEqual({});
    expect(endpointUrlsSetBy({ interactions_endpoint_url: 5 })).toEqual({});
    for (const body of [undefined, null, [], 'text', 3]) expect(endpointUrlsSetBy(body)).toEqual({});
  });

  it('are refused at creation with 50035 on the first field that sets one', () => {
    expect(() => refuseEndpointUrlsAtCreation({ name: 'x', event_webhooks_url: null })).not.toThrow();
    const refused = (() => {
      try {
        refuseEndpointUrlsAtCreation({
          event_webhooks_url: 'https://a.test/e',
          interactions_endpoint_url: 'https://a.test/i',
        });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(DiscordError);
    expect((refused as DiscordError).toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        interactions_endpoint_url: {
          _errors: [
            {
              code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
              message:
                'Set interactions_endpoint_url with PATCH after creating the application: the URL must verify a PING signed with its key (verify_key).',
            },
          ],
        },
      },
    });
  });
});

describe('an entry point command', () => {
  it('is needed by an EMBEDDED application only', () => {
    expect(needsEntryPoint(1 << 17)).toBe(true);
    expect(needsEntryPoint((1 << 17) | (1 << 23))).toBe(true);
    expect(needsEntryPoint(1 << 23)).toBe(false);
    expect(needsEntryPoint(0)).toBe(false);
  });
});
