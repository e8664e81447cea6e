/**
 * The GraphQL mirrors of rating and buying (docs/labels.md: `labelserviceRate`, `labelserviceSubmitOrder`) through
 * POST /graphql with the sandbox carriers: rates with their rate_id from both carriers, a label bought at one with its
 * carrier tracking number, and the carrier's refusals as GraphQL errors carrying the REST body's code and fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { assertSandboxRates, labelWorld, rateBody, type LabelWorld } from './world.ts';
import { graphqlLiteral } from '../../helpers/graphql.ts';

const args = (input: Record<string, unknown>) =>
  Object.entries(input)
    .map(([k, v]) => `${k}: ${graphqlLiteral(v)}`)
    .join(', ');

const RATE_FIELDS = `result rates { rate_id carrier carrier_name carrier_account_id service service_name currency
  base_charge extra_charges { code amount } total_charge transit_days estimated_delivery expires_at }
  messages { carrier code message }`;
const PURCHASE_FIELDS = `result replayed order_id tracking_number status_id status rate_id currency shipping_price
  label { state carrier service carrier_tracking_numbers carrier_shipment_id formats purchased_at }`;

describe('labels: the GraphQL mirrors', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    app = await startApp();
    w = await labelWorld(app);
  });
  after(() => app.running.close());

  const rate = (input: Record<string, unknown>, token = w.admin) =>
    app.http.graphql(`mutation { labelserviceRate(${args(input)}) { ${RATE_FIELDS} } }`, {}, { token });
  const submit = (input: Record<string, unknown>, token = w.admin) =>
    app.http.graphql(`mutation { labelserviceSubmitOrder(${args(input)}) { ${PURCHASE_FIELDS} } }`, {}, { token });
  const storedRate = async (id: string) =>
    (
      await app
        .em()
        .execute<
          { business_id: number; carrier: string; service: string; total_charge: string; used_by_order_id: number }[]
        >('select business_id, carrier, service, total_charge::text, used_by_order_id from label_rate where id = ?', [
          id,
        ])
    )[0];

  test('labelserviceRate: every rate of both sandbox carriers, each with a stored rate_id, cheapest first', async () => {
    const res = await rate(rateBody('GQL-RATE'));
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    const answer = res.body.data.labelserviceRate;
    assert.equal(answer.result, true);
    assert.deepEqual(answer.messages, []);
    const express = assertSandboxRates(answer.rates);
    assert.equal(express.carrier_account_id, w.accounts[0]!.id);
    for (const r of answer.rates) {
      assert.match(r.rate_id, /^lr_[a-z2-7]{26}$/);
      const row = await storedRate(r.rate_id);
      assert.deepEqual(
        row && [row.business_id, row.carrier, row.service, row.total_charge, row.used_by_order_id],
        [w.business.id, r.carrier, r.service, r.total_charge, null],
        'the rate is stored as answered, unused',
      );
    }

    // A carrier filter and one carrier down: the other's rates, and the failing one as a message.
    const down = await rate(rateBody('SBX-RATE-DOWN-GQL'));
    assert.equal(down.body.errors, undefined, JSON.stringify(down.body.errors));
    assert.deepEqual([...new Set(down.body.data.labelserviceRate.rates.map((r: any) => r.carrier))], ['sandbox_swift']);
    assert.deepEqual(
      down.body.data.labelserviceRate.messages.map((m: any) => [m.carrier, m.code]),
      [['sandbox_parcel', 'SERVICE_UNAVAILABLE']],
    );
  });

  test('labelserviceSubmitOrder: the label bought at a rate_id, with its carrier tracking number; a key replays it', async () => {
    const rated = await rate(rateBody('GQL-BUY'));
    const parcel = rated.body.data.labelserviceRate.rates.find((r: any) => r.service === 'parcel_ground');
    const res = await submit({ rate_id: parcel.rate_id, idempotency_key: 'gql-buy-1', label_format: 'ZPL' });
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    const bought = res.body.data.labelserviceSubmitOrder;
    assert.equal(bought.result, true);
    assert.equal(bought.replayed, false);
    assert.equal(typeof bought.order_id, 'number');
    assert.deepEqual([bought.status_id, bought.status, bought.rate_id], [1, 'NEW_ORDER', parcel.rate_id]);
    assert.equal(bought.shipping_price, parcel.total_charge);
    assert.equal(bought.currency, 'EUR');
    assert.deepEqual(
      [bought.label.state, bought.label.carrier, bought.label.service],
      ['purchased', 'sandbox_parcel', 'parcel_ground'],
    );
    assert.equal(bought.label.formats[0], 'ZPL');
    const [carrierNumber] = bought.label.carrier_tracking_numbers;
    assert.match(carrierNumber, /^PCL\d{13}$/);
    // The carrier holds that label under the purchase's key, and the order is found by its number.
    const [shipment] = await app
      .em()
      .execute<{ tracking_numbers: string[]; state: string }[]>(
        'select tracking_numbers, state from sandbox_shipment where idempotency_key = ? and account_id = ?',
        [`lo-${bought.order_id}.1`, w.accounts[1]!.id],
      );
    assert.deepEqual(shipment, { tracking_numbers: [carrierNumber], state: 'created' });
    assert.equal((await storedRate(parcel.rate_id))!.used_by_order_id, bought.order_id);
    const detail = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { tracking_number: carrierNumber },
      { token: w.admin },
    );
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.equal(detail.body.order_id, bought.order_id);
    assert.equal(detail.body.tracking_number, bought.tracking_number);

    const again = await submit({ rate_id: parcel.rate_id, idempotency_key: 'gql-buy-1' });
    assert.equal(again.body.errors, undefined, JSON.stringify(again.body.errors));
    assert.equal(again.body.data.labelserviceSubmitOrder.replayed, true);
    assert.equal(again.body.data.labelserviceSubmitOrder.order_id, bought.order_id);
    const [shipments] = await app
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from sandbox_shipment where idempotency_key like ?', [
        `lo-${bought.order_id}.%`,
      ]);
    assert.equal(shipments!.n, 1, 'the replay bought nothing');
  });

  test("a refusal is a GraphQL error with the REST body's code, status and fields; the order is kept in 60", async () => {
    const rated = await rate(rateBody(`SBX-REFUSE-GQL-${Date.now()}`));
    const swift = rated.body.data.labelserviceRate.rates.find((r: any) => r.carrier === 'sandbox_swift');
    const res = await submit({ rate_id: swift.rate_id });
    assert.equal(res.body.data?.labelserviceSubmitOrder ?? null, null);
    assert.equal(res.body.errors?.length, 1, JSON.stringify(res.body));
    const [error] = res.body.errors;
    assert.equal(error.extensions.code, 'LABEL_PURCHASE_FAILED');
    assert.equal(error.extensions.status, 424);
    assert.equal(error.extensions.result, false);
    assert.deepEqual(error.path, ['labelserviceSubmitOrder']);
    assert.equal(typeof error.message, 'string');
    assert.ok(error.message.length > 0);
    assert.deepEqual(
      [error.extensions.carrier_error.carrier, error.extensions.carrier_error.code],
      ['sandbox_swift', 'ADDRESS_UNSERVICEABLE'],
    );
    assert.equal(error.extensions.carrier_error.retryable, false);
    const orderId = error.extensions.order_id;
    assert.equal(typeof orderId, 'number');
    const [order] = await app
      .em()
      .execute<{ status_id: number; tracking_number: string }[]>(
        'select status_id, tracking_number from delivery_order where id = ? and business_id = ?',
        [orderId, w.business.id],
      );
    assert.equal(order!.status_id, 60);
    assert.equal(error.extensions.tracking_number, order!.tracking_number);

    // Every carrier asked failing is CARRIER_ERROR (424) with each carrier's failure, as under REST.
    const none = await rate(rateBody('SBX-RATE-DOWN-GQL-2', { carriers: ['sandbox_parcel'] }));
    assert.equal(none.body.data?.labelserviceRate ?? null, null);
    const [rateError] = none.body.errors;
    assert.deepEqual([rateError.extensions.code, rateError.extensions.status], ['CARRIER_ERROR', 424]);
    assert.deepEqual(
      rateError.extensions.carrier_errors.map((e: any) => [e.carrier, e.code]),
      [['sandbox_parcel', 'SERVICE_UNAVAILABLE']],
    );
  });
});
