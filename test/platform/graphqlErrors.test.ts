import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { translate } from '../../src/platform/i18n/messages.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
before(async () => { app = await startApp({}, { worker: false }); });
after(() => app.running.close());

test('an unexpected failure under GraphQL answers like REST: a stable code, a translated message, no internal text', async () => {
  const token = await app.login('admin@demo.example');
  // A year-0 bound reaches PostgreSQL, which refuses it (the boundary rule for such times is still to come).
  const res = await app.http.graphql('{ webhookDeliveries(from: "0000-01-01T00:00:00Z") { total } }', undefined, { token, lang: 'fr' });
  const [error] = res.body.errors;
  assert.equal(error.extensions.code, 'INTERNAL');
  assert.equal(error.message, translate('error.internal', 'fr'));
  assert.doesNotMatch(JSON.stringify(res.body), /date\/time|out of range|postgres/i);
});
