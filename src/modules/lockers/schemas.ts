import { z } from 'zod';

/** A locker named by its device code, as the locker itself and the business know it. */
export const deviceCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ examples: ['DEMO-LOCKER-1'] });
