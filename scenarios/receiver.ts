/**
 * The scenario's webhook receiver: a real HTTP server on this machine with one path per endpoint it stands in for,
 * each checking the signature of its sender with the endpoint's secret, as a partner's receiver would. A webhook
 * that names something the scenario follows goes on the timeline with the outcome of that check.
 */
import http from 'node:http';
import { verifyWebhook } from '../src/modules/webhooks/verify.ts';
import type { Sender } from '../src/modules/webhooks/signing.ts';
import type { Journal } from './journal.ts';

export interface Webhook {
  endpoint: string;
  event: string;
  id: string;
  body: any;
  raw: string;
  headers: Record<string, string>;
  verified: boolean;
  /** Why the check failed, when it did. */
  failure?: string;
}

interface Endpoint {
  sender: Sender;
  secret: string;
}

/** The event's name and id, wherever its sender's format keeps them. */
function nameOf(body: any, headers: Record<string, string>): { event: string; id: string } {
  const event = body?.event ?? body?.event_type ?? body?.type ?? headers['x-webhook-event-type'] ?? '(unnamed)';
  const id = body?.event_id ?? body?.id ?? headers['x-webhook-event-id'] ?? headers['x-webhook-id'] ?? '';
  return { event: String(event), id: String(id) };
}

/** A few words of what the event says, where it says something a timeline reader wants at a glance. */
function gist(body: any): string {
  const d = body?.data ?? {};
  const order = d.order?.id ? `order ${d.order.id} ` : '';
  if (d.after_status !== undefined) return `${order}status ${d.before_status ?? '-'} -> ${d.after_status}`;
  if (d.order && (d.driver_id !== undefined || d.previous_driver_id !== undefined)) return lifecycleGist(d);
  if (d.tracking_event?.description)
    return `${order}"${d.tracking_event.description}"${d.proof_files ? `, ${d.proof_files.length} proof file(s)` : ''}`;
  if (d.distribution?.status) return `distribution ${d.distribution.status}`;
  if (d.reason) return `reason ${d.reason}`;
  if (d.status) return String(d.status);
  return '';
}

/** An order lifecycle event (docs/routes.md): its order, driver, and why. */
function lifecycleGist(d: any): string {
  const fields = ['driver_id', 'previous_driver_id', 'source', 'reason', 'failure_reason'] as const;
  return [
    `order ${d.order.id} ${d.order.status}`,
    ...fields.filter((f) => d[f] != null).map((f) => `${f} ${d[f]}`),
  ].join(', ');
}

export async function startReceiver(journal: Journal) {
  const endpoints = new Map<string, Endpoint>();
  const followed: string[] = [];
  const received: Webhook[] = [];
  const shown = new Set<Webhook>();
  const show = (w: Webhook) => {
    if (shown.has(w) || !followed.some((token) => w.raw.includes(token))) return;
    shown.add(w);
    const said = gist(w.body);
    journal.add(
      'webhook',
      `${w.endpoint.padEnd(8)} ${w.event}  ${w.id}${said && `  ${said}`}  ${w.verified ? 'signature verified' : `SIGNATURE REFUSED: ${w.failure}`}`,
    );
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const name = (req.url ?? '').split('/')[1] ?? '';
      const endpoint = endpoints.get(name);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const check = endpoint
        ? verifyWebhook({ sender: endpoint.sender, secret: endpoint.secret, headers, rawBody: raw })
        : { valid: false as const, message: 'no such endpoint' };
      const webhook: Webhook = {
        endpoint: name,
        ...nameOf(body, headers),
        body,
        raw,
        headers,
        verified: check.valid,
        ...(!check.valid && { failure: check.message }),
      };
      received.push(webhook);
      show(webhook);
      // Answered 200 even when refused: the scenario reports it, and a retry would only repeat it.
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    received,
    /** The URL of the endpoint `name`, whose webhooks are checked as `sender`'s signed with `secret`. */
    endpoint(name: string, sender: Sender, secret: string): string {
      endpoints.set(name, { sender, secret });
      return `${url}/${name}`;
    },
    /** Webhooks whose body contains `token` go on the timeline, those already received included. */
    follow(token: string): void {
      followed.push(token);
      received.forEach(show);
    },
    /** Webhooks received and followed whose signature did not check out. */
    refused: () => [...shown].filter((w) => !w.verified),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
