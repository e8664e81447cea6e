import pino from 'pino';

/** One JSON logger for the API, the worker and the Temporal SDK; secrets are redacted by path. */
export function createLogger(level: string) {
  return pino({
    level,
    base: { service: 'tms' },
    redact: {
      paths: [
        'password',
        'pickup_code',
        'access_token',
        'secret',
        'webhook_sign_secret',
        '*.password',
        '*.pickup_code',
        '*.access_token',
        '*.secret',
        '*.webhook_sign_secret',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  });
}

export type Logger = pino.Logger;
