import { afterEach, describe, expect, it, vi } from "vitest";
import * as envModule from "./env.server";
import { applySecurityHeaders, completeSecurityHeaders } from "./security-headers.server";

function useAppUrl(appUrl: string) {
  vi.spyOn(envModule, "getEnv").mockReturnValue(
    envModule.parseAppEnv({ APP_URL: appUrl, SESSION_SECRET: "s".repeat(32), AUTH0_CLIENT_SECRET: "c" }),
  );
}

afterEach(() => vi.restoreAllMocks());

describe("completeSecurityHeaders", () => {
  it("gives a redirect or a static file the CSP and no-store, and HSTS when served over https", () => {
    useAppUrl("https://console.example.com");
    const headers = completeSecurityHeaders(new Headers({ Location: "/auth/login" }));
    expect(headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(headers.get("Cache-Control")).toBe("no-store");
    expect(headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("keeps a document's nonce policy and an asset's caching, and sends no HSTS over http", () => {
    useAppUrl("http://localhost:3000");
    const document = applySecurityHeaders(new Headers(), "abc");
    document.set("Cache-Control", "public, max-age=3600");
    const headers = completeSecurityHeaders(document);
    expect(headers.get("Content-Security-Policy")).toContain("'nonce-abc'");
    expect(headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(headers.has("Strict-Transport-Security")).toBe(false);
  });
});
