/**
 * The value with every string and object key well-formed: a lone surrogate (`"\ud800"`, valid in JavaScript and
 * JSON text) becomes U+FFFD, as UTF-8 encoding does everywhere else. PostgreSQL refuses one in jsonb (SQLSTATE
 * 22P02) and the drivers silently replace it in text, so values are made well-formed where they enter instead.
 */
export function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormed(item)]),
    );
  }
  return value;
}
