import { z } from 'zod';
import {
  findDelivery,
  listDeliveries,
  reopenDeliveries,
  type DeliveryFilter,
  type LoggedAttempt,
  type LoggedDelivery,
} from '../repo/log.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { PROVIDERS, type Role } from '../../../platform/roles.ts';
import { startRetryWorkflows } from '../retryWorkflows.ts';
import { intParam, pageOf, pageOutput, pageParams, pathId, timeParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { WEBHOOK_FORMATS } from '../domain.ts';

const TAG = 'Webhooks';
/** Merchants see their deliveries; provider accounts the deliveries to their own endpoint. */
const RECEIVER_OWNERS: readonly Role[] = ['client_admin', ...PROVIDERS];
/** How many dead letters one resend call reopens; the answer says whether more match. */
export const RESEND_LIMIT = 500;

const STATUSES = ['pending', 'retrying', 'delivered', 'dead'] as const;
const iso = z.string();
const isoOrNull = iso.nullable();

const Delivery = z.object({
  id: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  reference_type: z.string(),
  reference_id: z.string(),
  sender: z.string(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  standard_webhooks: z.boolean(),
  webhook_event_id: z.string().describe('X-Webhook-Event-Id: the same on every attempt, replay and resend.'),
  status: z.enum(STATUSES),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  round: z.number().int().describe('0 for the original schedule; each replay or resend adds one.'),
  retry_workflow_id: z
    .string()
    .nullable()
    .describe(
      "The Temporal workflow that drives (or drove) this round's retries; null while the first attempt was enough.",
    ),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
  delivered_at: isoOrNull,
});
const Attempt = z.object({
  id: z.number().int(),
  attempt: z.number().int(),
  url: z.string(),
  request_headers: z.record(z.string(), z.string()).describe('Signature headers left out.'),
  body_sha256: z.string(),
  body_bytes: z.number().int(),
  response_status: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
  attempted_at: iso,
});

const isoOf = (v: Date | string) => new Date(v).toISOString();

function present(d: LoggedDelivery): z.input<typeof Delivery> {
  return {
    id: Number(d.id),
    event_id: d.event_id,
    event_type: d.event_type,
    reference_type: d.reference_type,
    reference_id: d.reference_id,
    sender: d.sender,
    url: d.url,
    format: d.format,
    standard_webhooks: d.standard_webhooks,
    webhook_event_id: d.delivery_key,
    status: d.status,
    attempts: d.attempts,
    max_attempts: d.max_attempts,
    round: d.round,
    retry_workflow_id: d.retry_workflow_id,
    last_status: d.last_status,
    last_error: d.last_error,
    created_at: isoOf(d.created_at),
    updated_at: isoOf(d.updated_at),
    delivered_at: d.delivered_at ? isoOf(d.delivered_at) : null,
  };
}

const presentAttempt = (a: LoggedAttempt): z.input<typeof Attempt> => ({
  ...a,
  id: Number(a.id),
  attempted_at: isoOf(a.attempted_at),
});

const filterFields = {
  event: z.string().trim().min(1).max(64).optional(),
  reference_type: z.string().trim().min(1).max(32).optional(),
  reference_id: z.string().trim().min(1).max(64).optional(),
  from: timeParam().optional().describe('Deliveries created at or after this time.'),
  to: timeParam().optional().describe('Deliveries created before this time.'),
};
type FilterInput = { [K in keyof typeof filterFields]?: string };

function filterOf(ctx: BusinessContext, input: FilterInput): DeliveryFilter {
  const from = input.from ? new Date(input.from) : undefined;
  const to = input.to ? new Date(input.to) : undefined;
  if (from && to && to <= from) throw errors.field('to', 'field.range_reversed');
  return {
    businessId: ctx.caller.businessId,
    event: input.event,
    referenceType: input.reference_type,
    referenceId: input.reference_id,
    from,
    to,
  };
}

/** Reopens the deliveries and starts the workflows that drive their new round; returns them as reopened. */
async function reopen(
  ctx: BusinessContext,
  filter: DeliveryFilter,
  statuses: LoggedDelivery['status'][],
  limit: number,
): Promise<LoggedDelivery[]> {
  const reopened = await reopenDeliveries(ctx.em, filter, statuses, limit);
  await startRetryWorkflows(
    { temporal: ctx.temporal, config: ctx.config, em: ctx.em, log: ctx.log },
    reopened.map((d) => ({
      id: Number(d.id),
      sender: d.sender,
      businessId: d.business_id,
      round: d.round,
      attemptsMade: 0,
      roundBase: d.round_base,
    })),
  );
  ctx.log.info(
    { businessId: filter.businessId, deliveries: reopened.map((d) => Number(d.id)), statuses },
    'webhook deliveries reopened',
  );
  return reopened;
}

export const webhookDeliveryList = defineOperation({
  name: 'webhook_delivery_list',
  summary: 'List webhook deliveries (one per event and endpoint), newest first, with their state.',
  description:
    "Each row is one event to one URL, with its status (`pending`, `retrying`, `delivered`, `dead`), attempts, last answer and error. Filter by `event`, `status`, `reference_type`, `reference_id` or creation time (`from` inclusive, `to` exclusive); paginated with `page` and `per_page`. A merchant sees its business's deliveries, a provider those to its own endpoint; `webhook_delivery_get` shows one's attempts. A `to` not after `from` answers VALIDATION_FAILED.",
  tag: TAG,
  roles: RECEIVER_OWNERS,
  business: true,
  rest: { method: 'GET', path: '/v1/webhook-deliveries' },
  graphql: { name: 'webhookDeliveries', kind: 'query' },
  mcp: { scope: 'webhooks:read', risk: 'low', tool: 'get_webhook_delivery_logs', servers: ['developer'] },
  input: z.object({ ...filterFields, status: z.enum(STATUSES).optional(), ...pageParams }).strict(),
  output: pageOutput('deliveries', Delivery),
  async handler(input, ctx) {
    const { total, rows } = await listDeliveries(
      ctx.em,
      { ...filterOf(ctx, input), status: input.status },
      input.page,
      input.per_page,
    );
    return pageOf(input, 'deliveries', total, rows.map(present));
  },
});

export const webhookDeliveryGet = defineOperation({
  name: 'webhook_delivery_get',
  summary:
    'Read one webhook delivery with every attempt: headers sent (without signatures), body digest, answer, latency, error.',
  description:
    "Use it to debug a receiver: each attempt shows the URL, the request headers without signatures, the body's SHA-256 and size (never the body), the answer's status, the latency and the error. Attempts of replays and resends follow, numbered on. A delivery of another business, or to another provider's endpoint, answers NOT_FOUND.",
  tag: TAG,
  roles: RECEIVER_OWNERS,
  business: true,
  rest: { method: 'GET', path: '/v1/webhook-deliveries/{id}' },
  failures: { NOT_FOUND: 'No such delivery of the business' },
  graphql: { name: 'webhookDelivery', kind: 'query' },
  mcp: { scope: 'webhooks:read', risk: 'low', servers: ['developer'] },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), delivery: Delivery.extend({ attempt_log: z.array(Attempt) }) }),
  async handler(input, ctx) {
    const found = await findDelivery(ctx.em, ctx.caller.businessId, input.id);
    if (!found) throw errors.notFound();
    return {
      result: true as const,
      delivery: { ...present(found.delivery), attempt_log: found.attempts.map(presentAttempt) },
    };
  },
});

