import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';

/** A JSON Schema fragment as zod's toJSONSchema writes it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  maximum?: number;
  description?: string;
}

export const JSONScalar = new GraphQLScalarType({ name: 'JSON', description: 'Any JSON value.' });

const pascal = (s: string) => s.replace(/(^|[_\s-]+)(\w)/g, (_m, _sep, c: string) => c.toUpperCase());

/** Splits `X | null` into X and nullability. */
function unwrapNull(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const rest = variants.filter((v) => v.type !== 'null');
    if (rest.length === 1) return { schema: rest[0]!, nullable: rest.length !== variants.length };
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const rest = s.type.filter((t) => t !== 'null');
    if (rest.length === 1) return { schema: { ...s, type: rest[0] }, nullable: true };
  }
  return { schema: s, nullable: false };
}

function scalarOf(s: JsonSchema): GraphQLScalarType | null {
  const type = s.type ?? (s.const !== undefined ? typeof s.const : undefined);
  switch (type) {
    case 'string':
      return GraphQLString;
    case 'integer':
      return GraphQLInt;
    case 'number':
      return GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    default:
      return s.enum?.every((v) => typeof v === 'string') ? GraphQLString : null;
  }
}

/** Builds GraphQL types from JSON Schemas, naming nested objects after the path that leads to them. */
export class TypeBuilder {
  output(s: JsonSchema, name: string, required = true): GraphQLOutputType {
    const { schema, nullable } = unwrapNull(s);
    let type: GraphQLOutputType;
    if (schema.type === 'array' && schema.items) {
      type = new GraphQLList(this.output(schema.items, `${name}Item`));
    } else if (schema.type === 'object' && schema.properties) {
      const props = schema.properties;
      const req = new Set(schema.required ?? []);
      type = new GraphQLObjectType({
        name: pascal(name),
        fields: () =>
          Object.fromEntries(
            Object.entries(props).map(([k, v]) => [k, { type: this.output(v, `${name}_${k}`, req.has(k)) }]),
          ),
      });
    } else {
      type = scalarOf(schema) ?? JSONScalar;
    }
    return required && !nullable ? new GraphQLNonNull(type) : type;
  }

  input(s: JsonSchema, name: string, required = true): GraphQLInputType {
    const { schema, nullable } = unwrapNull(s);
    let type: GraphQLInputType;
    if (schema.type === 'array' && schema.items) {
      type = new GraphQLList(this.input(schema.items, `${name}Item`));
    } else if (schema.type === 'object' && schema.properties) {
      const props = schema.properties;
      const req = new Set(schema.required ?? []);
      type = new GraphQLInputObjectType({
        name: `${pascal(name)}Input`,
        fields: () =>
          Object.fromEntries(
            Object.entries(props).map(([k, v]) => [
              k,
              { type: this.input(v, `${name}_${k}`, req.has(k) && v.default === undefined) },
            ]),
          ),
      });
    } else {
      type = scalarOf(schema) ?? JSONScalar;
    }
    return required && !nullable && schema.default === undefined ? new GraphQLNonNull(type) : type;
  }
}
