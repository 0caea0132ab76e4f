import { describe, expect, it } from "vitest";
import { anEnvironment } from "./test-factories";
import { accountFieldOf, environmentTargetLabel, environmentTargetLabels } from "./target";

describe("environmentTargetLabel", () => {
  it("says plainly that an environment without a cloud account runs on the simulated cloud", () => {
    expect(environmentTargetLabel(anEnvironment({ name: "demo" }), null)).toBe("Simulated cloud");
  });

  it("names the cloud account an environment runs in, in its provider's noun", () => {
    const production = anEnvironment({ name: "production", cloudConnectionId: "c-aws" });
    expect(environmentTargetLabel(production, "Acme production")).toBe("AWS account Acme production");
    const analytics = anEnvironment({ name: "analytics", cloudProvider: "GCP", cloudConnectionId: "c-gcp" });
    expect(environmentTargetLabel(analytics, "acme-analytics")).toBe("Google Cloud project acme-analytics");
  });

  it("still says the account is real when its name could not be read", () => {
    expect(environmentTargetLabel(anEnvironment({ name: "p", cloudConnectionId: "c-aws" }), null)).toBe(
      "AWS account",
    );
  });
});

describe("environmentTargetLabels", () => {
  it("labels each environment of a list by id", () => {
    const environments = [
      anEnvironment({ name: "demo" }),
      anEnvironment({ name: "production", cloudConnectionId: "c-aws" }),
    ];
    expect(environmentTargetLabels(environments, [{ id: "c-aws", name: "Acme" }])).toEqual({
      "id-demo": "Simulated cloud",
      "id-production": "AWS account Acme",
    });
  });
});

describe("accountFieldOf", () => {
  it("makes a container host required: containers are never simulated", () => {
    expect(accountFieldOf("CONTAINERS")).toMatchObject({ label: "Container host", optional: false });
  });

  it("keeps a cloud account optional, saying what none means", () => {
    expect(accountFieldOf("AWS")).toMatchObject({
      label: "Cloud account",
      optional: true,
      placeholder: "None: a simulated AWS account",
    });
  });
});
