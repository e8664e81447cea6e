import type { MessageKey, MessageParams } from './i18n/messages.ts';

/** A field-level problem; `field` is a dotted path such as `recipient.address.city`. */
export interface FieldError {
  field: string;
  key: MessageKey;
  params?: MessageParams;
}

/**
 * A failure the caller should see. Handlers throw these; one middleware turns them into the error body
 * `{result:false, code, message, errors?}` with the message in the caller's language.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly key: MessageKey;
  readonly params: MessageParams;
  readonly fields: FieldError[] | undefined;
  /** Extra members merged into the body, for contract-defined shapes. */
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: number, code: string, key: MessageKey, opts: { params?: MessageParams; fields?: FieldError[]; extra?: Record<string, unknown> } = {}) {
    super(`${code}: ${key}`);
    this.status = status;
    this.code = code;
    this.key = key;
    this.params = opts.params ?? {};
    this.fields = opts.fields;
    this.extra = opts.extra;
  }
}

export const errors = {
  validation: (fields: FieldError[]) => new AppError(422, 'VALIDATION_FAILED', 'error.validation', { fields }),
  field: (field: string, key: MessageKey, params?: MessageParams) => errors.validation([{ field, key, params }]),
  unauthenticated: () => new AppError(401, 'UNAUTHENTICATED', 'error.unauthenticated'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'error.invalid_credentials'),
  forbidden: (key: MessageKey = 'error.forbidden', code = 'FORBIDDEN') => new AppError(403, code, key),
  notFound: () => new AppError(404, 'NOT_FOUND', 'error.not_found'),
  badRequest: (code: string, key: MessageKey, params?: MessageParams) => new AppError(400, code, key, { params }),
  conflict: (code: string, key: MessageKey, params?: MessageParams) => new AppError(409, code, key, { params }),
  unavailable: (key: MessageKey = 'error.unavailable', code = 'UNAVAILABLE') => new AppError(503, code, key),
};
