import type { interactions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { uploadedFilesOf } from './uploaded-files';
import type { Responder } from './responder';

/** What the callback handlers need. */
export interface CallbackHandlerDeps {
  responder: Responder;
}

/** `POST /interactions/{id}/{token}/callback`: the initial response, through the responder. */
export function createCallbackHandlers({ responder }: CallbackHandlerDeps) {
  return {
    async CreateCallback(req: interactions.CreateCallbackRequest__Output) {
      const interactionId = readPathSnowflake('interaction_id', req.interaction_id);
      const response_json = await responder.respond({
        interactionId,
        token: req.token,
        body: parseJsonBody(req.body_json),
        withResponse: req.with_response,
        files: uploadedFilesOf(req.files),
        attachmentBaseUrl: req.attachment_base_url,
      });
      return { response_json };
    },
  };
}
