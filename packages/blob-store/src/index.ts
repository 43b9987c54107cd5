export * from './blob-store';
export * from './create-blob-store';
export * from './file-blob-store';
export * from './s3-blob-store';
