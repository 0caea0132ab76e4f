import { Hono } from "hono";
import { healthSchema } from "#contract/identity";
import { sendJson } from "./validation";
import { documentRoutes } from "./documented";

/** GET /healthz: liveness for the start script and container probes, reachable without a token. */
export function healthRoutes() {
  const routes = new Hono();
  routes.get("/healthz", (c) => sendJson(c, healthSchema, { status: "ok" }));
  documentRoutes(routes, {
    "GET /healthz": { responses: { 200: healthSchema } },
  });
  return routes;
}
