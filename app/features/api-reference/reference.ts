import type { OpenApiDocument, OpenApiOperation } from "#contract/openapi";

type JsonSchema = Record<string, unknown>;

export type ReferenceOperation = {
  id: string;
  method: string;
  path: string;
  permission: string;
  parameters: { name: string; in: string; required: boolean; type: string }[];
  request: string | null;
  responses: { status: string; description: string; body: string | null }[];
};
export type ReferenceSection = { tag: string; operations: ReferenceOperation[] };

/**
 * The document as the reference page shows it, shaped on the server so the browser gets text, not schemas: the
 * operations grouped by tag (in the document's tag order), each with its schemas written as TypeScript-like types.
 */
export function referenceOf(document: OpenApiDocument): ReferenceSection[] {
  const byTag = new Map<string, ReferenceOperation[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = operation.tags[0] ?? "other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationOf(method, path, operation)]);
    }
  }
  return [...byTag]
    .filter(([, operations]) => operations.length)
    .map(([tag, operations]) => ({
      tag,
      operations: operations.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
    }));
}

function operationOf(method: string, path: string, operation: OpenApiOperation): ReferenceOperation {
  const json = (content: Record<string, { schema: JsonSchema }> | undefined) => {
    const [type, media] = Object.entries(content ?? {})[0] ?? [];
    if (!type || !media) return null;
    return type === "application/json" ? typeText(media.schema) : `${type} file`;
  };
  return {
    id: operation.operationId,
    method: method.toUpperCase(),
    path,
    permission: operation["x-permission"],
    parameters: operation.parameters.map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      type: typeText(parameter.schema),
    })),
    request: json(operation.requestBody?.content),
    responses: Object.entries(operation.responses).map(([status, answer]) => ({
      status,
      description: answer.description,
      body: status === "default" ? "ApiError" : json(answer.content),
    })),
  };
}

/** A JSON Schema as a TypeScript-like type: `{ id: string; tags?: string[] }`, enums as unions of literals. */
export function typeText(schema: JsonSchema, indent = ""): string {
  const inner = `${indent}  `;
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1) ?? "unknown";
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map((item) => typeText(item, indent)).join(" | ");
  if (Array.isArray(schema.allOf))
    return (schema.allOf as JsonSchema[]).map((item) => typeText(item, indent)).join(" & ");
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types
    .map((type) => {
      switch (type) {
        case "object": {
          const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
          const required = new Set((schema.required ?? []) as string[]);
          const extra = schema.additionalProperties;
          const lines = properties.map(
            ([name, property]) =>
              `${inner}${name}${required.has(name) ? "" : "?"}: ${typeText(property, inner)};`,
          );
          if (extra && typeof extra === "object")
            lines.push(`${inner}[key: string]: ${typeText(extra as JsonSchema, inner)};`);
          return lines.length ? `{\n${lines.join("\n")}\n${indent}}` : "{}";
        }
        case "array": {
          const items = typeText((schema.items ?? {}) as JsonSchema, indent);
          return /[|&]/.test(items) && !items.startsWith("{") ? `(${items})[]` : `${items}[]`;
        }
        case "string":
          return typeof schema.format === "string" ? `string (${schema.format})` : "string";
        case "integer":
        case "number":
        case "boolean":
        case "null":
          return type;
        default:
          return "unknown";
      }
    })
    .join(" | ");
}
