/** The demo apps (`npm start` seeds them, bound to the demo business DEMO); the reference's examples show the first. */
import type { Em } from '../../platform/db/orm.ts';
import { appByCode, bindClient, saveApp } from './repo/apps.ts';
import type { AppConfig } from './views.ts';

const policy = (minimum: string, recommended: string, store: string) => ({
  minimum_version: minimum,
  recommended_version: recommended,
  below_minimum: 'block' as const,
  below_recommended: 'suggest_update' as const,
  store_url: store,
});

const contracts = [
  {
    code: 'terms',
    title: 'Terms of service',
    version: '2.1.0',
    url: 'https://tms.example/legal/terms',
    acceptance_required: true,
  },
  {
    code: 'privacy',
    title: 'Privacy notice',
    version: '1.3.0',
    url: 'https://tms.example/legal/privacy',
    acceptance_required: false,
  },
];

export const DEMO_APPS: readonly ({ code: string } & AppConfig)[] = [
  {
    code: 'demo-customer',
    name: 'Demo Customer',
    type: 'customer',
    schema_version: 1,
    capabilities: {
      'orders.send': true,
      'orders.return': true,
      'lockers.pickup': true,
      'orders.handover': false,
      'wallet.view': true,
      'payments.pay': false,
    },
    quick_actions: ['send', 'lockers', 'return', 'pay', 'wallet'],
    authentication: {
      methods: { idp: true, email: true, registration: true },
      idp: { server_client_id: 'demo-customer-server.apps.example' },
      registration: {
        enabled: true,
        phone_verification_required: true,
        // npm start runs the SMS sandbox; without a provider the bootstrap says false (docs/apps.md, Registration).
        sms_configured: true,
        default_phone_region: 'CZ',
        requires_approval: false,
        code_length: 6,
        resend_after: 60,
      },
    },
    services: {
      identity: { source_of_truth: 'platform', shared_with_web: true },
      wallet: { source_of_truth: 'platform', ledger_mode: 'internal' },
    },
    branding: {
      display_name: 'Demo Parcels',
      primary_color: '#0B5FFF',
      secondary_color: '#FFB800',
      logo_url: 'https://tms.example/brand/demo-customer.png',
      support_url: 'https://tms.example/support',
    },
    service_contracts: contracts,
    version_policy: {
      ios: policy('1.2.0', '1.4.0', 'https://apps.apple.com/app/id0000000001'),
      android: policy('1.2.0', '1.4.0', 'https://play.google.com/store/apps/details?id=example.demo.customer'),
    },
  },
  {
    code: 'demo-driver',
    name: 'Demo Driver',
    type: 'driver',
    schema_version: 1,
    capabilities: { 'orders.handover': true, 'lockers.pickup': true },
    quick_actions: ['handover', 'lockers'],
    authentication: {
      methods: { idp: false, email: true, registration: false },
      idp: { server_client_id: '' },
      registration: {
        enabled: false,
        phone_verification_required: false,
        sms_configured: false,
        default_phone_region: 'CZ',
        requires_approval: true,
        code_length: 6,
        resend_after: 60,
      },
    },
    services: {
      identity: { source_of_truth: 'platform', shared_with_web: true },
      wallet: { source_of_truth: 'none', ledger_mode: 'none' },
    },
    branding: {
      display_name: 'Demo Driver',
      primary_color: '#1F2937',
      secondary_color: null,
      logo_url: null,
      support_url: 'https://tms.example/support/drivers',
    },
    service_contracts: contracts.slice(0, 1),
    version_policy: {
      ios: policy('2.0.0', '2.0.0', 'https://apps.apple.com/app/id0000000002'),
      android: policy('2.0.0', '2.1.0', 'https://play.google.com/store/apps/details?id=example.demo.driver'),
    },
  },
];

/** Creates the demo apps bound to the demo business, leaving any that exist as they are (the seed runs at every start). */
export async function seedDemoApps(em: Em, demoBusinessId: number): Promise<void> {
  for (const { code, ...config } of DEMO_APPS) {
    if (await appByCode(em, code)) continue;
    await saveApp(em, code, config);
    await bindClient(em, (await appByCode(em, code))!.id, demoBusinessId, true);
  }
}
