import type { Hono } from "hono";
import type * as z from "zod";

/**
 * The contract schemas a route reads and answers with, as its handler passes them to readQuery, readJsonBody and
 * sendJson. `null` documents an answer without a body (204), a media type one that is not JSON (a CSV export);
 * several schemas for one status are alternatives.
 */
export type RouteSchemas = {
  query?: z.ZodType;
  body?: z.ZodType;
  responses?: Record<number, z.ZodType | readonly z.ZodType[] | null | `${string}/${string}`>;
};

/** Each documented route's handler with its schemas: the OpenAPI document reads it from the app's routes. */
export const routeSchemas = new WeakMap<object, RouteSchemas>();

/**
 * Declares the schemas of a router's routes, by "METHOD path" as registered on it, for the OpenAPI document
 * (platform/http/openapi.ts). A table beside the routes instead of another argument on each keeps the handlers as
 * they are; a key that names no route throws at start-up, and a test checks the document against real answers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- routers differ in their environment type
export function documentRoutes(routes: Hono<any>, table: Record<string, RouteSchemas>) {
  for (const [key, schemas] of Object.entries(table)) {
    const [method, path] = key.split(" ");
    const handler = routes.routes.filter((route) => route.method === method && route.path === path).at(-1);
    if (!handler) throw new Error(`documentRoutes: no route ${key}`);
    routeSchemas.set(handler.handler, schemas);
  }
}
