import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { translate } from '../../src/platform/i18n/messages.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
before(async () => {
  app = await startApp({}, { worker: false });
});
after(() => app.running.close());

test('an unexpected failure under GraphQL answers like REST: a stable code, a translated message, no internal text', async () => {
  const token = await app.login('admin@demo.example');
  // A table that is not there makes PostgreSQL fail the query, as an outage or a bug would.
  await app.em().execute('alter table webhook_delivery rename to webhook_delivery_away');
  try {
    const res = await app.http.graphql('{ webhookDeliveries { total } }', undefined, { token, lang: 'fr' });
    const [error] = res.body.errors;
    assert.equal(error.extensions.code, 'INTERNAL');
    assert.equal(error.message, translate('error.internal', 'fr'));
    assert.doesNotMatch(JSON.stringify(res.body), /webhook_delivery|relation|postgres/i);
  } finally {
    await app.em().execute('alter table webhook_delivery_away rename to webhook_delivery');
  }
});

test('a year-0 bound is refused at the boundary under GraphQL too, naming the field', async () => {
  const token = await app.login('admin@demo.example');
  const res = await app.http.graphql('{ webhookDeliveries(from: "0000-01-01T00:00:00Z") { total } }', undefined, {
    token,
    lang: 'de',
  });
  const [error] = res.body.errors;
  assert.equal(error.extensions.code, 'VALIDATION_FAILED');
  assert.deepEqual(
    error.extensions.errors.map((e: { field: string }) => e.field),
    ['from'],
  );
  assert.equal(error.extensions.errors[0].message, translate('field.time_out_of_range', 'de'));
});
