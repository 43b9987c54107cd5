import { OAuth2Error } from '@acs/discord-errors';
import { readClientAuthentication } from '../../src/domain/client-authentication';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** The RFC 6749 error a read fails with. */
function refusal(authorization: string | undefined, form: Record<string, string>) {
  try {
    readClientAuthentication(authorization, form);
  } catch (error) {
    const refused = error as OAuth2Error;
    return { status: refused.httpStatus, error: refused.error };
  }
  throw new Error('not refused');
}

describe('client authentication at the token endpoints', () => {
  it('reads HTTP Basic, form-urlencoded then base64, and leaves the other fields as parameters', () => {
    expect(readClientAuthentication(basic('1400000000000000001', 'a%2Bb+c'), { grant_type: 'x' })).toEqual({
      client: { clientId: '1400000000000000001', clientSecret: 'a+b c', method: 'basic' },
      params: { grant_type: 'x' },
    });
  });

  it('reads client_id and client_secret form fields, or a public client by its id alone', () => {
    expect(readClientAuthentication(undefined, { client_id: '1', client_secret: 's', code: 'c' })).toEqual({
      client: { clientId: '1', clientSecret: 's', method: 'post' },
      params: { code: 'c' },
    });
    expect(readClientAuthentication(undefined, { client_id: '1' }).client).toEqual({
      clientId: '1',
      clientSecret: '',
      method: 'none',
    });
  });

  it('refuses two methods, a differing client_id, broken Basic credentials and no client at all', () => {
    expect(refusal(basic('1', 's'), { client_secret: 's' })).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    expect(refusal(basic('1', 's'), { client_id: '2' })).toEqual({ status: 400, error: 'invalid_request' });
    expect(refusal(`Basic ${Buffer.from('no-colon').toString('base64')}`, {})).toEqual({
      status: 401,
      error: 'invalid_client',
    });
    expect(refusal(basic('%E0%A4%A', 's'), {})).toEqual({ status: 401, error: 'invalid_client' });
    expect(refusal(undefined, { client_id: '' })).toEqual({ status: 401, error: 'invalid_client' });
    expect(refusal('Bearer token', {})).toEqual({ status: 401, error: 'invalid_client' });
  });
});
