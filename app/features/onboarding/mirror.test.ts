import { describe, expect, it } from "vitest";
import {
  ONBOARDING_STORAGE_KEY,
  onboardingReturnTo,
  readOnboardingMirror,
  withReturnTo,
  writeOnboardingMirror,
} from "./mirror";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe("the onboarding mirror", () => {
  it("is kept under SPEC §3's key while in progress and removed when it ends", () => {
    const storage = memoryStorage();
    expect(readOnboardingMirror(storage)).toBe(false);
    writeOnboardingMirror(true, storage);
    expect(storage.values.get(ONBOARDING_STORAGE_KEY)).toBe("true");
    expect(ONBOARDING_STORAGE_KEY).toBe("persist:onboarding-in-progress");
    expect(readOnboardingMirror(storage)).toBe(true);
    writeOnboardingMirror(false, storage);
    expect(storage.values.has(ONBOARDING_STORAGE_KEY)).toBe(false);
  });

  it("reads a blocked storage as not in progress", () => {
    const blocked = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
      removeItem: () => undefined,
    };
    expect(readOnboardingMirror(blocked)).toBe(false);
    expect(() => writeOnboardingMirror(true, blocked)).not.toThrow();
  });
});

describe("onboardingReturnTo", () => {
  it.each([
    ["/onboarding?step=application", "/onboarding?step=application"],
    ["/onboarding/overview", "/onboarding/overview"],
    ["/onboarding", "/onboarding"],
    ["/onboarding/overview?step=team", "/onboarding/overview?step=team"],
  ])("keeps %s", (value, expected) => {
    expect(onboardingReturnTo(value)).toBe(expected);
  });

  it.each([
    null,
    "",
    "/environments",
    "https://evil.example/onboarding",
    "//evil.example/onboarding",
    "/onboarding-x",
  ])("drops %s", (value) => {
    expect(onboardingReturnTo(value)).toBeNull();
  });

  it("adds returnTo to a path with or without a query", () => {
    expect(withReturnTo("/environments/create", "/onboarding?step=application")).toBe(
      "/environments/create?returnTo=%2Fonboarding%3Fstep%3Dapplication",
    );
    expect(withReturnTo("/settings/users/new?x=1", "/onboarding")).toBe(
      "/settings/users/new?x=1&returnTo=%2Fonboarding",
    );
  });
});
