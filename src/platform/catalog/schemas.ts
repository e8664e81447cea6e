import { z } from 'zod';

/** Query strings arrive as text and GraphQL as numbers: coerce both, reject anything that is not a whole number. */
export const intParam = () => z.coerce.number<unknown>().int().min(1).max(2_147_483_647);
export const pageParams = {
  page: intParam().default(1),
  per_page: z.coerce.number<unknown>().int().min(1).max(200).default(50),
};
export const pathId = intParam();

export const okResult = z.object({ result: z.literal(true) });
