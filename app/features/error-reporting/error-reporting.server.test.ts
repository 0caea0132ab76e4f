import { describe, expect, it, vi } from "vitest";
import { parseAppEnv } from "~/env.server";
import { getServerErrorReporter, reportServerError } from "./error-reporting.server";

describe("server error reporting", () => {
  it("is off when APP_URL is local, logs to the console, and skips aborted requests", () => {
    const env = parseAppEnv({
      SESSION_SECRET: "s".repeat(32),
      AUTH0_CLIENT_SECRET: "c",
      APP_URL: "http://localhost:3000",
      ERROR_REPORTING_URL: "https://errors.example.com/item/",
    });
    expect(getServerErrorReporter(env).enabled).toBe(false);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const error = new Error("loader failed");
      expect(reportServerError(error, new Request("http://localhost:3000/env/dev?code=secret"))).toBe(
        "disabled",
      );
      expect(consoleError).toHaveBeenCalledWith(error);

      const controller = new AbortController();
      controller.abort();
      const aborted = new Request("http://localhost:3000/", { signal: controller.signal });
      expect(reportServerError(new Error("client went away"), aborted)).toBe("ignored");
      expect(consoleError).toHaveBeenCalledOnce();
    } finally {
      consoleError.mockRestore();
    }
  });
});
