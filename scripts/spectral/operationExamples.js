/**
 * An operation shows an example of its request body (when it reads one) and of its success response (when that has
 * a body): on the media type (`example` or `examples`) or on its schema (`examples`). One representation with an
 * example is enough: a response offered in several formats shows its default one.
 */
const exemplified = (media) =>
  media !== null &&
  typeof media === 'object' &&
  ('example' in media ||
    (media.examples !== null && typeof media.examples === 'object' && Object.keys(media.examples).length > 0) ||
    (Array.isArray(media.schema?.examples) && media.schema.examples.length > 0) ||
    (media.schema !== null && typeof media.schema === 'object' && 'example' in media.schema));

export default function operationExamples(operation, _options, context) {
  if (operation === null || typeof operation !== 'object') return [];
  const results = [];
  const check = (content, path, what) => {
    const media = Object.values(content ?? {});
    if (media.length > 0 && !media.some(exemplified))
      results.push({ message: `${what} has no example`, path: [...context.path, ...path, 'content'] });
  };
  check(operation.requestBody?.content, ['requestBody'], 'the request body');
  for (const [status, response] of Object.entries(operation.responses ?? {}))
    if (/^2/.test(status)) check(response?.content, ['responses', status], `the ${status} response`);
  return results;
}
