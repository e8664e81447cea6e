/** What leaves the service of a proof file: its links are signed here, nowhere else. */
import type { Config } from '../../platform/config.ts';
import type { FileRow, VersionRow } from './repo.ts';
import { fileLinks } from './signing.ts';
import type { PodFileView, ProofFileView } from './views.ts';

const linkBase = (config: Config) => ({ publicBaseUrl: config.publicBaseUrl, ttlHours: config.podFiles.urlTtlHours });

/** The file as tracking.event and pod.files_updated carry it: the current version's links only. */
export function proofFileOf(row: FileRow, config: Config): ProofFileView {
  return {
    file_id: row.id,
    type: row.type,
    ...fileLinks(linkBase(config), row.id, row.current_version_id),
    tracking_event_id: row.tracking_event_id,
    tracking_event_status_id: row.tracking_event_status_id,
    tracking_event_key: row.tracking_event_key,
    service_type: row.service_type,
    service_status: row.service_status,
  };
}

/** The file as staff read it, with every version, each with a link pinned to it. */
export function podFileOf(row: FileRow, versions: readonly VersionRow[], config: Config): PodFileView {
  return {
    ...proofFileOf(row, config),
    uploaded_by: row.uploaded_by,
    created_at: new Date(row.created_at).toISOString(),
    versions: versions.map((v) => ({
      version_id: v.id,
      content_type: v.content_type,
      size_bytes: v.size_bytes,
      sha256: v.sha256,
      created_by: v.created_by,
      created_at: new Date(v.created_at).toISOString(),
      current: v.id === row.current_version_id,
      full_url: fileLinks(linkBase(config), row.id, v.id, { pinVersion: true }).full_url,
    })),
  };
}