export const webhookDeliveryReplay = defineOperation({
  name: 'webhook_delivery_replay',
  summary: 'Send a finished delivery (delivered or dead-lettered) again, with the same ids, on a fresh retry schedule.',
  description:
    'Opens a new round on the same delivery: the same event id, `X-Webhook-Event-Id` and URL, attempt numbers continuing, signed with the current secret and driven by a retry workflow of its own. Use it after fixing a receiver; for many dead letters at once, `webhook_delivery_resend`. Refuses a delivery still pending or retrying (DELIVERY_IN_PROGRESS) and an unknown one (NOT_FOUND).',
  tag: TAG,
  roles: RECEIVER_OWNERS,
  business: true,
  rest: { method: 'POST', path: '/v1/webhook-deliveries/{id}/replay', status: 202 },
  failures: {
    NOT_FOUND: 'No such delivery of the business',
    DELIVERY_IN_PROGRESS: 'The delivery is still being tried',
  },
  graphql: { name: 'webhookDeliveryReplay', kind: 'mutation' },
  mcp: { scope: 'webhooks:write', risk: 'medium', tool: 'replay_webhook_delivery', servers: ['developer'] },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), delivery: Delivery }),
  async handler(input, ctx) {
    const [reopened] = await reopen(
      ctx,
      { businessId: ctx.caller.businessId, ids: [input.id] },
      ['delivered', 'dead'],
      1,
    );
    if (reopened) return { result: true as const, delivery: present(reopened) };
    const found = await findDelivery(ctx.em, ctx.caller.businessId, input.id);
    if (!found) throw errors.notFound();
    throw fail('DELIVERY_IN_PROGRESS', 'webhook.delivery_in_progress');
  },
});

export const webhookDeliveryResend = defineOperation({
  name: 'webhook_delivery_resend',
  summary: `Resend dead-lettered deliveries, chosen by id or by filter (at most ${RESEND_LIMIT} per call), each on a fresh retry schedule.`,
  description: `Only dead deliveries are taken: chosen ids or matching deliveries that are not dead, or not the caller's, are skipped, not refused. Each one reopened keeps its ids and starts a new round at once, as a replay does; the answer lists the ids resent, and \`more: true\` says more dead letters match, so call again (${RESEND_LIMIT} per call). Refuses a call with neither \`delivery_ids\` nor any filter (VALIDATION_FAILED).`,
  tag: TAG,
  roles: RECEIVER_OWNERS,
  business: true,
  rest: { method: 'POST', path: '/v1/webhook-deliveries/resend', status: 202 },
  graphql: { name: 'webhookDeliveryResend', kind: 'mutation' },
  mcp: { scope: 'webhooks:write', risk: 'high', servers: ['developer'] },
  input: z.object({ delivery_ids: z.array(intParam()).min(1).max(RESEND_LIMIT).optional(), ...filterFields }).strict(),
  output: z.object({
    result: z.literal(true),
    resent: z.number().int(),
    delivery_ids: z.array(z.number().int()),
    more: z.boolean().describe('More dead letters match: call again.'),
  }),
  async handler(input, ctx) {
    const { delivery_ids: ids, ...rest } = input;
    if (!ids && !Object.values(rest).some((v) => v !== undefined))
      throw errors.field('delivery_ids', 'field.filter_required');
    const filter = { ...filterOf(ctx, rest), ids };
    const reopened = await reopen(ctx, filter, ['dead'], RESEND_LIMIT);
    const more =
      reopened.length === RESEND_LIMIT && (await listDeliveries(ctx.em, { ...filter, status: 'dead' }, 1, 1)).total > 0;
    return { result: true as const, resent: reopened.length, delivery_ids: reopened.map((d) => Number(d.id)), more };
  },
});
