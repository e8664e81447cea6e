import type { Orm } from '../../platform/db/orm.ts';
import { pruneLimitRows } from '../../platform/db/rateLimits.ts';
import type { AbuseLimitActivities } from './contract.ts';

export function createAbuseLimitActivities(deps: { orm: Orm }): AbuseLimitActivities {
  return {
    pruneLimitRows: () => pruneLimitRows(deps.orm.em.fork()),
  };
}
