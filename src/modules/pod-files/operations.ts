/**
 * Proof of delivery files (docs/routes.md): the driver's upload, the staff's reads and changes, and the signed
 * download. REST only: the uploads' bodies are the image files, and the download answers one.
 */
import { z } from 'zod';
import { defineOperation, type BusinessContext } from '../../platform/catalog/types.ts';
import {
  intParam,
  offsetOf,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
  rawAnswer,
} from '../../platform/catalog/schemas.ts';
import { errors } from '../../platform/errors.ts';
import { actorOf, visibleOrder } from '../orders/index.ts';
import { IMAGE_TYPES, MAX_FILE_BYTES, POD_FILE_TYPES, type ServiceType } from './domain.ts';
import { fail } from './errorCodes.ts';
import { readImage, keepBytes, withKeptBytes } from './files.ts';
import { podFileOf, proofFileOf } from './present.ts';
import {
  addVersion,
  contentOf,
  fileOf,
  filesOfOrder,
  insertFile,
  lockOrderFiles,
  markRemoved,
  recordFileChange,
  setCurrentVersion,
  stopEventOf,
  versionOf,
  versionsOf,
  type EventOrder,
} from './repo.ts';
import { verifyFile } from './signing.ts';
import { fileStoreOf } from './storage/index.ts';
import { podFileView } from './views.ts';

const TAG = 'Proof of delivery';
const STAFF = ['client_admin', 'employee'] as const;

const rawImage = (what: string) => ({
  mediaTypes: IMAGE_TYPES,
  limit: MAX_FILE_BYTES,
  description: `${what}: the image file itself (JPEG, PNG or WebP; a signature PNG or WebP), at most 10 MiB.`,
});

const NOT_IMAGE = {
  UNSUPPORTED_MEDIA_TYPE: 'The body is not image/jpeg, image/png or image/webp; a signature is image/png or image/webp',
  POD_FILE_EMPTY: true,
  POD_FILE_NOT_IMAGE: true,
} as const;

/** The business's order as staff see it, or 404 (another business's order too). */
async function staffOrder(ctx: BusinessContext, orderId: number): Promise<EventOrder> {
  const { businessId, id: userId, role } = ctx.caller;
  const order = await visibleOrder(ctx.em, { businessId, userId, role }, orderId);
  if (!order) throw errors.notFound();
  return order;
}

const fileAnswer = z.object({ result: z.literal(true), file: podFileView });

/** The file as staff read it after a change: its versions, the current marked. */
async function fileAnswerOf(ctx: BusinessContext, orderId: number, fileId: number) {
  const row = await fileOf(ctx.em, ctx.caller.businessId, orderId, fileId);
  if (!row) throw errors.notFound();
  return { result: true as const, file: podFileOf(row, await versionsOf(ctx.em, [fileId]), ctx.config) };
}

export const podFileUpload = defineOperation({
  name: 'pod_file_upload',
  summary: 'The driver uploads a photo or signature proving a pickup or delivery.',
  description:
    "The driver the order is assigned to sends the image as the request body (Content-Type image/jpeg, image/png or image/webp; a signature PNG or WebP), at most 10 MiB, naming its kind (`type`) and the stop it proves (`service_type`: 1 delivery, 2 pickup). A file uploaded before the stop's delivered or picked-up event travels in that event's tracking.event (`proof_files`); one uploaded after it is linked to it at once and sent as pod.files_updated (action added). The answer's `full_url` downloads the file without a token until it expires. Another driver's order, or an order of another business, is 404; a body of another type is 415, a larger one 413, and bytes that are not the declared image 422.",
  tag: TAG,
  roles: ['driver'],
  business: true,
  rest: { method: 'POST', path: '/v1/driver/orders/{id}/pod-files', status: 201, rawBody: rawImage('The file') },
  failures: { NOT_FOUND: 'No order of the business assigned to this driver has this id', ...NOT_IMAGE },
  input: z
    .object({
      id: pathId,
      type: z.enum(POD_FILE_TYPES).describe('photo or signature'),
      service_type: intParam(2).describe('The stop the file proves: 1 delivery, 2 pickup'),
    })
    .strict(),
  output: z.object({ result: z.literal(true), file: podFileView }),
  async handler(input, ctx) {
    const { businessId, id: userId, role } = ctx.caller;
    const order = await visibleOrder(ctx.em, { businessId, userId, role }, input.id);
    if (!order) throw errors.notFound();
    const image = await readImage(ctx.body, input.type);
    const kept = await keepBytes(ctx.config, { businessId, orderId: order.id, userId }, image);
    const serviceType = input.service_type as ServiceType;
    const fileId = await withKeptBytes(kept, () =>
      ctx.em.transactional(async (tx) => {
        await lockOrderFiles(tx, order.id);
        // After the stop's event the file joins it at once and is sent on its own; before, the event carries it.
        const event = await stopEventOf(tx, order.id, serviceType);
        const row = await insertFile(
          tx,
          { businessId, orderId: order.id, type: input.type, serviceType, event, uploadedBy: userId },
          kept.version,
        );
        await recordFileChange(tx, {
          order,
          action: event ? 'added' : 'uploaded',
          file: proofFileOf(row, ctx.config),
          actor: actorOf(ctx),
          versionId: row.current_version_id,
          send: event !== null,
        });
        return row.id;
      }),
    );
    return fileAnswerOf(ctx, order.id, fileId);
  },
});

