import type { ErrorCode } from './errorCodes.ts';
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
  /** One of the registry's codes (errorCodes.ts), which the operation declares among its failures. */
  readonly code: ErrorCode;
  readonly key: MessageKey;
  readonly params: MessageParams;
  readonly fields: FieldError[] | undefined;
  /** Extra members merged into the body, for contract-defined shapes. */
  readonly extra: Record<string, unknown> | undefined;
  /** HTTP headers the answer carries, such as Retry-After. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    key: MessageKey,
    opts: {
      params?: MessageParams;
      fields?: FieldError[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(`${code}: ${key}`);
    this.status = status;
    this.code = code;
    this.key = key;
    this.params = opts.params ?? {};
    this.fields = opts.fields;
    this.extra = opts.extra;
    this.headers = opts.headers ?? {};
  }
}

export const errors = {
  validation: (fields: FieldError[]) => new AppError(422, 'VALIDATION_FAILED', 'error.validation', { fields }),
  field: (field: string, key: MessageKey, params?: MessageParams) => errors.validation([{ field, key, params }]),
  unauthenticated: () => new AppError(401, 'UNAUTHENTICATED', 'error.unauthenticated'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'error.invalid_credentials'),
  forbidden: (key: MessageKey = 'error.forbidden', code: ErrorCode = 'FORBIDDEN') => new AppError(403, code, key),
  notFound: () => new AppError(404, 'NOT_FOUND', 'error.not_found'),
  /** A lock after repeated wrong codes: the body and Retry-After say when to try again. */
  tooManyAttempts: (seconds: number) =>
    new AppError(429, 'TOO_MANY_ATTEMPTS', 'error.too_many_attempts', {
      params: { seconds },
      extra: { retry_after: seconds },
      headers: { 'Retry-After': String(seconds) },
    }),
  /** A rate limit spent: Retry-After and the RateLimit headers say when the window starts afresh. */
  rateLimited: (seconds: number, headers: Record<string, string>) =>
    new AppError(429, 'RATE_LIMITED', 'error.rate_limited', {
      params: { seconds },
      extra: { retry_after: seconds },
      headers: { 'Retry-After': String(seconds), ...headers },
    }),
  /** Sign-in refused for an email after repeated wrong passwords, whether or not an account has that email. */
  signInLocked: (seconds: number) =>
    new AppError(429, 'TOO_MANY_ATTEMPTS', 'error.sign_in_locked', {
      params: { seconds },
      extra: { retry_after: seconds },
      headers: { 'Retry-After': String(seconds) },
    }),
};
