import { Migration } from '@mikro-orm/migrations';

/**
 * Dispatch fixes (docs/routes.md, "Dispatch: operations and decisions").
 *
 * - route_stop.released_at: an order's finished stops kept on a route it left after a failed attempt (routes'
 *   releaseFinishedOrder). Released stops are history: a second attempt on the same route gets new stops, and the
 *   order's stops (orderStops), taking it off the route and the judging of reports leave the released ones out.
 * - dispatch_report.report_id: the id the route's process gives each report it applies, so a retried activity
 *   recognises its own row (applied) apart from another report of the same step (repeated).
 */
export class Migration20261202060000DispatchFixes extends Migration {
  override up(): void {
    this.addSql(`
      alter table route_stop add column released_at timestamptz;
      alter table dispatch_report add column report_id text;
    `);
  }
}
