import { createAttachmentSigner } from '../../src/domain/messages';

/** The attachment signer of tests: a fixed key, the real clock. */
export const TEST_SIGNER = createAttachmentSigner(Buffer.alloc(32, 7));
