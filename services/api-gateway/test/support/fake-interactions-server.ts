import { loadInteractionsProto, type interactions } from '@acs/protos';
import { createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';

/** The RPCs of InteractionsService, each answering its request (or throwing a DiscordError, as the service does). */
export interface InteractionsAnswers {
  CreateInteraction(
    request: interactions.CreateInteractionRequest__Output,
  ): interactions.CreateInteractionResponse;
  CreateCallback(request: interactions.CreateCallbackRequest__Output): interactions.CreateCallbackResponse;
  CreateFollowup(request: interactions.CreateFollowupRequest__Output): interactions.MessageResponse;
  GetWebhookMessage(request: interactions.WebhookMessageRequest__Output): interactions.MessageResponse;
  EditWebhookMessage(request: interactions.WebhookMessageRequest__Output): interactions.MessageResponse;
  DeleteWebhookMessage(
    request: interactions.WebhookMessageRequest__Output,
  ): interactions.DeleteWebhookMessageResponse;
}

/** An InteractionsService stand-in at the network edge. */
export interface FakeInteractions {
  port: number;
  /** What each RPC answers; a test replaces one and `reset` restores the defaults. */
  answers: InteractionsAnswers;
  /** Every request received, in order, with the name of its RPC. */
  calls: Array<{ rpc: keyof InteractionsAnswers; request: unknown }>;
  reset(): void;
  close(): Promise<void>;
}

/** A message object as the stand-in answers it: enough to tell which call made it. */
export const messageJson = (id: string) => `{"id":"${id}","type":20,"content":"pong"}`;

function defaultAnswers(): InteractionsAnswers {
  return {
    CreateInteraction: (request) => ({
      outcome_json: request.wait ? '{"interaction":{"id":"1"},"outcome":"success","messages":[]}' : '',
    }),
    CreateCallback: (request) => ({
      response_json: request.with_response ? '{"interaction":{"id":"1","type":2}}' : '',
    }),
    CreateFollowup: () => ({ message_json: messageJson('11') }),
    GetWebhookMessage: () => ({ message_json: messageJson('12') }),
    EditWebhookMessage: () => ({ message_json: messageJson('13') }),
    DeleteWebhookMessage: () => ({}),
  };
}

/** Starts a real gRPC server on a free port that answers InteractionsService from `answers`. */
export async function startFakeInteractions(): Promise<FakeInteractions> {
  const calls: FakeInteractions['calls'] = [];
  const fake = { answers: defaultAnswers() };
  const rpc =
    <K extends keyof InteractionsAnswers>(name: K) =>
    async (request: Parameters<InteractionsAnswers[K]>[0]) => {
      calls.push({ rpc: name, request });
      return (fake.answers[name] as (r: typeof request) => unknown)(request);
    };
  const server: GrpcServer = createGrpcServer({
    logger: createLogger('fake-interactions', 'silent'),
    isReady: async () => true,
    services: [
      {
        name: 'acs.interactions.v1.InteractionsService',
        definition: loadInteractionsProto().acs.interactions.v1.InteractionsService.service,
        handlers: {
          CreateInteraction: rpc('CreateInteraction'),
          CreateCallback: rpc('CreateCallback'),
          CreateFollowup: rpc('CreateFollowup'),
          GetWebhookMessage: rpc('GetWebhookMessage'),
          EditWebhookMessage: rpc('EditWebhookMessage'),
          DeleteWebhookMessage: rpc('DeleteWebhookMessage'),
        },
      },
    ],
  });
  const port = await server.listen('127.0.0.1:0');
  return Object.assign(fake, {
    port,
    calls,
    reset() {
      fake.answers = defaultAnswers();
      calls.length = 0;
    },
    close: () => server.drain(),
  });
}
