import { Migration } from '@mikro-orm/migrations';

/**
 * The W3C `traceparent` of the span that wrote an event (null with tracing off), so that the relay's first POST and
 * every retry continue the trace of the request or workflow that caused the event (docs/observability.md).
 * Nullable without a default: added without rewriting the table.
 */
export class Migration20261124020000OutboxTraceParent extends Migration {
  override up(): void {
    this.addSql('alter table outbox_event add column trace_parent text;');
  }
}
