import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createPlatformClient } from "./client.server";

/** Where the platform client of the app's loader tests sends its requests: msw answers there. */
export const FAKE_PLATFORM_URL = "http://platform.test";

/**
 * A platform API for a test file: an msw server that refuses any request no handler answers (so a test names
 * every call it expects), reset after each test, and a client aimed at it that retries nothing and logs nothing.
 * Call once at the top of the file.
 */
export function fakePlatform() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  const api = createPlatformClient({
    baseUrl: FAKE_PLATFORM_URL,
    getAccessToken: async () => "token",
    retryDelaysMs: [],
    log: () => {},
  });
  return { server, api };
}
