/**
 * The entry of the workflow bundle: every module's workflows.ts, deterministic code only. A module with
 * workflows adds one line here; a test checks that it exports every workflow type the modules declare.
 */
export * from './device-orders/workflows.ts';
export * from './locker-deliveries/workflows.ts';
export * from './webhooks/workflows.ts';
export * from './secrets/workflows.ts';
export * from './abuse-limits/workflows.ts';
export * from './distribution/workflows.ts';
export * from './third-party-deliveries/workflows.ts';
export * from './approvals/workflows.ts';
