import { randomUUID } from 'node:crypto';
import { compartmentsOf, insertCompartments, insertDevice } from '../../src/modules/lockers/index.ts';
import { Business, User } from '../../src/modules/identity/index.ts';
import { Order } from '../../src/modules/orders/index.ts';
import { recordOrderCreated } from '../../src/modules/orders/repo/placement.ts';
import type { Em } from '../../src/platform/db/orm.ts';
import { ORDER_STATUS } from '../../src/modules/orders/domain.ts';
import type { Role } from '../../src/platform/roles.ts';
import { hashPassword } from '../../src/platform/secrets.ts';
import { newTrackingNumber } from '../../src/modules/orders/domain.ts';
import { upsertWebhookSettings } from '../../src/modules/webhooks/repo/settings.ts';

export const PASSWORD = 'test-password-1';
let passwordHash: string | undefined;

/** A fresh platform admin account (it belongs to no business); answers its email, whose password is PASSWORD. */
export async function makePlatformAdmin(em: Em): Promise<string> {
  const email = `platform-${randomUUID().slice(0, 8)}@test.example`;
  passwordHash ??= await hashPassword(PASSWORD);
  em.create(User, { businessId: null, email, name: 'Platform', role: 'platform_admin', passwordHash });
  await em.flush();
  return email;
}

/** A fresh business with one account per role, so tests never share rows. */
export async function makeBusiness(em: Em, opts: { assignmentModule?: boolean } = {}) {
  const tag = randomUUID().slice(0, 8);
  passwordHash ??= await hashPassword(PASSWORD);
  const business = em.create(Business, {
    code: `T-${tag}`,
    name: `Test ${tag}`,
    timezone: 'UTC',
    assignmentModuleEnabled: opts.assignmentModule ?? true,
  });
  await em.flush();
  const user = (role: Role, n = '') =>
    em.create(User, {
      businessId: business.id,
      email: `${role}${n}-${tag}@test.example`,
      name: `${role}${n} ${tag}`,
      role,
      passwordHash: passwordHash!,
    });
  const users = {
    admin: user('client_admin'),
    employee: user('employee'),
    broker: user('contractor'),
    broker2: user('contractor', '2'),
    driver: user('driver'),
    customer: user('customer'),
  };
  await em.flush();
  const device = await insertDevice(em, {
    businessId: business.id,
    code: `LOCKER-${tag}`,
    name: `Locker ${tag}`,
    compartments: compartmentsOf(['A01', 'A02', 'A03', 'A04']),
  });
  return { business, users, device, tag };
}

/** Adds compartments with these grid codes after the device's last door. */
export async function addCompartments(em: Em, deviceId: number, gridCodes: readonly string[]): Promise<void> {
  const [{ last }] = (await em.execute<{ last: number }[]>(
    'select coalesce(max(compartment_number), 0)::int as last from compartment where device_id = ?',
    [deviceId],
  )) as [{ last: number }];
  await insertCompartments(em, deviceId, compartmentsOf(gridCodes, 'M', last + 1));
}

/**
 * Gives a business webhook settings without any URL: its events are then written to the outbox, where a test
 * reads them, and go nowhere (without a receiver they are not written at all).
 */
export async function keepEvents(em: Em, businessId: number): Promise<void> {
  await upsertWebhookSettings(em, businessId, null, {});
}

/** A provider account in its own business (a partner locker provider or a third-party delivery provider). */
export async function makeProvider(em: Em, role: 'locker_provider' | 'delivery_provider') {
  const tag = randomUUID().slice(0, 8);
  passwordHash ??= await hashPassword(PASSWORD);
  const business = em.create(Business, {
    code: `P-${tag}`,
    name: `Provider ${tag}`,
    timezone: 'UTC',
    assignmentModuleEnabled: false,
  });
  await em.flush();
  const user = em.create(User, {
    businessId: business.id,
    email: `${role}-${tag}@test.example`,
    name: `${role} ${tag}`,
    role,
    passwordHash,
  });
  await em.flush();
  return { business, user };
}

export async function makeOrder(
  em: Em,
  businessId: number,
  over: Partial<{
    statusId: number;
    routeId: number | null;
    selfDelivery: boolean;
    carrierProviderId: number | null;
    orderRef: string;
    driverId: number | null;
    customerId: number | null;
  }> = {},
) {
  const order = em.create(Order, {
    businessId,
    type: 'D',
    orderRef: over.orderRef ?? `REF-${randomUUID().slice(0, 8)}`,
    trackingNumber: newTrackingNumber(),
    statusId: over.statusId ?? ORDER_STATUS.NEW_ORDER,
    scheduledDate: '2026-12-01',
    recipient: {
      name: 'Ada Recipient',
      address: { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' },
    },
    note: null,
    selfDelivery: over.selfDelivery ?? true,
    carrierProviderId: over.carrierProviderId ?? null,
    routeId: over.routeId ?? null,
    driverId: over.driverId ?? null,
    customerId: over.customerId ?? null,
  });
  await em.flush();
  await recordOrderCreated(em, order);
  return order;
}

/** The arguments of a valid create_order call (an MCP tool or `POST /v1/client/orderCreate`) with this reference. */
export const orderArguments = (ref: string) => ({
  type: 'D',
  scheduled_date: '2026-12-24',
  order_ref: ref,
  recipient: {
    name: 'Ada Lovelace',
    phone: '+44 20 7946 0000',
    address: { line1: '12 St James Sq', city: 'London', postal_code: 'SW1Y 4JH', country: 'gb' },
  },
});

/** A local delivery price model of every component (PUT /v1/client/delivery-price-model), its depot at `origin`. */
export const priceModel = (origin: { lat: number; lng: number }) => ({
  currency: 'EUR',
  base_fee: '4.90',
  per_km: '0.85',
  per_kg: '0.50',
  included_weight_kg: '5',
  p2p_surcharge: '2.00',
  time_window_surcharge: '3.00',
  extra_package_surcharge: '1.00',
  tax_rate: '20',
  origin,
});
