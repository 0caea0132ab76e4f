import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { Database } from "../db/index";
import { revisionOf } from "../environments/revisions";

/** A restarted platform (perhaps a newer version, answering in another shape) answers anew to an older ETag. */
const processTag = randomUUID().slice(0, 8);

/**
 * The answer of a GET about an environment's services, unless the caller already holds it: its ETag is the
 * environment's revision, read before the answer is built (a write committed meanwhile makes the next poll answer
 * anew, never the reverse), and an `If-None-Match` naming it is answered 304 with no body. Call after the route's
 * checks: the caller's membership and permissions are read at every request, 304 or not (decision 065).
 */
export async function unlessUnchanged(
  c: Context,
  db: Database,
  environmentId: string,
  answer: () => Promise<Response>,
): Promise<Response> {
  const etag = `W/"${processTag}.${await revisionOf(db, environmentId)}"`;
  const held = (c.req.header("If-None-Match") ?? "").split(",").map((tag) => tag.trim());
  if (held.includes(etag)) return c.body(null, 304, { ETag: etag });
  const response = await answer();
  response.headers.set("ETag", etag);
  return response;
}
