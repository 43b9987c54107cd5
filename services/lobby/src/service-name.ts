/**
 * Name of this service everywhere: package, image, logs, traces. Its own module with no
 * imports, so that main.ts can start telemetry before anything instrumented is loaded.
 */
export const SERVICE_NAME = 'lobby';
