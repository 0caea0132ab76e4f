import { Hono } from "hono";
import { healthSchema } from "#contract/identity";
import { sendJson } from "./validation";

/** GET /healthz: liveness for the start script and container probes, reachable without a token. */
export function healthRoutes() {
  const routes = new Hono();
  routes.get("/healthz", (c) => sendJson(c, healthSchema, { status: "ok" }));
  return routes;
}
