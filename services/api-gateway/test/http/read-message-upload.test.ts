import { contentTypeOf } from '../../src/http/read-message-upload';

describe('contentTypeOf', () => {
  it("keeps the part's media type, unless it says nothing", () => {
    expect(contentTypeOf('image/png', 'a.bin')).toBe('image/png');
    expect(contentTypeOf('IMAGE/PNG', 'a.bin')).toBe('image/png');
  });

  it("takes the filename's extension for application/octet-stream, a missing or a malformed type", () => {
    expect(contentTypeOf('application/octet-stream', 'a.png')).toBe('image/png');
    expect(contentTypeOf(undefined, 'notes.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeOf('not a type', 'data.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('', 'no-extension')).toBe('application/octet-stream');
  });
});
