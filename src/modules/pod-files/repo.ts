/** Proof of delivery files: SQL only, with typed rows (docs/routes.md, "Proof of delivery files"). */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import {
  appendOrderTrail,
  carrierHeld,
  ORDER_OPERATION,
  orderSummaryOf,
  type OrderActor,
  type OrderFacts,
} from '../orders/index.ts';
import type { ImageType, PodFileType, ServiceStatus, ServiceType } from './domain.ts';
import type { ProofFileView } from './views.ts';

/** A file with its stop's event and its current version. Event ids are bigint, read as numbers (below 2^53). */
export interface FileRow {
  id: number;
  business_id: number;
  order_id: number;
  type: PodFileType;
  service_type: ServiceType;
  service_status: ServiceStatus | null;
  tracking_event_id: number | null;
  tracking_event_status_id: number | null;
  tracking_event_key: string | null;
  current_version_id: number;
  uploaded_by: number | null;
  created_at: Date;
  events_sent: number;
}

export interface VersionRow {
  id: number;
  file_id: number;
  storage_key: string;
  content_type: ImageType;
  size_bytes: number;
  sha256: string;
  created_by: number | null;
  created_at: Date;
}

const FILE_COLUMNS = `f.id, f.business_id, f.order_id, f.type, f.service_type, f.service_status,
  f.tracking_event_id::float8 as tracking_event_id, f.tracking_event_status_id, f.tracking_event_key,
  f.current_version_id, f.uploaded_by, f.created_at, f.events_sent`;

/** What a stop's event says of its files: the event, and whether the stop succeeded. */
export interface StopEvent {
  serviceStatus: ServiceStatus;
  trackingEventId: number | null;
  trackingEventStatusId: number | null;
  trackingEventKey: string | null;
}

/**
 * Orders the order's file writes against its stops' events: an upload and the event that takes the order's unlinked
 * files cannot pass each other, so a file is either in the event or sent as added, never neither.
 */
export async function lockOrderFiles(tx: Em, orderId: number): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('pod-file'), ?)`, [orderId]);
}

/** The newest delivered or picked-up event of the order's stop, if recorded. */
export async function stopEventOf(tx: Em, orderId: number, serviceType: ServiceType): Promise<StopEvent | null> {
  const [row] = await tx.execute<StopEvent[]>(
    `select service_status as "serviceStatus", tracking_event_id::float8 as "trackingEventId",
       tracking_event_status_id as "trackingEventStatusId", tracking_event_key as "trackingEventKey"
     from pod_stop_event where order_id = ? and service_type = ?`,
    [orderId, serviceType],
  );
  return row ?? null;
}

export interface NewFile {
  businessId: number;
  orderId: number;
  type: PodFileType;
  serviceType: ServiceType;
  event: StopEvent | null;
  uploadedBy: number;
}

export interface NewVersion {
  storageKey: string;
  contentType: ImageType;
  sizeBytes: number;
  sha256: string;
  createdBy: number;
}

/** A new file with its first version, current; linked to the stop's event when one is recorded. */
export async function insertFile(tx: Em, file: NewFile, version: NewVersion): Promise<FileRow> {
  const e = file.event;
  const [{ id }] = (await tx.execute<{ id: number }[]>(
    `insert into pod_file (business_id, order_id, type, service_type, service_status, tracking_event_id,
       tracking_event_status_id, tracking_event_key, uploaded_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    [
      file.businessId,
      file.orderId,
      file.type,
      file.serviceType,
      e?.serviceStatus ?? null,
      e?.trackingEventId ?? null,
      e?.trackingEventStatusId ?? null,
      e?.trackingEventKey ?? null,
      file.uploadedBy,
    ],
  )) as [{ id: number }];
  await addVersion(tx, id, version);
  return (await fileOf(tx, file.businessId, file.orderId, id))!;
}

/** Adds a version to the file and makes it current; answers its id. */
export async function addVersion(tx: Em, fileId: number, v: NewVersion): Promise<number> {
  const [{ id }] = (await tx.execute<{ id: number }[]>(
    `insert into pod_file_version (file_id, storage_key, content_type, size_bytes, sha256, created_by)
     values (?, ?, ?, ?, ?, ?) returning id`,
    [fileId, v.storageKey, v.contentType, v.sizeBytes, v.sha256, v.createdBy],
  )) as [{ id: number }];
  await setCurrentVersion(tx, fileId, id);
  return id;
}

export async function setCurrentVersion(tx: Em, fileId: number, versionId: number): Promise<void> {
  await tx.execute('update pod_file set current_version_id = ? where id = ?', [versionId, fileId]);
}

/** The order's file (not removed), of the business; locked for the change when `lock`. */
export async function fileOf(
  em: Em,
  businessId: number,
  orderId: number,
  fileId: number,
  opts: { lock?: boolean } = {},
): Promise<FileRow | null> {
  const [row] = await em.execute<FileRow[]>(
    `select ${FILE_COLUMNS} from pod_file f
     where f.id = ? and f.order_id = ? and f.business_id = ? and f.removed_at is null${opts.lock ? ' for update' : ''}`,
    [fileId, orderId, businessId],
  );
  return row ?? null;
}

/** A version of the file, or null. */
export async function versionOf(em: Em, fileId: number, versionId: number): Promise<VersionRow | null> {
  const [row] = await em.execute<VersionRow[]>(
    `select id, file_id, storage_key, content_type, size_bytes, sha256, created_by, created_at
     from pod_file_version where id = ? and file_id = ?`,
    [versionId, fileId],
  );
  return row ?? null;
}

