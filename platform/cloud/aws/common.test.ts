import { describe, expect, it } from "vitest";
import { compareVersions, networkOf, physicalName } from "./common";

describe("physicalName", () => {
  const id = "3f2a9c1e-77d0-4b6a-9e1f-0c5d2b8a4e71";

  it("is the service's name and the start of its id", () => {
    expect(physicalName({ id, name: "orders" }, 63)).toBe("orders-3f2a9c1e");
  });

  it("fits the API's limit without ending the name part on a hyphen", () => {
    const name = physicalName({ id, name: "a-very-long-service-name-for-the-billing-team" }, 28);
    expect(name).toBe("a-very-long-service-3f2a9c1e");
    expect(name.length).toBeLessThanOrEqual(28);
    expect(physicalName({ id, name: "abcdefghij-klmnop" }, 20)).toBe("abcdefghij-3f2a9c1e");
  });

  it("starts with a letter and has no double hyphen, as RDS and ElastiCache require", () => {
    expect(physicalName({ id, name: "9-lives" }, 40)).toBe("svc-9-lives-3f2a9c1e");
    expect(physicalName({ id, name: "a--b" }, 40)).toBe("a-b-3f2a9c1e");
  });
});

describe("compareVersions", () => {
  it("compares on the configured version's precision", () => {
    expect(compareVersions("17", "17.2")).toBe(0);
    expect(compareVersions("8.0", "8.0.39")).toBe(0);
    expect(compareVersions("8.4", "8.0.39")).toBeGreaterThan(0);
    expect(compareVersions("16", "17.2")).toBeLessThan(0);
    expect(compareVersions("1.33", "1.31")).toBeGreaterThan(0);
  });
});

describe("networkOf", () => {
  it("splits the network provisioner's comma-separated subnets", () => {
    expect(
      networkOf({
        network: {
          vpcId: "vpc-1",
          publicSubnetIds: "subnet-a,subnet-b",
          privateSubnetIds: "subnet-c,subnet-d",
          securityGroupId: "sg-1",
        },
      }),
    ).toEqual({
      vpcId: "vpc-1",
      publicSubnetIds: ["subnet-a", "subnet-b"],
      privateSubnetIds: ["subnet-c", "subnet-d"],
      securityGroupId: "sg-1",
    });
  });

  it("refuses to deploy into a network that is not there", () => {
    expect(() => networkOf({ network: null })).toThrow("The environment's network is not deployed");
  });
});
