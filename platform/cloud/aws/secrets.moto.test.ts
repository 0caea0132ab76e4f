import { describe, expect, it } from "vitest";
import { resourceOf, setUpMoto, testService } from "../../testing/aws";
import { deleteSecret, ensureSecret } from "./secrets";

describe("a service's secret in Secrets Manager", () => {
  const { aws } = setUpMoto();

  it("is logged as deleted once, however often a waiting teardown asks again", async () => {
    const service = testService(aws, resourceOf("cache"));
    await ensureSecret(service.context(), {
      name: "orders-token",
      description: "the token",
      generate: () => "s3cret",
    });
    // A teardown that waits for the cache to go calls its step again every 30 s.
    await deleteSecret(service.context(), "orders-token");
    await deleteSecret(service.context(), "orders-token");
    await deleteSecret(service.context(), "orders-token");
    expect(service.logs.filter((line) => line.message.startsWith("Deleted secret"))).toEqual([
      { level: "info", message: "Deleted secret orders-token from Secrets Manager" },
    ]);
  });
});
