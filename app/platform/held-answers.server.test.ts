import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { createPlatformClient, isPlatformError } from "./client.server";
import { heldAnswersOf } from "./held-answers.server";

const BASE_URL = "http://platform.test";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const listSchema = z.object({ names: z.array(z.string()) });
let users = 0;

/** A client of a new user (the app makes one per request; what it holds is the user's). */
function clientOf(userId = `user-${++users}`) {
  return createPlatformClient({
    baseUrl: BASE_URL,
    getAccessToken: async () => "token",
    retryDelaysMs: [],
    log: () => {},
    held: heldAnswersOf(userId),
  });
}

/** A platform that tags its answer with the revision and answers 304 to a request that holds it. */
function platformAt(state: { revision: number; names: string[]; refuse?: boolean }) {
  const asked: (string | null)[] = [];
  server.use(
    http.get(`${BASE_URL}/api/things`, ({ request }) => {
      asked.push(request.headers.get("If-None-Match"));
      if (state.refuse)
        return HttpResponse.json({ message: "Not a member", code: "FORBIDDEN" }, { status: 403 });
      const etag = `W/"${state.revision}"`;
      if (request.headers.get("If-None-Match") === etag)
        return new HttpResponse(null, { status: 304, headers: { ETag: etag } });
      return HttpResponse.json({ names: state.names }, { headers: { ETag: etag } });
    }),
    http.post(`${BASE_URL}/api/things`, ({ request }) => {
      asked.push(request.headers.get("If-None-Match"));
      return HttpResponse.json({ names: state.names });
    }),
  );
  return asked;
}

describe("a GET of an answer the user already holds", () => {
  it("asks with its ETag and, told nothing changed, answers what it holds", async () => {
    const asked = platformAt({ revision: 1, names: ["db"] });
    const userId = "user-polling";

    const first = await clientOf(userId).get("/things", listSchema);
    const second = await clientOf(userId).get("/things", listSchema);

    expect(asked).toEqual([null, 'W/"1"']);
    expect(second).toEqual({ names: ["db"] });
    expect(second).toBe(first);
  });

  it("answers the new answer once the platform says it changed, and holds that one", async () => {
    const state = { revision: 1, names: ["db"] };
    const asked = platformAt(state);
    const userId = "user-changes";
    await clientOf(userId).get("/things", listSchema);

    state.revision = 2;
    state.names = ["db", "cache"];
    expect(await clientOf(userId).get("/things", listSchema)).toEqual({ names: ["db", "cache"] });
    expect(await clientOf(userId).get("/things", listSchema)).toEqual({ names: ["db", "cache"] });
    expect(asked).toEqual([null, 'W/"1"', 'W/"2"']);
  });

  it("fails as the platform says when it refuses the user (removed from the organization), never from what it holds", async () => {
    const state = { revision: 1, names: ["db"], refuse: false };
    platformAt(state);
    const userId = "user-removed";
    await clientOf(userId).get("/things", listSchema);

    state.refuse = true;
    const refused = await clientOf(userId)
      .get("/things", listSchema)
      .catch((error: unknown) => error);
    expect(isPlatformError(refused) && refused.status).toBe(403);
  });

  it("is held for its user only: another user asks without it", async () => {
    const asked = platformAt({ revision: 1, names: ["db"] });
    await clientOf().get("/things", listSchema);
    await clientOf().get("/things", listSchema);
    expect(asked).toEqual([null, null]);
  });

  it("is not offered with a write", async () => {
    const asked = platformAt({ revision: 1, names: ["db"] });
    const userId = "user-writes";
    await clientOf(userId).get("/things", listSchema);
    await clientOf(userId).post("/things", listSchema, {});
    expect(asked).toEqual([null, null]);
  });
});
