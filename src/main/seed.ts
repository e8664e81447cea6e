import type { Em } from '../platform/db/orm.ts';
import { seedDemoApps } from '../modules/apps/index.ts';
import { grantLockerPartner } from '../modules/locker-deliveries/index.ts';
import { compartmentsOf, Device, insertDevice } from '../modules/lockers/index.ts';
import { Business, User } from '../modules/identity/index.ts';
import { seedDriverProfile } from '../modules/drivers/index.ts';
import { connectSandboxCarriers } from '../modules/labels/index.ts';
import { seedDemoCustomerServices } from '../modules/customer-services/index.ts';
import { transfer } from '../modules/wallet/index.ts';
import { Order, ORDER_STATUS, recordOrderCreated, SYSTEM_ACTOR } from '../modules/orders/index.ts';
import { driverRouteOf, orderStops, putOrderOnRoute } from '../modules/routes/index.ts';
import type { Role } from '../platform/roles.ts';
import { hashPassword } from '../platform/secrets.ts';

export const DEMO_PASSWORD = 'demo-password';

export const DEMO_ACCOUNTS: {
  email: string;
  name: string;
  role: Role;
  business: 'demo' | 'other' | 'carrier' | 'lockers' | null;
}[] = [
  { email: 'admin@demo.example', name: 'Demo Admin', role: 'client_admin', business: 'demo' },
  { email: 'employee@demo.example', name: 'Demo Employee', role: 'employee', business: 'demo' },
  { email: 'broker@demo.example', name: 'Demo Broker', role: 'contractor', business: 'demo' },
  { email: 'broker2@demo.example', name: 'Demo Broker Two', role: 'contractor', business: 'demo' },
  { email: 'driver@demo.example', name: 'Demo Driver', role: 'driver', business: 'demo' },
  { email: 'customer@demo.example', name: 'Demo Customer', role: 'customer', business: 'demo' },
  { email: 'platform@demo.example', name: 'Platform Admin', role: 'platform_admin', business: null },
  { email: 'admin@other.example', name: 'Other Admin', role: 'client_admin', business: 'other' },
  { email: 'locker-provider@demo.example', name: 'Demo Locker Provider', role: 'locker_provider', business: 'lockers' },
  { email: 'carrier@demo.example', name: 'Demo Carrier', role: 'delivery_provider', business: 'carrier' },
  // Last, so that the accounts before it keep the ids the README shows.
  { email: 'driver2@demo.example', name: 'Demo Driver Two', role: 'driver', business: 'demo' },
];

const address = { line1: '1 Demo Street', city: 'Springfield', postal_code: '12345', country: 'US' };
/** Where the demo drivers start and end their day: Prague, where the reference's example addresses lie. */
export const DEMO_DEPOT = { lat: 50.0755, lng: 14.4378 };

