import { describe, expect, it } from "vitest";
import { loadPlatformConfig } from "../../lib/config";

const required = { AUTH0_CLIENT_SECRET: "0123456789abcdef0123" };

describe("the reverse proxy in front of container hosts (CONTAINER_PROXY_ADMIN_URL)", () => {
  it("is off unless the operator names Caddy's admin API; its host is loopback unless told", () => {
    expect(loadPlatformConfig(required).containerProxy).toBeUndefined();
    expect(
      loadPlatformConfig({ ...required, CONTAINER_PROXY_ADMIN_URL: "http://127.0.0.1:2019/" }).containerProxy,
    ).toEqual({ adminUrl: "http://127.0.0.1:2019", host: "127.0.0.1" });
    expect(
      loadPlatformConfig({
        ...required,
        CONTAINER_PROXY_ADMIN_URL: "http://127.0.0.1:2019",
        CONTAINER_PROXY_HOST: "203.0.113.7",
      }).containerProxy,
    ).toEqual({ adminUrl: "http://127.0.0.1:2019", host: "203.0.113.7" });
  });

  it("refuses an admin URL that is not http(s), naming the variable", () => {
    expect(() =>
      loadPlatformConfig({ ...required, CONTAINER_PROXY_ADMIN_URL: "unix:///run/caddy.sock" }),
    ).toThrow("CONTAINER_PROXY_ADMIN_URL: must be an http:// or https:// URL");
  });
});
