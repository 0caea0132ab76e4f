import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The layer rule of eslint.config.js (docs/decisions/040-platform-layers.md), run on code at a platform path. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint();
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "platform-layers/no-upward-import")
    .map((message) => message.message);
}

describe("the platform's layer rule", () => {
  it("refuses an import into a higher layer", async () => {
    expect(
      await layerErrors(
        "platform/cloud/aws/probe.ts",
        'import { createOperations } from "../../operations/operations";\nexport const probe = createOperations;\n',
      ),
    ).toEqual([
      "The cloud seam and its drivers (platform/cloud/) may not import the domain modules (platform/operations/), a layer above it.",
    ]);
    expect(
      await layerErrors(
        "platform/team/probe.ts",
        'import { HttpError } from "../http/errors";\nexport const probe = HttpError;\n',
      ),
    ).toEqual([
      "The domain modules (platform/team/) may not import the HTTP routers (platform/http/), a layer above it.",
    ]);
    expect(
      await layerErrors(
        "platform/engine/probe.ts",
        'import { createDeploys } from "../deployments/deploys";\nexport const probe = createDeploys;\n',
      ),
    ).toEqual([
      "The engine (platform/engine/) may not import the domain modules (platform/deployments/), a layer above it.",
    ]);
  });

  it("refuses the test support in source, one driver in another, and a folder no layer names", async () => {
    expect(
      await layerErrors(
        "platform/services/probe.ts",
        'import { listen } from "../testing/provider-requests";\nexport const probe = listen;\n',
      ),
    ).toEqual(["Source never imports the test support (platform/testing/)."]);
    expect(
      await layerErrors(
        "platform/cloud/aws/probe.ts",
        'import { randomFrom } from "../simulated/random";\nexport const probe = randomFrom;\n',
      ),
    ).toEqual([
      "The cloud seam and each driver import no other driver (platform/cloud/simulated/): what two drivers share belongs in the seam.",
    ]);
    expect(
      await layerErrors("platform/unnamed/probe.ts", 'export { configOf } from "../cloud/configs";\n'),
    ).toEqual(["platform/unnamed/ is in no layer: name it in eslint.config.js."]);
  });

  it("lets a layer import its own folder and those below, and leaves tests free", async () => {
    expect(
      await layerErrors(
        "platform/http/probe.ts",
        'import { notFound } from "../lib/errors";\nimport { createOperations } from "../operations/operations";\nexport const probe = [notFound, createOperations];\n',
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        "platform/cloud/probe.test.ts",
        'import { openTestApi } from "../testing/http-harness";\nexport const probe = openTestApi;\n',
      ),
    ).toEqual([]);
  });
});
