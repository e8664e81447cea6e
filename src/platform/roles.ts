export const ROLES = [
  'client_admin',
  'employee',
  'contractor',
  'driver',
  'customer',
  'platform_admin',
  'locker_provider',
  'delivery_provider',
] as const;
export type Role = (typeof ROLES)[number];

/** Roles that act for a business: they can read the business's orders. */
export const STAFF: readonly Role[] = ['client_admin', 'employee'];

/** Provider accounts: a partner locker provider or a third-party delivery provider, each in its own business. */
export const PROVIDERS: readonly Role[] = ['locker_provider', 'delivery_provider'];
