/**
 * A raw body (a pod file upload, `rest.rawBody`) is read only once the caller is authenticated and its role allowed:
 * an upload of 10 MiB from no one, or from a role the operation refuses, is answered while the client is still
 * sending it, with only its first chunk sent. Were the body read first, no answer could come before the rest.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../helpers/factories.ts';

const TEN_MIB = 10 * 1024 * 1024;

/**
 * Declares a 10 MiB PNG body, sends its first 64 KiB and no more, and answers the response's status and code: the
 * server has to answer without the rest of the body.
 */
function partialUpload(url: string, method: string, path: string, token?: string) {
  return new Promise<{ status: number; code: string }>((resolve, reject) => {
    const req = http.request(`${url}/api${path}`, {
      method,
      headers: {
        'content-type': 'image/png',
        'content-length': String(TEN_MIB),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, code: (JSON.parse(text) as { code: string }).code });
      });
    });
    req.write(Buffer.alloc(64 * 1024, 1));
  });
}

describe('raw bodies after authentication', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let orderId: number;

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    orderId = (await makeOrder(app.em(), b.business.id)).id;
  });
  after(async () => {
    await app?.running.close();
  });

  test('an unauthenticated 10 MiB upload is answered 401 before its body is sent', { timeout: 60_000 }, async () => {
    const res = await partialUpload(
      app.url,
      'POST',
      `/v1/driver/orders/${orderId}/pod-files?type=photo&service_type=1`,
    );
    assert.deepEqual(res, { status: 401, code: 'UNAUTHENTICATED' });
  });

  test(
    "a caller whose role the operation refuses is answered 403 before the body's end",
    { timeout: 60_000 },
    async () => {
      const driver = await app.login(b.users.driver.email, PASSWORD);
      const res = await partialUpload(app.url, 'PUT', `/v1/orders/${orderId}/pod-files/1`, driver);
      assert.deepEqual(res, { status: 403, code: 'FORBIDDEN' });
    },
  );
});
