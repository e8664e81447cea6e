/**
 * Every property a schema names is snake_case, however deep. Data keywords (examples, default, const, enum) and
 * `x-` extensions hold values, not schemas, and are not read. The `exclude` option lists regular expressions
 * matched against a property's path, joined with '.', for schemas an external standard names otherwise.
 */
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const DATA = new Set(['examples', 'example', 'default', 'const', 'enum']);

export default function snakeCaseProperties(schema, options, context) {
  const exclude = (options?.exclude ?? []).map((source) => new RegExp(source));
  const results = [];
  const seen = new Set();
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key) || key.startsWith('x-')) continue;
      if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [name, property] of Object.entries(value)) {
          const at = [...path, 'properties', name];
          if (exclude.some((re) => re.test(at.join('.')))) continue;
          if (!SNAKE.test(name)) results.push({ message: `"${name}" is not snake_case`, path: at });
          walk(property, at);
        }
        continue;
      }
      walk(value, [...path, key]);
    }
  };
  walk(schema, [...context.path]);
  return results;
}
