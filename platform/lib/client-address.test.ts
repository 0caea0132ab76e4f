import { describe, expect, it } from "vitest";
import { clientAddressOf } from "./client-address";
import { loadPlatformConfig } from "./config";

const env = { AUTH0_CLIENT_SECRET: "test-client-secret-0123456789" };

describe("TRUST_PROXY", () => {
  it("trusts no proxy by default or when false, one proxy when true, else the number of proxies given", () => {
    expect(loadPlatformConfig(env).trustProxyHops).toBe(0);
    expect(loadPlatformConfig({ ...env, TRUST_PROXY: "false" }).trustProxyHops).toBe(0);
    expect(loadPlatformConfig({ ...env, TRUST_PROXY: "true" }).trustProxyHops).toBe(1);
    expect(loadPlatformConfig({ ...env, TRUST_PROXY: "2" }).trustProxyHops).toBe(2);
    expect(() => loadPlatformConfig({ ...env, TRUST_PROXY: "10.0.0.0/8" })).toThrow(/TRUST_PROXY/);
  });
});

describe("the client address", () => {
  it("is the socket's peer without trusted proxies, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf("192.0.2.1", "203.0.113.5", 0)).toBe("192.0.2.1");
  });

  it("is the rightmost entry the trusted proxies did not write", () => {
    expect(clientAddressOf("10.0.0.2", "203.0.113.5", 1)).toBe("203.0.113.5");
    expect(clientAddressOf("10.0.0.2", "198.51.100.9, 203.0.113.5", 1)).toBe("203.0.113.5");
    expect(clientAddressOf("10.0.0.2", "198.51.100.9, 203.0.113.5, 10.0.0.1", 2)).toBe("203.0.113.5");
  });

  it("is the peer when a trusted proxy sent no X-Forwarded-For, and the leftmost entry when it has too few", () => {
    expect(clientAddressOf("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
    expect(clientAddressOf("10.0.0.2", " , ", 1)).toBe("10.0.0.2");
    expect(clientAddressOf("10.0.0.2", "203.0.113.5", 3)).toBe("203.0.113.5");
  });
});
