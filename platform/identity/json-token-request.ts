import { IncomingMessage, type ServerResponse } from "node:http";
import { readBody, sendJson } from "./http";

/**
 * Auth0's token endpoint also takes JSON bodies; oidc-provider reads forms only. Resolves to an equivalent
 * form-encoded request to hand to oidc-provider, or undefined after answering a body that is not a JSON object.
 */
export async function jsonTokenRequestAsForm(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<IncomingMessage | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readBody(req)).toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    sendJson(res, 400, { error: "invalid_request", error_description: "the body must be a JSON object" });
    return undefined;
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      form.append(name, String(value));
    }
  }

  const body = Buffer.from(form.toString(), "utf8");
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.headers = {
    ...req.headers,
    "content-type": "application/x-www-form-urlencoded",
    "content-length": String(body.length),
  };
  // A complete message: otherwise the replay, once read, would count as aborted and destroy the client's socket.
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  return replay;
}
