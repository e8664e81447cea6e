import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Orm } from '../db/orm.ts';
import { localUrl } from '../hostnames.ts';
import type { Logger } from '../logger.ts';
import { outboxBacklog, outboxOldest, registry, undrivenDeliveries } from './metrics.ts';

export interface MetricsServer {
  url: string;
  /** Where it listens: HOST's address, loopback unless HOST opens it. */
  address: AddressInfo;
  close(): Promise<void>;
}

/** The outbox gauges, from the two partial indexes that cover exactly these rows. */
async function readOutboxGauges(orm: Orm): Promise<void> {
  const [row] = await orm.em.fork().execute<{ backlog: number; oldest: number; undriven: number }[]>(
    `select (select count(*) from outbox_event where published_at is null)::int as backlog,
       coalesce((select extract(epoch from now() - min(created_at)) from outbox_event where published_at is null), 0)::float8 as oldest,
       (select count(*) from webhook_delivery where status in ('pending', 'retrying') and retry_workflow_id is null
          and updated_at < now() - interval '1 minute')::int as undriven`,
  );
  outboxBacklog.set(row!.backlog);
  outboxOldest.set(row!.oldest);
  undrivenDeliveries.set(row!.undriven);
}

/**
 * `GET /metrics` in the Prometheus text format, on its own port so that it stays off the public API (docs/observability.md).
 * A worker process also reads the outbox gauges at each scrape; a failed read leaves them as they were and says so.
 */
export async function startMetricsServer(
  port: number,
  host: string,
  log: Logger,
  outboxFrom: Orm | null,
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404).end();
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
    void (async () => {
      if (outboxFrom)
        await readOutboxGauges(outboxFrom).catch((err: unknown) => log.warn({ err }, 'outbox gauges not read'));
      res.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
    })().catch((err: unknown) => {
      log.error({ err }, 'metrics scrape failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `${localUrl(address)}/metrics`,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
