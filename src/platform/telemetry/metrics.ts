import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (one registry per process: an API, a worker, or `npm start`'s both). Counters
 * and histograms are fed where the thing happens; the outbox gauges are read from PostgreSQL at scrape time
 * (metricsServer.ts). Label values come from closed sets (operation names, workflow and activity types,
 * outcomes), never from input.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'tms_process_' });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpDuration = new Histogram({
  name: 'tms_http_request_duration_seconds',
  help: 'API requests from the first byte read to the last written, by catalog operation (graphql for /api/graphql) and status',
  labelNames: ['operation', 'method', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'tms_webhook_attempts_total',
  help: 'Webhook POSTs by outcome (delivered, retrying, dead) and by whether the relay (first) or a retry workflow (retry) made them',
  labelNames: ['outcome', 'kind'] as const,
  registers: [registry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'tms_webhook_attempt_duration_seconds',
  help: 'Time from sending a webhook POST to its answer (or its failure)',
  buckets: SECONDS,
  registers: [registry],
});

export const relayLag = new Histogram({
  name: 'tms_outbox_relay_lag_seconds',
  help: "Time from an outbox event's commit to the relay claiming it",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120],
  registers: [registry],
});

export const outboxBacklog = new Gauge({
  name: 'tms_outbox_backlog_events',
  help: 'Outbox events not yet published (read at scrape time)',
  registers: [registry],
});

export const outboxOldest = new Gauge({
  name: 'tms_outbox_oldest_pending_seconds',
  help: 'Age of the oldest unpublished outbox event, 0 when none (read at scrape time)',
  registers: [registry],
});

export const undrivenDeliveries = new Gauge({
  name: 'tms_webhook_deliveries_undriven',
  help: 'Open webhook deliveries that no retry workflow drives, untouched for a minute: the relay adopts them; a count that stays up is stuck (read at scrape time)',
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'tms_rate_limit_refusals_total',
  help: 'Requests refused with 429 RATE_LIMITED, by the limit that was spent (public_read, sign_in, ingest, webhook_test, quote)',
  labelNames: ['policy'] as const,
  registers: [registry],
});

export const workflowStarts = new Counter({
  name: 'tms_workflow_starts_total',
  help: 'Workflow starts this process asked Temporal for, by workflow type and result (started, already_started, error)',
  labelNames: ['workflow_type', 'result'] as const,
  registers: [registry],
});

export const workflowResults = new Counter({
  name: 'tms_workflow_results_total',
  help: 'Workflow runs this worker finished, by type and outcome (completed, failed, cancelled, continued_as_new, task_failed)',
  labelNames: ['workflow_type', 'outcome'] as const,
  registers: [registry],
});

export const activityResults = new Counter({
  name: 'tms_activity_results_total',
  help: 'Activity attempts this worker ran, by type and outcome (completed, failed, cancelled)',
  labelNames: ['activity_type', 'outcome'] as const,
  registers: [registry],
});
