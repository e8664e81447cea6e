import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const POD_FILE_ERRORS = {
  POD_FILE_EMPTY: { status: 422, meaning: 'The body is empty: send the image file itself.' },
  POD_FILE_NOT_IMAGE: {
    status: 422,
    meaning: 'The bytes are not an image of the declared Content-Type (their signature says otherwise).',
  },
  POD_FILE_LINK_INVALID: {
    status: 403,
    meaning:
      'The download link is expired, altered, or no longer names a current file (replaced or removed); ask for a new one.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof POD_FILE_ERRORS, true> {}
}

export const fail = failWith(POD_FILE_ERRORS);
