/**
 * Proof of delivery files (docs/routes.md, "Proof of delivery files"): photos and signatures the driver app uploads
 * for a stop, kept through a storage interface (DATA_DIR, or an S3-compatible store), downloaded through signed
 * expiring links, carried by tracking.event (proof_files) and sent as pod.files_updated when they change after it.
 */
import { loadConfig, type Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import { defineModule } from '../../platform/module.ts';
import type { ServiceStatus, ServiceType } from './domain.ts';
import { POD_FILE_ERRORS } from './errorCodes.ts';
import { POD_FILE_MESSAGES } from './messages.ts';
import { POD_FILE_OPERATIONS } from './operations.ts';
import { proofFileOf } from './present.ts';
import { linkStopFiles, lockOrderFiles } from './repo.ts';

export { fileStoreOf, LocalFileStore, S3FileStore, type FileStore, type S3Settings } from './storage/index.ts';

let fromEnv: Config | undefined;
const processConfig = (): Config => (fromEnv ??= loadConfig(process.env));

/** A proof file as tracking.event's proof_files and proof_files_detail carry it (the podFile of orders/events.ts). */
export interface ProofFile {
  file_id: number;
  type: string;
  url: string;
  full_url: string;
  tracking_event_id: number | null;
  tracking_event_status_id: number | null;
  tracking_event_key: string | null;
  service_type: 1 | 2 | null;
  service_status: 1 | 2 | null;
}

/**
 * In the caller's transaction: records the stop's event (so that a file uploaded after it is linked to it at once
 * and sent as pod.files_updated, added), links the order's files of that service not yet linked to an event to
 * this event, and answers them (current versions, signed) for tracking.event's proof_files / proof_files_detail.
 * Files linked to an earlier event of the stop stay with it. `config` signs the links (PUBLIC_BASE_URL, the TTL):
 * pass the caller's (an activity's) where it has it; the process's environment otherwise.
 */
export async function attachProofFiles(
  em: Em,
  input: {
    businessId: number;
    orderId: number;
    serviceType: ServiceType;
    serviceStatus: ServiceStatus;
    trackingEventId: number | null;
    trackingEventStatusId: number | null;
    trackingEventKey: string | null;
  },
  config: Config = processConfig(),
): Promise<ProofFile[]> {
  await lockOrderFiles(em, input.orderId);
  const rows = await linkStopFiles(em, {
    businessId: input.businessId,
    orderId: input.orderId,
    serviceType: input.serviceType,
    event: {
      serviceStatus: input.serviceStatus,
      trackingEventId: input.trackingEventId,
      trackingEventStatusId: input.trackingEventStatusId,
      trackingEventKey: input.trackingEventKey,
    },
  });
  return rows.sort((a, b) => a.id - b.id).map((row) => proofFileOf(row, config));
}

export const podFiles = defineModule({
  name: 'pod-files',
  tags: {
    'Proof of delivery':
      "Photos and signatures proving a pickup or delivery: the driver app uploads them, staff read, replace or remove them, and anyone holding a file's signed link downloads it until the link expires. They reach receivers in tracking.event (proof_files) and as pod.files_updated.",
  },
  operations: POD_FILE_OPERATIONS,
  messages: POD_FILE_MESSAGES,
  errorCodes: POD_FILE_ERRORS,
});
