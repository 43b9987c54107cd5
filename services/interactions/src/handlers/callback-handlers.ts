import type { interactions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { checkCallbackToken } from '../domain/callbacks';
import type { ResponseStore } from '../store/response-store';
import { uploadedFilesOf } from './uploaded-files';
import type { Responder } from './responder';

/** What the callback handlers need. */
export interface CallbackHandlerDeps {
  responder: Responder;
  responses: ResponseStore;
}

/** `POST /interactions/{id}/{token}/callback`: the initial response, through the responder. */
export function createCallbackHandlers({ responder, responses }: CallbackHandlerDeps) {
  return {
    async CreateCallback(req: interactions.CreateCallbackRequest__Output) {
      const interactionId = readPathSnowflake('interaction_id', req.interaction_id);
      const answer = await responder.respond({
        interactionId,
        token: req.token,
        body: parseJsonBody(req.body_json),
        withResponse: req.with_response,
        files: uploadedFilesOf(req.files),
        attachmentBaseUrl: req.attachment_base_url,
      });
      return { response_json: answer.json, application_id: answer.applicationId };
    },

    /** Whose interaction a callback named (for the request log of a refused one). */
    async GetCallbackApplication(req: interactions.GetCallbackApplicationRequest__Output) {
      const record = await responses.find(readPathSnowflake('interaction_id', req.interaction_id));
      checkCallbackToken(record, req.token);
      return { application_id: record.applicationId };
    },
  };
}