/** One page of the order's files (not removed), oldest first, with the total. */
export async function filesOfOrder(
  em: Em,
  businessId: number,
  orderId: number,
  page: { offset: number; limit: number },
): Promise<{ total: number; files: FileRow[]; versions: VersionRow[] }> {
  const [{ total }] = (await em.execute<{ total: number }[]>(
    'select count(*)::int as total from pod_file where order_id = ? and business_id = ? and removed_at is null',
    [orderId, businessId],
  )) as [{ total: number }];
  const files = await em.execute<FileRow[]>(
    `select ${FILE_COLUMNS} from pod_file f
     where f.order_id = ? and f.business_id = ? and f.removed_at is null order by f.id limit ? offset ?`,
    [orderId, businessId, page.limit, page.offset],
  );
  return {
    total,
    files,
    versions: await versionsOf(
      em,
      files.map((f) => f.id),
    ),
  };
}

/** Every version of the files, oldest first. */
export async function versionsOf(em: Em, fileIds: readonly number[]): Promise<VersionRow[]> {
  if (fileIds.length === 0) return [];
  return executeBound<VersionRow>(
    em,
    `select id, file_id, storage_key, content_type, size_bytes, sha256, created_by, created_at
     from pod_file_version where file_id = any($1::int[]) order by file_id, id`,
    [fileIds],
  );
}

export async function markRemoved(tx: Em, fileId: number): Promise<void> {
  await tx.execute('update pod_file set removed_at = now() where id = ?', [fileId]);
}

/** What the signed download reads: the file, still there, and the asked or current version's bytes' place. */
export async function contentOf(
  em: Em,
  fileId: number,
  versionId: number | null,
): Promise<{ version_id: number; current_version_id: number; storage_key: string; content_type: ImageType } | null> {
  const [row] = await em.execute<
    { version_id: number; current_version_id: number; storage_key: string; content_type: ImageType }[]
  >(
    `select v.id as version_id, f.current_version_id, v.storage_key, v.content_type
     from pod_file f join pod_file_version v on v.file_id = f.id and v.id = coalesce(?, f.current_version_id)
     where f.id = ? and f.removed_at is null`,
    [versionId, fileId],
  );
  return row ?? null;
}

/**
 * Records the stop's event (the newest of the stop replaces an older one) and links the order's files of that stop
 * not yet linked to an event to it; answers every file of the stop linked to this event.
 */
export async function linkStopFiles(
  tx: Em,
  input: { businessId: number; orderId: number; serviceType: ServiceType; event: StopEvent },
): Promise<FileRow[]> {
  const { businessId, orderId, serviceType, event: e } = input;
  await tx.execute(
    `insert into pod_stop_event (order_id, service_type, business_id, service_status, tracking_event_id,
       tracking_event_status_id, tracking_event_key)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (order_id, service_type) do update set service_status = excluded.service_status,
       tracking_event_id = excluded.tracking_event_id, tracking_event_status_id = excluded.tracking_event_status_id,
       tracking_event_key = excluded.tracking_event_key, recorded_at = now()`,
    [orderId, serviceType, businessId, e.serviceStatus, e.trackingEventId, e.trackingEventStatusId, e.trackingEventKey],
  );
  return tx.execute<FileRow[]>(
    `update pod_file f set service_status = ?, tracking_event_id = ?, tracking_event_status_id = ?, tracking_event_key = ?
     where f.order_id = ? and f.business_id = ? and f.service_type = ? and f.removed_at is null
       and f.tracking_event_id is null and f.tracking_event_key is null and f.service_status is null
     returning ${FILE_COLUMNS}`,
    [e.serviceStatus, e.trackingEventId, e.trackingEventStatusId, e.trackingEventKey, orderId, businessId, serviceType],
  );
}

/** An order as the event and the trail need it. */
export type EventOrder = OrderFacts & { customerId: number | null };

/**
 * Sends pod.files_updated for one file (its own event id, PFU-<file id>.<n>) and writes the audit trail row, in the
 * change's transaction.
 */
export async function recordFileChange(
  tx: Em,
  change: {
    order: EventOrder;
    action: 'added' | 'updated' | 'removed' | 'uploaded';
    file: ProofFileView;
    actor: OrderActor;
    versionId: number;
    send: boolean;
  },
): Promise<void> {
  const { order: o, file } = change;
  const occurredAt = new Date();
  await appendOrderTrail(tx, [
    {
      orderId: o.id,
      businessId: o.businessId,
      operationType: ORDER_OPERATION.POD_FILE_CHANGED,
      actor: change.actor,
      details: {
        action: change.action,
        file_id: file.file_id,
        version_id: change.versionId,
        type: file.type,
        service_type: file.service_type,
      },
      occurredAt,
    },
  ]);
  if (!change.send) return;
  const [{ n }] = (await tx.execute<{ n: number }[]>(
    'update pod_file set events_sent = events_sent + 1 where id = ? returning events_sent as n',
    [file.file_id],
  )) as [{ n: number }];
  const eventId = `PFU-${file.file_id}.${n}`;
  await insertOutboxEvents(tx, [
    {
      businessId: o.businessId,
      customerId: o.customerId,
      eventId,
      eventType: 'pod.files_updated',
      referenceType: 'order',
      referenceId: String(o.id),
      carrierHeld: carrierHeld(o),
      payload: {
        event_id: eventId,
        event: 'pod.files_updated',
        business_id: o.businessId,
        occurred_at: occurredAt.toISOString(),
        data: { order: orderSummaryOf(o), action: change.action, file },
      },
    },
  ]);
}
