'use strict';
const grpc = require('@grpc/grpc-js');

/** grpc.health.v1.HealthCheckResponse.ServingStatus, by wire value. */
const STATUSES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/**
 * Asks a gRPC server's grpc.health.v1 for its overall status (service ""). Resolves
 * 'SERVING', 'NOT_SERVING', … or `unreachable: <reason>`; never rejects. The messages
 * are encoded by hand: the request is empty and the response is one enum field, so
 * no proto file is needed.
 */
function checkGrpcHealth(address, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure());
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      () => Buffer.alloc(0),
      (bytes) => bytes,
      null,
      { deadline: Date.now() + timeoutMs },
      (error, bytes) => {
        client.close();
        if (error) return resolve(`unreachable: ${error.details || error.message}`);
        // Field 1 (status), varint: tag 0x08 then the value; an absent field means 0.
        const status = bytes.length >= 2 && bytes[0] === 0x08 ? bytes[1] : 0;
        return resolve(STATUSES[status] ?? `status ${status}`);
      },
    );
  });
}

module.exports = { checkGrpcHealth };
