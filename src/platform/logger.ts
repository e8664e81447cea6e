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
        // A carrier's credentials, and what an HTTP client's error carries of a request (docs/labels.md).
        'credentials',
        'api_key',
        '*.credentials',
        '*.api_key',
        'err.config.headers',
        'err.config.data',
        'err.request.headers',
      ],
      censor: '[redacted]',
    },
  });
}

export type Logger = pino.Logger;
