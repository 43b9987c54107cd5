import * as grpc from '@grpc/grpc-js';

/**
 * Whether a peer answers SERVING to `grpc.health.v1` Check (which reflects its own
 * readiness, its database included), asked over the channel of one of its clients.
 */
export function checkServing(client: grpc.Client, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (arg: Buffer) => arg,
      (buffer: Buffer) => buffer,
      // HealthCheckRequest{service: ""} encodes to an empty message.
      Buffer.alloc(0),
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (error, response?: Buffer) => {
        // HealthCheckResponse{status: SERVING(1)} encodes as field 1 varint 1: 0x08 0x01.
        resolve(
          !error &&
            response !== undefined &&
            response.length === 2 &&
            response[0] === 0x08 &&
            response[1] === 1,
        );
      },
    );
  });
}
