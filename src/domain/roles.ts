export const ROLES = ['client_admin', 'employee', 'contractor', 'driver', 'customer', 'platform_admin'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that act for a business: they can read the business's orders. */
export const STAFF: readonly Role[] = ['client_admin', 'employee'];
