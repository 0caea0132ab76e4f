import { describe, expect, it } from "vitest";
import { applicationConfigSchema } from "./applications";
import {
  fastbootPaths,
  fastbootRequestSchema,
  fastbootStackIds,
  fastbootStacks,
  type FastbootStack,
} from "./fastboot";
import { serviceNameSchema } from "./services";
import { serviceConfigSchemas } from "./service-configs";

/** Services in launch order: each after everything it depends on (what the engine's job does, step by step). */
function launchWaves(stack: FastbootStack): string[][] {
  const done = new Set<string>();
  const waves: string[][] = [];
  while (done.size < stack.services.length) {
    const wave = stack.services
      .filter((service) => !done.has(service.name) && service.dependsOn.every((name) => done.has(name)))
      .map((service) => service.name);
    if (!wave.length) throw new Error(`${stack.id} has a dependency cycle`);
    wave.forEach((name) => done.add(name));
    waves.push(wave);
  }
  return waves;
}

describe("the starter stacks", () => {
  it("offers the three stacks of issue 17 by name", () => {
    expect(fastbootStackIds.map((id) => fastbootStacks[id].name)).toEqual([
      "Web application with PostgreSQL",
      "API with Redis and a queue",
      "Kubernetes cluster with an ingress and a sample application",
    ]);
  });

  it.each(fastbootStackIds)("%s: every configuration passes its type's schema", (id) => {
    for (const service of fastbootStacks[id].services) {
      expect(serviceNameSchema.safeParse(service.name).success).toBe(true);
      const schema =
        service.serviceType === "application"
          ? applicationConfigSchema
          : serviceConfigSchemas[service.serviceType];
      const result = schema.safeParse(service.config);
      expect(result.error?.issues ?? [], `${id}/${service.name}`).toEqual([]);
    }
  });

  it.each(fastbootStackIds)(
    "%s: the network first, the application last, references inside the stack",
    (id) => {
      const stack = fastbootStacks[id];
      const names = stack.services.map((service) => service.name);
      expect(new Set(names).size).toBe(names.length);
      const waves = launchWaves(stack);
      expect(waves[0]).toEqual(["network"]);
      const application = stack.services.find((service) => service.serviceType === "application");
      expect(waves.at(-1)).toEqual([application?.name]);
      // Every service but the network waits for it; the application for every service it references.
      for (const service of stack.services.filter((candidate) => candidate.name !== "network")) {
        expect(service.dependsOn).toContain("network");
      }
      if (application?.serviceType !== "application") throw new Error("no application");
      for (const variable of application.config.envvars) {
        if (variable.kind !== "attribute") continue;
        expect(application.dependsOn).toContain(variable.service);
      }
    },
  );

  it("wires the web application to the database's connection string", () => {
    const web = fastbootStacks["web-postgres"].services.find((service) => service.name === "web");
    expect(web?.serviceType === "application" && web.config.envvars).toEqual([
      { kind: "attribute", name: "DATABASE_URL", service: "postgres", attribute: "connectionString" },
    ]);
  });
});

describe("the fastboot form", () => {
  it("takes a stack, a name, a region and no cloud account (the simulated cloud)", () => {
    expect(fastbootRequestSchema.parse({ stack: "web-postgres", name: "demo", region: "eu-west-1" })).toEqual(
      { stack: "web-postgres", name: "demo", region: "eu-west-1" },
    );
  });

  it("explains each missing or malformed field", () => {
    const result = fastbootRequestSchema.safeParse({ stack: "lamp", name: "Demo!", cloudConnectionId: "x" });
    const messages = Object.fromEntries(
      (result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]),
    );
    expect(messages).toEqual({
      stack: "Choose a starter stack",
      name: "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
      cloudConnectionId: "Choose a cloud account from the list.",
      region: "Region is a required field",
    });
  });

  it("builds the platform's paths", () => {
    expect(fastbootPaths.create("t 1")).toBe("/v2/organizations/t%201/fastboot");
    expect(fastbootPaths.stacks("t", { cloudProvider: "AWS", region: "eu-west-1" })).toBe(
      "/v2/organizations/t/fastboot/stacks?cloudProvider=AWS&region=eu-west-1",
    );
  });
});
