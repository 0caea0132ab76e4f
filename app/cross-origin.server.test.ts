import { afterEach, describe, expect, it, vi } from "vitest";
import { isCrossOriginWrite } from "./cross-origin.server";
import * as envModule from "./env.server";

const secret = "s".repeat(32);

function useEnv(extra: Record<string, string> = {}) {
  vi.spyOn(envModule, "getEnv").mockReturnValue(
    envModule.parseAppEnv({
      APP_URL: "https://console.example.com",
      SESSION_SECRET: secret,
      AUTH0_CLIENT_SECRET: "c",
      ...extra,
    }),
  );
}

function request(method: string, headers: Record<string, string> = {}) {
  return new Request("https://console.example.com/env/production/delete", { method, headers });
}

afterEach(() => vi.restoreAllMocks());

describe("isCrossOriginWrite", () => {
  it("lets reads through whatever their origin", () => {
    useEnv();
    expect(isCrossOriginWrite(request("GET", { Origin: "http://127.0.0.1:5103" }))).toBe(false);
    expect(isCrossOriginWrite(request("HEAD"))).toBe(false);
  });

  it("accepts a write from the app's own pages, by Origin or else by Referer", () => {
    useEnv();
    expect(isCrossOriginWrite(request("POST", { Origin: "https://console.example.com" }))).toBe(false);
    expect(
      isCrossOriginWrite(request("POST", { Referer: "https://console.example.com/env/production" })),
    ).toBe(false);
  });

  it.each([
    ["another port", { Origin: "https://console.example.com:8443" }],
    ["another host", { Origin: "http://127.0.0.1:5103" }],
    ["plain http", { Origin: "http://console.example.com" }],
    ["a look-alike host", { Origin: "https://console.example.com.evil.test" }],
    ["an opaque origin", { Origin: "null" }],
    ["a foreign Referer", { Referer: "http://127.0.0.1:5103/attack.html" }],
    ["neither header", {}],
  ])("refuses a write from %s", (_label, headers) => {
    useEnv();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(isCrossOriginWrite(request(method, headers))).toBe(true);
    }
  });

  it("accepts the organizations' subdomains when they are on, and nothing else", () => {
    useEnv({ APP_BASE_DOMAIN: "console.example.com" });
    expect(isCrossOriginWrite(request("POST", { Origin: "https://acme.console.example.com" }))).toBe(false);
    expect(isCrossOriginWrite(request("POST", { Origin: "http://acme.console.example.com" }))).toBe(true);
    expect(isCrossOriginWrite(request("POST", { Origin: "https://acmeconsole.example.com" }))).toBe(true);
  });
});
