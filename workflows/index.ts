/**
 * The entry of the workflow bundle: every module's workflows.ts, deterministic code only. A module with
 * workflows adds one line here; a test checks that it exports every workflow type the modules declare.
 */
export * from '../src/modules/device-orders/workflows.ts';
export * from '../src/modules/locker-deliveries/workflows.ts';
export * from '../src/modules/webhooks/workflows.ts';
export * from '../src/modules/secrets/workflows.ts';
export * from '../src/modules/abuse-limits/workflows.ts';
export * from '../src/modules/distribution/workflows.ts';
export * from '../src/modules/third-party-deliveries/workflows.ts';
export * from '../src/modules/approvals/workflows.ts';
export * from '../src/modules/apps/workflows.ts';
export * from '../src/modules/sms-marketing/workflows.ts';
export * from '../src/modules/order-interception/workflows.ts';
export * from '../src/modules/order-batches/workflows.ts';
export * from '../src/modules/order-cancellation/workflows.ts';
export * from '../src/modules/dispatch/workflows.ts';
export * from '../src/modules/route-board/workflows.ts';
export * from '../src/modules/routes/workflows.ts';
export * from '../src/modules/labels/workflows.ts';
export * from '../src/modules/uniorder/workflows.ts';
export * from '../src/modules/shipping-orders/workflows.ts';
export * from '../src/modules/shipouts/workflows.ts';
export * from '../src/modules/storage/workflows.ts';
