import { createHash, randomUUID } from "node:crypto";
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
  if (heldTags(c).includes(etag)) return c.body(null, 304, { ETag: etag });
  const response = await answer();
  response.headers.set("ETag", etag);
  return response;
}

/**
 * An answer that no revision counts (what a cloud reports), 304 when it is the one the caller holds: the platform
 * still builds it, the caller neither receives nor parses it again. Its ETag is a digest of its body.
 */
export async function unlessSameAnswer(c: Context, response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const body = await response.arrayBuffer();
  const etag = `W/"${createHash("sha256").update(new Uint8Array(body)).digest("base64url").slice(0, 27)}"`;
  const headers = new Headers(response.headers);
  headers.set("ETag", etag);
  if (heldTags(c).includes(etag)) {
    headers.delete("Content-Type");
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}

function heldTags(c: Context): string[] {
  return (c.req.header("If-None-Match") ?? "").split(",").map((tag) => tag.trim());
}
