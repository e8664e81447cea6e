/** A PostgreSQL text[] literal: the query layer would expand a JS array into a list of parameters. */
export const textArray = (values: readonly string[]) =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
