/**
 * The scheduled end of day's activity (docs/labels.md, "Schedule"): the end of day of one business, run as the
 * service (no caller), exactly as labelservice_end_of_day runs it for every carrier.
 */
import type { WorkerDeps } from '../../platform/module.ts';
import type { EndOfDayActivities } from './contract.ts';
import { runEndOfDay } from './operations/handover.ts';

export function createEndOfDayActivities(deps: WorkerDeps): EndOfDayActivities {
  return {
    async runLabelEndOfDay({ businessId }) {
      const log = deps.log.child({ businessId });
      const env = { em: deps.orm.em.fork(), config: deps.config, log, temporal: deps.temporal };
      const outcome = await runEndOfDay(env, businessId);
      for (const e of outcome.carrierErrors)
        log.warn(
          { carrier: e.carrier, code: e.code, message: e.message },
          'a scheduled end of day failed at a carrier',
        );
      return {
        manifestIds: outcome.manifests.map((m) => m.id),
        failures: outcome.carrierErrors.map((e) => `${e.carrier_account_id}:${e.code}`),
      };
    },
  };
}
