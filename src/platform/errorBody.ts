import type { AppError } from './errors.ts';
import type { Language } from './i18n/languages.ts';
import { translate } from './i18n/messages.ts';

/** The body every failure answers, `{result:false, code, message, errors?}`, in the caller's language. */
export function errorBody(err: AppError, lang: Language) {
  return {
    result: false as const,
    code: err.code,
    message: translate(err.key, lang, err.params),
    ...(err.fields && {
      errors: err.fields.map((f) => ({ field: f.field, message: translate(f.key, lang, f.params) })),
    }),
    ...err.extra,
  };
}
