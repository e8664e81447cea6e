import { z } from 'zod';
import { POD_FILE_TYPES } from './domain.ts';

/**
 * A proof file as tracking.event's proof_files and pod.files_updated carry it (the podFile of orders/events.ts): its
 * current version's links and its stop's event, null until one is recorded.
 */
export const proofFileView = z.object({
  file_id: z.number().int(),
  type: z.enum(POD_FILE_TYPES),
  url: z.string().describe("The file's path; fetch it through full_url"),
  full_url: z
    .string()
    .describe('Signed download URL of the current version: no token needed, expires (POD_FILE_URL_TTL_HOURS)'),
  tracking_event_id: z.number().int().nullable(),
  tracking_event_status_id: z.number().int().nullable(),
  tracking_event_key: z.string().nullable(),
  service_type: z
    .union([z.literal(1), z.literal(2)])
    .nullable()
    .describe('1 delivery, 2 pickup'),
  service_status: z
    .union([z.literal(1), z.literal(2)])
    .nullable()
    .describe('1 success, 2 failed; null before the event'),
});
export type ProofFileView = z.infer<typeof proofFileView>;

export const versionView = z.object({
  version_id: z.number().int(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  current: z.boolean(),
  full_url: z.string().describe('Signed download URL of this version'),
});

/** A file as staff read it: the proof file, when and by whom it was uploaded, and every version, the current marked. */
export const podFileView = proofFileView.extend({
  uploaded_by: z.number().int().nullable(),
  created_at: z.string(),
  versions: z.array(versionView),
});
export type PodFileView = z.infer<typeof podFileView>;
