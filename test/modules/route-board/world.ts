/**
 * A business whose route board events go to a real receiver, with contractors and drivers, and routes written the
 * way route planning writes them (one placeholder driver per route, planned for the day).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { User } from '../../../src/modules/identity/index.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import type { TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';

export const BOARD_DATE = '2026-12-10';

/** A new account of the business with this role. */
export async function addUser(app: TestApp, businessId: number, role: 'driver' | 'contractor') {
  const em = app.em();
  const user = em.create(User, {
    businessId,
    email: `${role}-${randomUUID().slice(0, 8)}@test.example`,
    name: `${role} extra`,
    role,
    passwordHash: await hashPassword(PASSWORD),
  });
  await em.flush();
  return user;
}

/** Routes of the day, each planned for a driver of its own, each with one order on it. */
export async function makeRoutes(app: TestApp, businessId: number, n: number, date = BOARD_DATE) {
  const routes: { id: number; driverId: number; orderId: number }[] = [];
  for (let i = 0; i < n; i++) {
    const driver = await addUser(app, businessId, 'driver');
    const [row] = await app
      .em()
      .execute<{ id: number }[]>(
        "insert into route (business_id, driver_id, route_date, status) values (?, ?, ?, 'planned') returning id",
        [businessId, driver.id, date],
      );
    const order = await makeOrder(app.em(), businessId, { routeId: row!.id, driverId: driver.id });
    await app
      .em()
      .execute("insert into route_stop (route_id, business_id, seq, kind, order_id) values (?, ?, 1, 'delivery', ?)", [
        row!.id,
        businessId,
        order.id,
      ]);
    routes.push({ id: row!.id, driverId: driver.id, orderId: order.id });
  }
  return routes;
}

export async function boardWorld(app: TestApp, receiverUrl: string, secret: string) {
  const b = await makeBusiness(app.em());
  const admin = await app.login(b.users.admin.email, PASSWORD);
  const put = await app.http.put(
    '/v1/webhook-settings',
    { webhook_sign_secret: secret, route_board_webhook_url: `${receiverUrl}/merchant-${b.business.id}` },
    { token: admin },
  );
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return {
    b,
    admin,
    broker: await app.login(b.users.broker.email, PASSWORD),
    broker2: await app.login(b.users.broker2.email, PASSWORD),
    employee: await app.login(b.users.employee.email, PASSWORD),
    merchantPath: `/merchant-${b.business.id}`,
  };
}