/** Demo data, written only where missing, so running it again changes nothing. */
export async function seedDemo(em: Em): Promise<void> {
  await em.transactional(async (tx) => {
    const business = async (code: string, name: string, assignmentModuleEnabled: boolean) =>
      (await tx.findOne(Business, { code })) ??
      tx.create(Business, { code, name, timezone: 'UTC', assignmentModuleEnabled });
    const demo = await business('DEMO', 'Demo', true);
    const other = await business('OTHER', 'Other', false);
    const carrier = await business('DEMO-CARRIER', 'Demo Carrier', false);
    const lockers = await business('DEMO-LOCKERS', 'Demo Locker Provider', false);
    await tx.flush();

    const passwordHash = await hashPassword(DEMO_PASSWORD);
    for (const a of DEMO_ACCOUNTS) {
      if (await tx.count(User, { email: a.email })) continue;
      const businessId = a.business === null ? null : { demo, other, carrier, lockers }[a.business].id;
      tx.create(User, { email: a.email, name: a.name, role: a.role, businessId, passwordHash });
    }
    await tx.flush();
    // The demo drivers' records (docs/routes.md, Drivers): a van and a smaller car, both from one depot.
    const demoDrivers = [
      {
        email: 'driver@demo.example',
        vehicle: 'Van',
        weight: 800,
        volume: 6000,
        parcels: 120,
        skills: ['refrigerated'],
      },
      { email: 'driver2@demo.example', vehicle: 'Car', weight: 300, volume: 1500, parcels: 40, skills: [] },
    ];
    for (const d of demoDrivers) {
      const user = await tx.findOneOrFail(User, { email: d.email });
      await seedDriverProfile(tx, user.id, demo.id, {
        vehicle: d.vehicle,
        capacity_weight_kg: d.weight,
        capacity_volume_l: d.volume,
        capacity_parcels: d.parcels,
        skills: d.skills,
        shift_start: '07:00',
        shift_end: '19:00',
        breaks: [{ start: '11:30', end: '13:30', minutes: 30 }],
        depot_lat: DEMO_DEPOT.lat,
        depot_lng: DEMO_DEPOT.lng,
        max_route_minutes: 600,
      });
    }

    if (!(await tx.count(Device, { code: 'DEMO-LOCKER-1' }))) {
      const gridCodes = Array.from({ length: 24 }, (_, i) => `A${String(i + 1).padStart(2, '0')}`);
      await insertDevice(tx, {
        businessId: demo.id,
        code: 'DEMO-LOCKER-1',
        name: 'Demo Locker 1',
        compartments: compartmentsOf(gridCodes),
      });
    }
    if (!(await tx.count(Device, { code: 'DEMO-SANDBOX-1' }))) {
      // A simulated locker: partner deliveries into it are sandbox deliveries (docs/locker-deliveries.md, Sandbox).
      const compartments = [
        ...compartmentsOf(['S01', 'S02'], 'S', 1),
        ...compartmentsOf(['M01', 'M02', 'M03', 'M04'], 'M', 3),
        ...compartmentsOf(['L01', 'L02'], 'L', 7),
      ];
      await insertDevice(tx, {
        businessId: demo.id,
        code: 'DEMO-SANDBOX-1',
        name: 'Demo Sandbox Locker',
        sandbox: true,
        compartments,
      });
    }
    await grantLockerPartner(tx, demo.id, lockers.id);

    const today = new Date().toISOString().slice(0, 10);
    const orders: {
      ref: string;
      tracking: string;
      statusId: number;
      selfDelivery?: boolean;
      carrier?: boolean;
    }[] = [
      { ref: 'DEMO-NEW-1', tracking: 'TMSDEMO000001', statusId: ORDER_STATUS.NEW_ORDER },
      { ref: 'DEMO-NEW-2', tracking: 'TMSDEMO000002', statusId: ORDER_STATUS.NEW_ORDER },
      { ref: 'DEMO-NEW-3', tracking: 'TMSDEMO000003', statusId: ORDER_STATUS.AT_WAREHOUSE },
      { ref: 'DEMO-ON-ROUTE', tracking: 'TMSDEMO000004', statusId: ORDER_STATUS.NEW_ORDER },
      {
        ref: 'DEMO-THIRD-PARTY',
        tracking: 'TMSDEMO000005',
        statusId: ORDER_STATUS.NEW_ORDER,
        selfDelivery: false,
        carrier: true,
      },
      { ref: 'DEMO-DELIVERED', tracking: 'TMSDEMO000006', statusId: ORDER_STATUS.DELIVERED },
      { ref: 'DEMO-CARRIER-HELD', tracking: 'TMSDEMO000007', statusId: ORDER_STATUS.NEW_ORDER, carrier: true },
    ];
    const created: Order[] = [];
    for (const o of orders) {
      if (await tx.count(Order, { businessId: demo.id, orderRef: o.ref })) continue;
      created.push(
        tx.create(Order, {
          businessId: demo.id,
          type: 'D',
          orderRef: o.ref,
          trackingNumber: o.tracking,
          statusId: o.statusId,
          scheduledDate: today,
          recipient: { name: `Recipient of ${o.ref}`, phone: '+1 555 0100', email: null, address },
          note: null,
          selfDelivery: o.selfDelivery ?? true,
          carrierProviderId: o.carrier ? carrier.id : null,
          routeId: null,
        }),
      );
    }
    if (!(await tx.count(Order, { businessId: other.id, orderRef: 'OTHER-NEW-1' }))) {
      created.push(
        tx.create(Order, {
          businessId: other.id,
          type: 'D',
          orderRef: 'OTHER-NEW-1',
          trackingNumber: 'TMSOTHER00001',
          statusId: ORDER_STATUS.NEW_ORDER,
          scheduledDate: today,
          recipient: { name: 'Other recipient', address },
          note: null,
          selfDelivery: true,
          carrierProviderId: null,
          routeId: null,
        }),
      );
    }
    await tx.flush();
    for (const o of created) await recordOrderCreated(tx, o);
    // DEMO-ON-ROUTE is on the demo driver's route of today (a contractor's assignment of it is refused: on a route).
    // A database seeded before routes existed has it pointing at no route: it is put on a real one then.
    const onRoute = await tx.findOneOrFail(Order, { businessId: demo.id, orderRef: 'DEMO-ON-ROUTE' });
    if (!(await orderStops(tx, demo.id, onRoute.id))) {
      const driver = await tx.findOneOrFail(User, { email: 'driver@demo.example' });
      const route = await driverRouteOf(tx, demo.id, driver.id, onRoute.scheduledDate ?? today);
      await putOrderOnRoute(
        tx,
        route,
        { id: onRoute.id, businessId: demo.id, type: 'D', statusId: onRoute.statusId, pickupAt: null, deliverAt: null },
        SYSTEM_ACTOR,
      );
    }
    // The standalone apps of the demo business (docs/apps.md): the README shows their bootstraps.
    await seedDemoApps(tx, demo.id);
    // Both sandbox carriers with a default shipper (docs/labels.md): the demo business can rate labels at once.
    await connectSandboxCarriers(tx, demo.id);
    // Customer services (docs/customer-services.md): a warehouse, services to order, and the demo customer's wallet
    // topped up once, so customer@demo.example can order and pay at once.
    await seedDemoCustomerServices(tx, demo.id);
    const customer = await tx.findOneOrFail(User, { email: 'customer@demo.example' });
    await transfer(tx, {
      businessId: demo.id,
      key: 'top_up:demo-seed',
      currency: 'EUR',
      code: 'top_up',
      amount: 100_00n,
      debit: { kind: 'funding' },
      credit: { kind: 'wallet', customerId: customer.id },
      memo: 'demo seed',
    });
  });
}