export const orderPodFiles = defineOperation({
  name: 'order_pod_files',
  summary: "The order's proof of delivery files, with their versions.",
  description:
    "Every photo and signature of the order not removed, oldest first, each with its stop's event (null until recorded), its current version's signed download link and every version (the current marked), each with a link of its own. An order of another business is 404.",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}/pod-files' },
  failures: { NOT_FOUND: 'No order of the business has this id' },
  input: z.object({ id: pathId, ...pageParams }).strict(),
  output: pageOutput('files', podFileView),
  async handler(input, ctx) {
    const order = await staffOrder(ctx, input.id);
    const { total, files, versions } = await filesOfOrder(ctx.em, ctx.caller.businessId, order.id, {
      offset: offsetOf(input),
      limit: input.per_page,
    });
    return pageOf(
      input,
      'files',
      total,
      files.map((f) =>
        podFileOf(
          f,
          versions.filter((v) => v.file_id === f.id),
          ctx.config,
        ),
      ),
    );
  },
});

export const orderPodFileReplace = defineOperation({
  name: 'order_pod_file_replace',
  summary: 'Staff replace a proof file with a new image.',
  description:
    'The body is the new image (as for the upload: JPEG, PNG or WebP, a signature PNG or WebP, at most 10 MiB). It becomes the current version; the former one is kept as an archived version, which can be made current again. Sends pod.files_updated (action updated) with the current image only. An order or file of another business, or a removed file, is 404.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'PUT', path: '/v1/orders/{id}/pod-files/{file_id}', rawBody: rawImage('The new image') },
  failures: { NOT_FOUND: 'No file of an order of the business has these ids', ...NOT_IMAGE },
  input: z.object({ id: pathId, file_id: pathId }).strict(),
  output: fileAnswer,
  async handler(input, ctx) {
    const order = await staffOrder(ctx, input.id);
    const { businessId, id: userId } = ctx.caller;
    const current = await fileOf(ctx.em, businessId, order.id, input.file_id);
    if (!current) throw errors.notFound();
    const image = await readImage(ctx.body, current.type);
    const kept = await keepBytes(ctx.config, { businessId, orderId: order.id, userId }, image);
    await withKeptBytes(kept, () =>
      ctx.em.transactional(async (tx) => {
        await lockOrderFiles(tx, order.id);
        const row = await fileOf(tx, businessId, order.id, input.file_id, { lock: true });
        if (!row) throw errors.notFound();
        const versionId = await addVersion(tx, row.id, kept.version);
        await recordFileChange(tx, {
          order,
          action: 'updated',
          file: proofFileOf({ ...row, current_version_id: versionId }, ctx.config),
          actor: actorOf(ctx),
          versionId,
          send: true,
        });
      }),
    );
    return fileAnswerOf(ctx, order.id, input.file_id);
  },
});

