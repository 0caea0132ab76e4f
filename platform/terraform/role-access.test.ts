import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it, vi } from "vitest";
import { assumeReadOnlyRole } from "./role-access";

it("waits for the role saying in words that AWS did not answer, with the code for support", async () => {
  vi.stubEnv("AWS_ACCESS_KEY_ID", "testing");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "testing");
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  try {
    const access = await assumeReadOnlyRole({
      accountId: "123456789012",
      roleName: "cloud-console-read-only",
      externalId: "external-id",
      region: "us-east-1",
      sessionName: "test",
      endpoint: `http://127.0.0.1:${port}`,
    });
    expect(access).toEqual({
      kind: "waiting",
      reason: `AWS could not be reached at 127.0.0.1:${port} (the connection was refused). Code for support: ECONNREFUSED`,
    });
  } finally {
    vi.unstubAllEnvs();
  }
});
