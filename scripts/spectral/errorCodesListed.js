/**
 * A failure response lists the error codes it can carry: its JSON schema narrows the Error body's `code` to an
 * enum (directly or in one member of allOf/anyOf/oneOf), and its description says what each code means here
 * (api/openapi.ts failureResponses writes both from the catalog's failures).
 */
function codesOf(schema) {
  if (schema === null || typeof schema !== 'object') return null;
  const own = schema.properties?.code?.enum;
  if (Array.isArray(own)) return own;
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    for (const member of Array.isArray(schema[key]) ? schema[key] : []) {
      const found = codesOf(member);
      if (found) return found;
    }
  return null;
}

export default function errorCodesListed(response, _options, context) {
  if (response === null || typeof response !== 'object' || '$ref' in response) return [];
  const content = response.content ?? {};
  const types = Object.keys(content);
  if (types.length === 0) return [{ message: 'it has no body, so no error code', path: [...context.path] }];
  const results = [];
  for (const type of types) {
    const codes = codesOf(content[type]?.schema);
    if (!codes || codes.length === 0) {
      results.push({ message: 'its schema has no `code` enum', path: [...context.path, 'content', type, 'schema'] });
      continue;
    }
    const description = String(response.description ?? '');
    for (const code of codes)
      if (!description.includes(code))
        results.push({
          message: `its description does not say what ${code} means`,
          path: [...context.path, 'description'],
        });
  }
  return results;
}
