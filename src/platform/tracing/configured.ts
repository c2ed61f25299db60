/** Whether tracing is configured: the standard OTLP endpoint variables (docs/decisions.md, "Tracing"). */
export const tracingConfigured = (env: NodeJS.ProcessEnv = process.env) =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