export const orderPodFileMakeCurrent = defineOperation({
  name: 'order_pod_file_make_current',
  summary: 'Staff make an archived version of a proof file current again.',
  description:
    'The version becomes the one answered and sent: pod.files_updated (action updated) carries it, the current image only. Making the current version current changes nothing and sends nothing. An order, file or version of another business or file is 404.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/pod-files/{file_id}/versions/{version_id}/make-current' },
  failures: { NOT_FOUND: 'No version of a file of an order of the business has these ids' },
  input: z.object({ id: pathId, file_id: pathId, version_id: pathId }).strict(),
  output: fileAnswer,
  async handler(input, ctx) {
    const order = await staffOrder(ctx, input.id);
    const { businessId } = ctx.caller;
    await ctx.em.transactional(async (tx) => {
      await lockOrderFiles(tx, order.id);
      const row = await fileOf(tx, businessId, order.id, input.file_id, { lock: true });
      const version = row && (await versionOf(tx, row.id, input.version_id));
      if (!row || !version) throw errors.notFound();
      if (row.current_version_id === version.id) return;
      await setCurrentVersion(tx, row.id, version.id);
      await recordFileChange(tx, {
        order,
        action: 'updated',
        file: proofFileOf({ ...row, current_version_id: version.id }, ctx.config),
        actor: actorOf(ctx),
        versionId: version.id,
        send: true,
      });
    });
    return fileAnswerOf(ctx, order.id, input.file_id);
  },
});

export const orderPodFileRemove = defineOperation({
  name: 'order_pod_file_remove',
  summary: 'Staff remove a proof file.',
  description:
    'The file is no longer answered nor sent, and its download links stop working; its versions are kept for the audit trail. Sends pod.files_updated (action removed). An order or file of another business, or a file removed already, is 404.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'DELETE', path: '/v1/orders/{id}/pod-files/{file_id}' },
  failures: { NOT_FOUND: 'No file of an order of the business has these ids' },
  input: z.object({ id: pathId, file_id: pathId }).strict(),
  output: z.object({ result: z.literal(true) }),
  async handler(input, ctx) {
    const order = await staffOrder(ctx, input.id);
    await ctx.em.transactional(async (tx) => {
      await lockOrderFiles(tx, order.id);
      const row = await fileOf(tx, ctx.caller.businessId, order.id, input.file_id, { lock: true });
      if (!row) throw errors.notFound();
      await markRemoved(tx, row.id);
      await recordFileChange(tx, {
        order,
        action: 'removed',
        file: proofFileOf(row, ctx.config),
        actor: actorOf(ctx),
        versionId: row.current_version_id,
        send: true,
      });
    });
    return { result: true as const };
  },
});

export const podFileContent = defineOperation({
  name: 'pod_file_content',
  summary: 'Downloads a proof file through its signed link.',
  description:
    "The link a proof file's `full_url` holds: no token needed. It opens until `expires` (a Unix time) while the file is there and, without `version`, while the version it was signed for is still current. An expired, altered or outdated link answers 403, the same for each.",
  tag: TAG,
  roles: 'public',
  limit: 'public_read',
  rest: {
    method: 'GET',
    path: '/v1/pod-files/{id}/content',
    rawAnswer: {
      mediaTypes: IMAGE_TYPES,
      description: 'The image, with its media type',
      headers: { 'Cache-Control': 'private', 'X-Content-Type-Options': 'nosniff' },
    },
  },
  failures: { POD_FILE_LINK_INVALID: true, NOT_FOUND: 'The file is linked but its bytes are missing from the store' },
  input: z
    .object({
      id: pathId,
      version: intParam().optional().describe('The version the link was signed for; the current one when absent'),
      expires: intParam().describe('Unix time (seconds) the link stops working'),
      signature: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('HMAC-SHA256 of the link, hex'),
    })
    .strict(),
  output: rawAnswer,
  async handler(input, ctx) {
    const invalid = () => fail('POD_FILE_LINK_INVALID', 'pod_file.link_invalid');
    if (input.expires * 1000 < Date.now()) throw invalid();
    const row = await contentOf(ctx.em, input.id, input.version ?? null);
    if (!row || !verifyFile(input.id, row.version_id, input.expires, input.signature)) throw invalid();
    const bytes = await fileStoreOf(ctx.config).get(row.storage_key);
    if (!bytes) throw errors.notFound();
    return { mediaType: row.content_type, bytes };
  },
});

export const POD_FILE_OPERATIONS = [
  podFileUpload,
  orderPodFiles,
  orderPodFileReplace,
  orderPodFileMakeCurrent,
  orderPodFileRemove,
  podFileContent,
];
