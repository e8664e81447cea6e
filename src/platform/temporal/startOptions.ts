/** Business keys are workflow ids: a second start of the same id fails instead of creating a twin. */
export const NO_DUPLICATES = { workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'REJECT_DUPLICATE' } as const;
