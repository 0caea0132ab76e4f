import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpContainerEngine } from "../../testing/container-engine";
import { testOrganizationId } from "../../testing/container-deploys";
import { LABEL_ORGANIZATION } from "./labels";
import { readinessOf, type ReadinessCheck } from "./probe";
import { pullImage } from "./pull";

/*
 * A data service's readiness is asked through the engine (decision 072): a command of the server's own image, run
 * in its container, so the check reaches the server on a Docker host on a network too. Any kind plugs its command
 * in; these are the generic refusals, on the test's web image (busybox, no database client).
 */

const engine = setUpContainerEngine();
let containerId = "";

beforeAll(async () => {
  await pullImage(engine.engine, engine.images.web, () => {});
  const created = await engine.engine.createContainer({
    Image: engine.images.web,
    Labels: { [LABEL_ORGANIZATION]: testOrganizationId },
  });
  await created.start();
  containerId = created.id;
}, 60_000);

afterAll(async () => {
  if (containerId) await engine.engine.getContainer(containerId).remove({ force: true });
});

const check = (Cmd: string[]): ReadinessCheck => ({
  command: (password) => ({ Cmd, Env: [`SECRET=${password}`] }),
  answer: (exitCode, output) => ({ healthy: exitCode === 0, said: `${Cmd[0]}: ${output} (${exitCode})` }),
});

describe("a data service's readiness, asked in its container", () => {
  it("answers what the command said and its exit code, with the variables the kind gave it", async () => {
    expect(
      await readinessOf(
        engine.engine,
        containerId,
        "web",
        check(["sh", "-c", 'echo "up with $SECRET"']),
        "s3",
      ),
    ).toEqual({ healthy: true, said: "sh: up with s3 (0)" });
    expect(
      await readinessOf(
        engine.engine,
        containerId,
        "web",
        check(["sh", "-c", "echo starting >&2; exit 1"]),
        "",
      ),
    ).toEqual({ healthy: false, said: "sh: starting (1)" });
  }, 60_000);

  it("fails the step in words when the image has no such command, instead of waiting for it", async () => {
    await expect(
      readinessOf(engine.engine, containerId, "web:1", check(["pg_isready", "-h", "127.0.0.1"]), ""),
    ).rejects.toThrow(
      "The image web:1 has no pg_isready: the driver asks the server's own client in its container whether it " +
        "accepts connections.",
    );
  }, 60_000);
});
