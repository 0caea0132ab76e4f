import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { createAwsClients } from "../cloud/aws/clients";
import { readAccount, ScanError } from "./scanner";

it("says in words that AWS did not answer a scan, with the code for support, not the socket's message", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const clients = createAwsClients({
    region: "us-east-1",
    credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    endpoint: `http://127.0.0.1:${port}`,
    maxAttempts: 1,
  });
  try {
    const failure = await readAccount(clients).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ScanError);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^Scanning [\\w-]+ failed: AWS could not be reached at 127\\.0\\.0\\.1:${port} \\(the connection was ` +
          "refused\\)\\. Code for support: ECONNREFUSED$",
      ),
    );
  } finally {
    clients.destroy();
  }
});
