// What the rest of the server calls when tracing is on, installed by tracing.ts. Nothing here
// imports OpenTelemetry: without an OTLP endpoint these stay unset and cost one check.

/** W3C trace context (`traceparent`, `tracestate`), as carried in a job's data. */
export type TraceCarrier = Record<string, string>;

export interface TracingHooks {
  /** The current trace context, to store with a job being enqueued (undefined outside a trace). */
  capture(): TraceCarrier | undefined;
  /** Runs a job in a span that continues the trace it was enqueued in. */
  runJob<T>(name: string, carrier: TraceCarrier | undefined, work: () => Promise<T>): Promise<T>;
  /** `trace_id` and `span_id` of the active span, for log lines. */
  logFields(): Record<string, string>;
}

let hooks: TracingHooks | undefined;

export const installTracingHooks = (installed: TracingHooks | undefined) => {
  hooks = installed;
};
export const tracingHooks = () => hooks;

/** The key a job's trace context travels under in its stored data (removed before parsing). */
export const TRACE_KEY = '__trace';

/** Adds the current trace context to an object payload being enqueued. */
export function withTrace<P>(payload: P): P {
  const carrier = hooks?.capture();
  if (!carrier || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return { ...payload, [TRACE_KEY]: carrier };
}

/** Splits stored job data into the payload and the trace context it carried. */
export function splitTrace(data: unknown): { payload: unknown; carrier?: TraceCarrier } {
  if (typeof data !== 'object' || data === null || !(TRACE_KEY in data)) return { payload: data };
  const { [TRACE_KEY]: carrier, ...payload } = data as Record<string, unknown>;
  return { payload, carrier: carrier as TraceCarrier };
}

/** Runs a job's handler, in a span continuing its trace when tracing is on. */
export const traced = <T>(name: string, carrier: TraceCarrier | undefined, work: () => Promise<T>) =>
  hooks ? hooks.runJob(name, carrier, work) : work();
