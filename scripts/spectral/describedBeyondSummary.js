/**
 * An operation's description says more than its summary. api/openapi.ts writes the catalog's `description` first
 * and falls back to the summary when there is none, so a first paragraph equal to the summary means the
 * operation's defineOperation has no description yet.
 */
export default function describedBeyondSummary(operation, _options, context) {
  if (operation === null || typeof operation !== 'object') return [];
  const first = String(operation.description ?? '')
    .split('\n\n')[0]
    .trim();
  if (first !== '' && first !== String(operation.summary ?? '').trim()) return [];
  return [
    {
      message: `${operation.operationId ?? 'This operation'} has no description of its own`,
      path: [...context.path, 'description'],
    },
  ];
}
