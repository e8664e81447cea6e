import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const AI_AGENT_ERRORS = {
  AI_AGENT_NOT_CONFIGURED: {
    status: 503,
    meaning:
      "The Operations AI Agent has no model on this service (AI_AGENT_MODEL_URL is unset), or the configured model's address is a private one this service may not call.",
  },
  DAILY_CAP_REACHED: {
    status: 429,
    meaning:
      "The business has taken every Operations AI Agent turn its daily cap allows; Retry-After says when the business's next day starts. The body carries `error_code: DAILY_CAP_REACHED`.",
    body: { error_code: 'DAILY_CAP_REACHED' },
  },
  AI_MODEL_FAILED: {
    status: 502,
    meaning:
      "The Operations AI Agent's model did not answer in time, answered an error, or answered something that is not a chat completion. The turn's slot of the daily cap is given back.",
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof AI_AGENT_ERRORS, true> {}
}

export const fail = failWith(AI_AGENT_ERRORS);
