import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { deletionConsequences } from "./deletion.server";

describe("what deleting a service destroys and keeps", () => {
  it("says an AWS database's data goes and a final snapshot is kept", () => {
    const said = deletionConsequences(
      { serviceType: "database", config: defaultServiceConfigs.database },
      { inCloudAccount: true },
    );
    expect(said.destroyed).toContain("its RDS instance with its data");
    expect(said.kept).toContain("A final snapshot of its data is kept");
  });

  it("keeps no snapshot of a queue (its messages go) nor of a Memcached cache", () => {
    expect(
      deletionConsequences({ serviceType: "queue", config: {} }, { inCloudAccount: true }),
    ).toMatchObject({ destroyed: expect.stringContaining("with their messages"), kept: null });
    expect(
      deletionConsequences(
        { serviceType: "cache", config: { ...defaultServiceConfigs.cache, engine: "memcached" } },
        { inCloudAccount: true },
      ).kept,
    ).toBeNull();
  });

  it("says nothing of a cloud account for a simulated environment", () => {
    expect(
      deletionConsequences(
        { serviceType: "database", config: defaultServiceConfigs.database },
        { inCloudAccount: false },
      ),
    ).toEqual({ destroyed: null, kept: null });
  });
});
