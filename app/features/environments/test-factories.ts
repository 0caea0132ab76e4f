import type { CloneState, Environment, EnvironmentVariable } from "#contract/environments";

/** An environment as the platform lists it; tests override what they are about. */
export function anEnvironment(overrides: Partial<Environment> & { name: string }): Environment {
  return {
    id: `id-${overrides.name}`,
    organizationId: "t",
    cloningStage: "STAGE_UNSPECIFIED",
    stage: "STAGE_UNSPECIFIED",
    cloudProvider: "AWS",
    region: "us-east-1",
    cloudConnectionId: null,
    serviceCount: 0,
    monthlyCostEstimate: 0,
    deletion: null,
    clonedFrom: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function aVariable(overrides: Partial<EnvironmentVariable> & { name: string }): EnvironmentVariable {
  return {
    id: `var-${overrides.name}`,
    value: "",
    secret: false,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function aCloneState(overrides: Partial<CloneState> = {}): CloneState {
  return {
    infraState: "UNSPECIFIED",
    history: [],
    details: null,
    resources: { total: 0, running: 0, stage: "STAGE_UNSPECIFIED" },
    ...overrides,
  };
}
