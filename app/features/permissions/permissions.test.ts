// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { canDo, permissions as catalogue, type EffectivePermissions } from "#contract/permissions";
import { allows, PERMISSIONS_ROUTE_ID, useCan, useCanInCurrentEnvironment } from "./permissions";

const shell = vi.hoisted(() => ({ data: undefined as unknown, routeIds: [] as string[] }));
vi.mock("@remix-run/react", () => ({
  useRouteLoaderData: (routeId: string) => {
    shell.routeIds.push(routeId);
    return shell.data;
  },
}));

const developerOnStaging: EffectivePermissions = {
  organization: ["organization.view"],
  environments: {
    "env-staging": ["organization.view", "variables.write", "secrets.reveal"],
    "env-prod": ["organization.view"],
  },
};

beforeEach(() => {
  shell.data = undefined;
  shell.routeIds = [];
});

describe("allows", () => {
  it("answers as the contract's canDo for every permission, environment and none", () => {
    for (const permission of catalogue) {
      for (const environmentId of [undefined, "env-staging", "env-prod", "env-new"]) {
        expect(allows(developerOnStaging, permission, environmentId)).toBe(
          canDo(developerOnStaging, permission, environmentId),
        );
      }
    }
  });

  it("offers everything while permissions are not in use", () => {
    expect(allows(null, "users.manage")).toBe(true);
    expect(allows(undefined, "secrets.reveal", "env-prod")).toBe(true);
  });
});

describe("useCan", () => {
  it("reads the shell's permissions, in the organization or one environment", () => {
    shell.data = { permissions: developerOnStaging, currentEnvironmentId: null };
    expect(renderHook(() => useCan("variables.write")).result.current).toBe(false);
    expect(renderHook(() => useCan("variables.write", "env-staging")).result.current).toBe(true);
    expect(renderHook(() => useCan("variables.write", "env-prod")).result.current).toBe(false);
    expect(shell.routeIds.every((id) => id === PERMISSIONS_ROUTE_ID)).toBe(true);
  });

  it("in the current environment follows the environment of the address", () => {
    shell.data = { permissions: developerOnStaging, currentEnvironmentId: "env-staging" };
    expect(renderHook(() => useCanInCurrentEnvironment("secrets.reveal")).result.current).toBe(true);
    shell.data = { permissions: developerOnStaging, currentEnvironmentId: "env-prod" };
    expect(renderHook(() => useCanInCurrentEnvironment("secrets.reveal")).result.current).toBe(false);
  });

  it("offers everything outside the application area", () => {
    expect(renderHook(() => useCan("environments.delete")).result.current).toBe(true);
  });
});
