import { describe, expect, it } from "vitest";
import { resolveEnvironment } from "./current-environment";
import { anEnvironment } from "./test-factories";

const environment = (name: string) => anEnvironment({ name });
const environments = [environment("production"), environment("staging")];

describe("resolveEnvironment (SPEC §4 order)", () => {
  it("takes the environment named in the URL first", () => {
    expect(resolveEnvironment(environments, { fromUrl: "staging", stored: "production" })).toMatchObject({
      kind: "selected",
      environment: { name: "staging" },
    });
  });

  it("reports a URL naming an unknown environment, whatever is stored", () => {
    expect(resolveEnvironment(environments, { fromUrl: "gone", stored: "staging" })).toEqual({
      kind: "unknown",
    });
  });

  it("then the stored one", () => {
    expect(resolveEnvironment(environments, { stored: "staging" })).toMatchObject({
      environment: { name: "staging" },
    });
  });

  it("then the first, also when the stored one no longer exists", () => {
    expect(resolveEnvironment(environments, {})).toMatchObject({ environment: { name: "production" } });
    expect(resolveEnvironment(environments, { stored: "deleted" })).toMatchObject({
      environment: { name: "production" },
    });
  });

  it("reports none when there are no environments", () => {
    expect(resolveEnvironment([], { fromUrl: "production", stored: "production" })).toEqual({ kind: "none" });
  });
});
