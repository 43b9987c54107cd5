import * as grpc from '@grpc/grpc-js';
import { loadOAuthProto, type oauth } from '@acs/protos';
import { CLIENT_CHANNEL_OPTIONS, createGrpcServer, createLogger } from '@acs/service-kit';
import { MissingAccessError, UnauthorizedError } from '@acs/discord-errors';

/** An OAuthService stand-in at the network edge: ResolveToken and GetInstallation answered from memory. */
export interface FakeOAuth {
  /** A client of it whose channel reconnects within a fraction of a second after an outage. */
  client: oauth.OAuthServiceClient;
  port: number;
  /** Token → the principal ResolveToken answers; any other token is answered 401, as oauth does. */
  tokens: Map<string, oauth.ResolveTokenResponse>;
  /** `${application_id}:${guild_id}` of the guild installations; any other is answered 403 / 50001, as oauth does. */
  installations: Set<string>;
  /** While true, ResolveToken fails as a broken oauth does (INTERNAL, no error detail). */
  failing: boolean;
  /** Every ResolveToken request received. */
  calls: oauth.ResolveTokenRequest__Output[];
  /** Stops answering (the port is refused) until `restart`. */
  stop(): Promise<void>;
  /** Listens on the same port again. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a real gRPC server on a free port that answers ResolveToken from in-memory state. */
export async function startFakeOAuth(): Promise<FakeOAuth> {
  const proto = loadOAuthProto().acs.oauth.v1;
  const tokens = new Map<string, oauth.ResolveTokenResponse>();
  const installations = new Set<string>();
  const calls: oauth.ResolveTokenRequest__Output[] = [];
  const fake = { failing: false };
  const startServer = () =>
    createGrpcServer({
      logger: createLogger('fake-oauth', 'silent'),
      services: [
        {
          name: 'acs.oauth.v1.OAuthService',
          definition: proto.OAuthService.service,
          handlers: {
            async ResolveToken(
              request: oauth.ResolveTokenRequest__Output,
            ): Promise<oauth.ResolveTokenResponse> {
              calls.push(request);
              if (fake.failing) throw new Error('database unreachable');
              const principal = tokens.get(request.token);
              if (!principal || principal.kind !== request.kind) throw new UnauthorizedError();
              return principal;
            },
            async GetInstallation(
              request: oauth.GetInstallationRequest__Output,
            ): Promise<oauth.GetInstallationResponse> {
              if (!installations.has(`${request.application_id}:${request.guild_id}`))
                throw new MissingAccessError();
              return { scopes: ['bot', 'applications.commands'] };
            },
          },
        },
      ],
      isReady: async () => true,
    });
  let server = startServer();
  const port = await server.listen('127.0.0.1:0');
  const client = new proto.OAuthService(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    ...CLIENT_CHANNEL_OPTIONS,
    'grpc.initial_reconnect_backoff_ms': 50,
    'grpc.max_reconnect_backoff_ms': 100,
  });
  return Object.assign(fake, {
    client,
    port,
    tokens,
    installations,
    calls,
    async stop() {
      server.server.forceShutdown();
    },
    async restart() {
      server = startServer();
      await server.listen(`127.0.0.1:${port}`);
    },
    async close() {
      client.close();
      server.server.forceShutdown();
    },
  });
}
