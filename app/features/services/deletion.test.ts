import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { deletionConsequences, environmentDeletionConsequences } from "./deletion.server";

const inAws = { cloudProvider: "AWS", cloudConnectionId: "conn-aws" } as const;
const simulated = { cloudProvider: "AWS", cloudConnectionId: null } as const;
const onContainerHost = { cloudProvider: "CONTAINERS", cloudConnectionId: "conn-host" } as const;

describe("what deleting a service destroys and keeps", () => {
  it("says an AWS database's data goes and a final snapshot is kept", () => {
    const said = deletionConsequences(
      { serviceType: "database", config: defaultServiceConfigs.database },
      inAws,
    );
    expect(said.destroyed).toContain("its RDS instance with its data");
    expect(said.kept).toContain("A final snapshot of its data is kept");
  });

  it("keeps no snapshot of a queue (its messages go) nor of a Memcached cache", () => {
    expect(deletionConsequences({ serviceType: "queue", config: {} }, inAws)).toMatchObject({
      destroyed: expect.stringContaining("with their messages"),
      kept: null,
    });
    expect(
      deletionConsequences(
        { serviceType: "cache", config: { ...defaultServiceConfigs.cache, engine: "memcached" } },
        inAws,
      ).kept,
    ).toBeNull();
  });

  it("says nothing of a cloud account for a simulated environment", () => {
    expect(
      deletionConsequences({ serviceType: "database", config: defaultServiceConfigs.database }, simulated),
    ).toEqual({ destroyed: null, kept: null });
  });

  it("says a data service on a container host loses its container and named volume with its data, and keeps nothing", () => {
    expect(
      deletionConsequences(
        { serviceType: "database", config: defaultServiceConfigs.database },
        onContainerHost,
      ),
    ).toEqual({
      destroyed: "Removed from the container host: its container and its named volume, which holds its data.",
      kept: "Nothing is kept: a container host takes no snapshot.",
    });
    expect(deletionConsequences({ serviceType: "queue", config: {} }, onContainerHost).destroyed).toBe(
      "Removed from the container host: its container and its named volume, which holds its messages.",
    );
    expect(deletionConsequences({ serviceType: "file-storage", config: {} }, onContainerHost).destroyed).toBe(
      "Removed from the container host: its container and its named volume, which holds its bucket's objects.",
    );
    // Memcached keeps its items in memory only: its container is all there is.
    expect(
      deletionConsequences(
        { serviceType: "cache", config: { ...defaultServiceConfigs.cache, engine: "memcached" } },
        onContainerHost,
      ).destroyed,
    ).toBe("Removed from the container host: its container, with the items it held in memory.");
  });

  it("names no AWS resource for an environment on a container host", () => {
    expect(environmentDeletionConsequences(inAws)).toContain("in the AWS account");
    expect(environmentDeletionConsequences(simulated)).toBeNull();
    expect(environmentDeletionConsequences(onContainerHost)).toBe(
      "Everything its services run on the container host is removed with them: their containers and named " +
        "volumes with their data and messages, the images built for them and the environment's network. " +
        "Nothing is kept.",
    );
  });
});
