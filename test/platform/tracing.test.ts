import assert from 'node:assert/strict';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
}

/** A real OTLP/HTTP (JSON) trace receiver: what the service exports, span by span. */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: Omit<ExportedSpan, 'service'>[] }[];
          }[];
        };
        for (const rs of body.resourceSpans) {
          const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              spans.push({
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                name: s.name,
                service,
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    spans,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

describe('OpenTelemetry traces over OTLP', () => {
  let app: TestApp;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  const traceparent = () => {
    const traceId = randomBytes(16).toString('hex');
    return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
  };
  const inTrace = (traceId: string) => collector.spans.filter((s) => s.traceId === traceId);

  before(async () => {
    collector = await startCollector();
    // Read when the process installs its tracer, at bootstrap; short batches so that the test waits little.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
    process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
    // The suite's prebuilt bundle has no tracing interceptors: with tracing on, the worker bundles its own.
    app = await startApp({ WORKFLOW_BUNDLE_PATH: '', LOCKER_TIMER_SCALE: '0.0005' });
  });
  after(async () => {
    await app.running.close();
    await collector.close();
  });

  test('one trace from the request through the operation, the workflow and its activity to the webhook POST, whose traceparent names it', async () => {
    const tenant = await tenantWithReceiver(app, () => 200, 'trace-secret-0123456789abcdef');
    after(() => tenant.receiver.close());
    await app.http.put(
      '/v1/webhook-settings',
      { device_order_events: 'device_order.stored,device_order.removed' },
      { token: tenant.admin },
    );

    const stored = traceparent();
    const order = {
      kind: 'delivery',
      device_id: tenant.deviceCode,
      grid_code: 'A01',
      reference_number: 'TR-1',
      due_at: new Date(Date.now() + 3600_000).toISOString(),
    };
    const res = await app.http.post('/v1/device-orders', order, {
      token: tenant.admin,
      headers: { traceparent: stored.header },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('traceparent'), null, 'the API does not answer with trace headers');

    // The stored event's POST continues the request's trace.
    const post = await waitFor(async () =>
      tenant.receiver.received.find((r) => r.body.includes('device_order.stored')),
    );
    assert.match(post.headers.traceparent ?? '', new RegExp(`^00-${stored.traceId}-[0-9a-f]{16}-01$`));
    const storeSpans = await waitFor(async () => {
      const names = inTrace(stored.traceId).map((s) => s.name);
      return [
        'POST device_order_store',
        'operation device_order_store',
        'StartWorkflow:deviceOrderWorkflow',
        'webhook POST',
      ].every((n) => names.includes(n))
        ? inTrace(stored.traceId)
        : null;
    });
    const postSpan = storeSpans.find((s) => s.name === 'webhook POST')!;
    assert.equal(post.headers.traceparent!.split('-')[2], postSpan.spanId, 'the header names the POST span');
    const operation = storeSpans.find((s) => s.name === 'operation device_order_store')!;
    assert.equal(postSpan.parentSpanId, operation.spanId, 'the event was written by the operation');

    // Removal: an update of the workflow, whose activity writes the event; its POST is in the removal's trace.
    const removed = traceparent();
    const id = res.body.device_order.id as number;
    assert.equal(
      (
        await app.http.post(
          `/v1/device-orders/${id}/remove`,
          { removal_reason: 'handover' },
          { token: tenant.admin, headers: { traceparent: removed.header } },
        )
      ).status,
      200,
    );
    const removedPost = await waitFor(async () =>
      tenant.receiver.received.find((r) => r.body.includes('device_order.removed')),
    );
    assert.equal(removedPost.headers.traceparent?.split('-')[1], removed.traceId);
    const removeSpans = await waitFor(async () => {
      const names = inTrace(removed.traceId).map((s) => s.name);
      return names.includes('RunActivity:applyDeviceOrderTransition') && names.includes('webhook POST')
        ? inTrace(removed.traceId)
        : null;
    });
    const activity = removeSpans.find((s) => s.name === 'RunActivity:applyDeviceOrderTransition')!;
    assert.equal(
      removeSpans.find((s) => s.name === 'webhook POST')!.parentSpanId,
      activity.spanId,
      'the activity wrote the event',
    );
    assert.ok(removeSpans.every((s) => s.service === 'tms'));
    // The workflow's own run span is exported once the run ends (after its door watch), in the trace that started it.
    await waitFor(async () => inTrace(stored.traceId).some((s) => s.name === 'RunWorkflow:deviceOrderWorkflow'));
  });
});
