import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { BlobTooLargeError, createBlobStore, type BlobStore } from '../src';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** `size` bytes in chunks of 64 KiB, made as read (never whole in memory). */
function bytes(size: number, fill = 7): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left === 0) return this.push(null);
      const n = Math.min(left, 64 * 1024);
      left -= n;
      this.push(Buffer.alloc(n, fill));
    },
  });
}

interface World {
  store: BlobStore;
  /** Every key the backend holds, whatever the store's listing shows. */
  rawKeys(): Promise<string[]>;
}

function behavesAsABlobStore(name: string, makeWorld: () => Promise<World & { close(): Promise<void> }>) {
  describe(name, () => {
    let world: World & { close(): Promise<void> };
    beforeAll(async () => {
      world = await makeWorld();
    });
    afterAll(async () => world.close());

    it('stores, serves and deletes a blob with its media type and size', async () => {
      const { size } = await world.store.put(
        'a/one.txt',
        Readable.from([Buffer.from('hello '), Buffer.from('world')]),
        {
          contentType: 'text/plain',
          maxBytes: 11,
        },
      );
      expect(size).toBe(11);
      const blob = await world.store.get('a/one.txt');
      expect(blob).toMatchObject({ contentType: 'text/plain', size: 11 });
      expect((await readAll(blob!.stream)).toString()).toBe('hello world');
      await world.store.delete('a/one.txt');
      expect(await world.store.get('a/one.txt')).toBeUndefined();
      await world.store.delete('a/one.txt');
    });

    it('refuses a blob one byte over its limit and keeps nothing of it', async () => {
      await expect(
        world.store.put('b/big.bin', bytes(6 * 1024 * 1024 + 1), {
          contentType: 'application/octet-stream',
          maxBytes: 6 * 1024 * 1024,
        }),
      ).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await world.store.get('b/big.bin')).toBeUndefined();
      expect((await world.rawKeys()).filter((key) => key.startsWith('b/'))).toEqual([]);
      const { size } = await world.store.put('b/exact.bin', bytes(6 * 1024 * 1024), {
        contentType: 'application/octet-stream',
        maxBytes: 6 * 1024 * 1024,
      });
      expect(size).toBe(6 * 1024 * 1024);
      expect((await readAll((await world.store.get('b/exact.bin'))!.stream)).length).toBe(6 * 1024 * 1024);
    });

    it('lists the blobs of a prefix written before a moment', async () => {
      await world.store.put('c/old', Readable.from([Buffer.from('x')]), {
        contentType: 'text/plain',
        maxBytes: 1,
      });
      const later = new Date(Date.now() + 2000);
      expect((await world.store.listOlderThan('c/', later)).map((entry) => entry.key)).toEqual(['c/old']);
      expect(await world.store.listOlderThan('c/', new Date(Date.now() - 60_000))).toEqual([]);
      expect(await world.store.listOlderThan('none/', later)).toEqual([]);
    });

    it('refuses keys that could leave its place', async () => {
      await expect(world.store.get('../etc/passwd')).rejects.toThrow('Invalid blob key');
      await expect(world.store.delete('a//b')).rejects.toThrow('Invalid blob key');
    });
  });
}

behavesAsABlobStore('the file blob store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'acs-blobs-'));
  return {
    store: createBlobStore(`file://${dir}`),
    rawKeys: async () =>
      ((await readdir(dir, { recursive: true })) as string[]).map((name) => name.split('\\').join('/')),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

behavesAsABlobStore('the S3 blob store (s3rver, an S3-compatible server in-process)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'acs-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'acs-test', configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const url = `s3://S3RVER:S3RVER@acs-test/pre?endpoint=${encodeURIComponent(endpoint)}`;
  const store = createBlobStore(url);
  const lister = createBlobStore(`s3://S3RVER:S3RVER@acs-test?endpoint=${encodeURIComponent(endpoint)}`);
  return {
    store,
    rawKeys: async () =>
      (await lister.listOlderThan('pre/', new Date(Date.now() + 60_000))).map((entry) => entry.key.slice(4)),
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('a write whose body its caller destroys', () => {
  it('fails, whether destroyed before or during the copy, and leaves no file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acs-blobs-'));
    try {
      const store = createBlobStore(dir);
      const before = new Readable({ read() {} });
      before.destroy();
      await expect(
        store.put('d/before', before, { contentType: 'text/plain', maxBytes: 10 }),
      ).rejects.toThrow();
      const during = new Readable({ read() {} });
      during.push(Buffer.from('abc'));
      const write = store.put('d/during', during, { contentType: 'text/plain', maxBytes: 10 });
      setTimeout(() => during.destroy(), 20);
      await expect(write).rejects.toThrow();
      expect(await readdir(join(dir, 'd'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
