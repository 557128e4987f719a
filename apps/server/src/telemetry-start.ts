// The `--import` entry of the server (`node --import ./apps/server/dist/telemetry.js …/main.js`):
// starts the traces before the server's modules load, when OTEL_EXPORTER_OTLP_ENDPOINT is set.
import { startTelemetry } from './telemetry.ts';

await startTelemetry();
