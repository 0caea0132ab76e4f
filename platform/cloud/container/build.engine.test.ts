import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionSources } from "../../applications/sources";
import type { Credentials } from "../../connections/providers";
import { builtWebStart, setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
} from "../../testing/container-deploys";
import { providerContext, startFakeGitHub, type TestServer } from "../../testing/provider-servers";
import { CloudStepError, type ApplicationSources, type DriverResource, type NewLogLine } from "../driver";
import { imagesLabelled } from "./build";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

/*
 * A GitHub application on the container engine (issue 26): the repository's archive at the deployment's commit,
 * fetched through GitHub's tarball API with the connection's token (the test GitHub server checks it), built by
 * the real engine's build endpoint from a Dockerfile whose base is the test registry's image.
 */

const engine = setUpContainerEngine();
const token = "github-build-token-42";
const connectionId = randomUUID();
/** A commit pushed after the branch's head, with other files. */
const pushedSha = "c0ffee".padEnd(40, "0");
let github: TestServer;
let sources: ApplicationSources;

beforeAll(async () => {
  const base = engine.images.web;
  github = await startFakeGitHub({
    token,
    organizations: {
      acme: {
        repositories: [
          {
            name: "web",
            files: {
              Dockerfile: `FROM ${base}\nCOPY start.sh /start.sh\n`,
              "start.sh": builtWebStart("built from the branch"),
            },
            commits: {
              [pushedSha]: {
                // The Dockerfile outside the build context, which holds the start script.
                "docker/web.Dockerfile": `FROM ${base}\nCOPY start.sh /start.sh\n`,
                "site/start.sh": builtWebStart("built from the pushed commit"),
              },
            },
          },
          { name: "broken", files: { Dockerfile: `FROM ${base}\nRUN echo 'compiling' && exit 7\n` } },
          { name: "quiet", files: { Dockerfile: `FROM ${base}\nRUN sleep 3\n` } },
          {
            name: "slow",
            files: {
              Dockerfile: `FROM ${base}\nRUN echo 'compiling part 1' && sleep 3 && echo 'compiling part 2'\n`,
            },
          },
        ],
      },
    },
  });
  const credentials: Credentials = {
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    method: "token",
    fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
    secrets: { TOKEN: token },
  };
  sources = {
    ...connectionSources({
      connection: async (id) => (id === connectionId ? credentials : undefined),
      providerContext: providerContext(),
    }),
    chartRepositoryUrl: async () => undefined,
  };
}, 30_000);

afterAll(async () => {
  await github?.close();
});

const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function githubApplication(
  repository: string,
  { dockerfilePath = "Dockerfile", buildContext = "." } = {},
): DriverResource {
  const resource = containerApplicationResource("");
  return {
    ...resource,
    config: {
      ...resource.config,
      source: { kind: "github", connectionId, repository, branch: "main", dockerfilePath, buildContext },
    },
  };
}

const builtImages = (serviceId: string) => imagesLabelled(engine.engine, { [LABEL_SERVICE]: serviceId });

// Builds and several deployments per test: slow when the machine's two cores are shared.
describe("a GitHub application on the container engine", { timeout: 90_000 }, () => {
  it("builds the branch's head with the connection's token, logs the build's own output, runs it, and its teardown removes the image", async () => {
    const driver = driverOf();
    const resource = githubApplication("web");
    const deployed = await deployUntilDone(driver, containerContext(resource, {}, { sources }));

    expect(await (await fetch(`${deployed.endpoint ?? ""}/`)).text()).toBe("built from the branch\n");
    const messages = deployed.lines.map((line) => line.message);
    expect(messages[0]).toMatch(/^Cloning acme\/web at main \([0-9a-f]{7} Update web on main\)$/);
    // The engine's own build output (podman's "STEP 1/6: FROM …", Docker's "Step 1/2 : FROM …"; podman counts
    // the labels as steps).
    expect(messages).toContainEqual(
      expect.stringMatching(/^step 1\/\d+ ?: FROM 127\.0\.0\.1:\d+\/test\/web:1$/i),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^step 2\/\d+ ?: COPY start\.sh \/start\.sh$/i));
    expect(deployed.progress[0]).toBe("Building image");

    // The archive came through GitHub's tarball API with the connection's token.
    const tarball = github.requests.find((request) => request.path.startsWith("/repos/acme/web/tarball/"));
    expect(tarball?.headers.authorization).toBe(`Bearer ${token}`);
    expect(deployed.state.commit).toBe(tarball?.path.split("/").at(-1));

    const [image, ...others] = await builtImages(resource.id);
    expect(others).toEqual([]);
    expect(image?.Id).toBe(deployed.state.imageId);

    await destroyUntilDone(driver, containerContext(resource, deployed.state));
    expect(await builtImages(resource.id)).toEqual([]);
    expect(
      await engine.engine.listContainers({
        all: true,
        filters: labelFilter({ [LABEL_SERVICE]: resource.id }),
      }),
    ).toEqual([]);
  });

  it("builds a pushed commit with its Dockerfile outside the build context, rolls back to the image that ran before without a build, and keeps no older image", async () => {
    const driver = driverOf();
    const resource = githubApplication("web", {
      dockerfilePath: "docker/web.Dockerfile",
      buildContext: "site",
    });
    const atHead = { ...resource, config: githubApplication("web").config };
    const first = await deployUntilDone(driver, containerContext(atHead, {}, { sources }));
    const push = { sha: pushedSha, message: "Move the site\n\nAnd its Dockerfile." };
    const pushed = await deployUntilDone(
      driver,
      containerContext(resource, first.state, { sources, pushedCommit: push }),
    );

    expect(await (await fetch(`${pushed.endpoint ?? ""}/`)).text()).toBe("built from the pushed commit\n");
    expect(pushed.lines[0]?.message).toBe("Cloning acme/web at main (c0ffee0 Move the site)");
    expect(pushed.state.commit).toBe(pushedSha);
    expect(first.state.image).toMatch(/^localhost\/cloud-console\/web-[0-9a-f]{8}:[0-9a-f]{12}$/);
    const ids = async () => (await builtImages(resource.id)).map((image) => image.Id).sort();
    // The image that ran before stays for a rollback.
    expect(await ids()).toEqual([first.state.imageId, pushed.state.imageId].sort());

    // A rollback to the first version, as the rollback route pins it: its image, built nothing.
    const rolledBack = await deployUntilDone(
      driver,
      containerContext(resource, {
        ...pushed.state,
        pinnedImage: first.state.image ?? "",
        pinnedDigest: first.state.imageDigest ?? "",
      }),
    );
    expect(await (await fetch(`${rolledBack.endpoint ?? ""}/`)).text()).toBe("built from the branch\n");
    expect(rolledBack.lines[0]?.message).toBe(
      `Rolling back: deploying ${first.state.image} (${first.state.imageDigest}) exactly as it was built before (no build)`,
    );
    expect(rolledBack.lines.map((line) => line.message)).not.toContainEqual(expect.stringMatching(/^STEP /i));

    // The next build replaces the pushed image (which ran before) and keeps the first (running until then).
    const again = await deployUntilDone(
      driver,
      containerContext(resource, rolledBack.state, { sources, pushedCommit: push }),
    );
    expect(await ids()).toEqual([first.state.imageId, again.state.imageId].sort());
    expect(await ids()).not.toContain(pushed.state.imageId);

    // An image no longer kept cannot be rolled back to: said, nothing built in its place.
    const refused = await driver
      .apply(
        containerContext(resource, {
          ...again.state,
          pinnedImage: pushed.state.image ?? "",
          pinnedDigest: pushed.state.imageDigest ?? "",
        }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CloudStepError);
    expect((refused as Error).message).toMatch(
      /^The image this version ran \(localhost\/cloud-console\/.*\) is no longer on the container host: only the version that ran before the current one can be rolled back to\. Deploy its commit instead\.$/,
    );
    await destroyUntilDone(driver, containerContext(resource, again.state));
    expect(await ids()).toEqual([]);
  });

  it("writes the build's output to the deployment's logs while it runs, not only when it ends", async () => {
    const driver = driverOf();
    const resource = githubApplication("slow");
    const written: { message: string; at: number }[] = [];
    const writeLines = async (lines: NewLogLine[]) => {
      written.push(...lines.map((line) => ({ message: line.message, at: Date.now() })));
    };
    const step = await driver.apply(containerContext(resource, {}, { sources, writeLines }));
    const ended = Date.now();

    const part1 = written.find((line) => line.message === "compiling part 1");
    const part2 = written.find((line) => line.message === "compiling part 2");
    // Part 1 was in the logs while the build slept, seconds before the step ended.
    expect(part1?.at).toBeLessThan((part2?.at ?? ended) - 1000);
    expect(written.map((line) => line.message)[0]).toMatch(/^Cloning acme\/slow at main/);
    // What was written while the step ran is not answered again with it.
    const answered = step.lines.map((line) => line.message);
    expect(answered).not.toContain("compiling part 1");
    expect([...written.map((line) => line.message), ...answered]).toContainEqual(
      expect.stringMatching(/^Successfully built localhost\/cloud-console\//),
    );
    await destroyUntilDone(driver, containerContext(resource, step.state));
    expect(await builtImages(resource.id)).toEqual([]);
  });

  it("waits out a build step that writes nothing for longer than an engine call may take", async () => {
    // An engine call gives up after a second of silence here; the build's `RUN sleep 3` says nothing for three.
    const driver = createContainerDriver({
      dockerHost: engine.dockerHost,
      timeScale: 0.05,
      callTimeoutMs: 1000,
    });
    const resource = githubApplication("quiet");
    const built = await driver.apply(containerContext(resource, {}, { sources }));
    expect(built.state.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(built.lines.map((line) => line.message)).toContainEqual(
      expect.stringMatching(/^step 2\/\d+ ?: RUN sleep 3$/i),
    );
    await destroyUntilDone(driverOf(), containerContext(resource, built.state));
    expect(await builtImages(resource.id)).toEqual([]);
  });

  it("stops waiting for a build that runs longer than the deployment may take, saying so; the teardown removes what it left", async () => {
    // 0.02 minutes: 1.2 s, and the build's `RUN sleep 3` takes three.
    const driver = createContainerDriver({
      dockerHost: engine.dockerHost,
      timeScale: 0.05,
      timeoutMinutes: 0.02,
    });
    const resource = githubApplication("quiet");
    const failure = await driver
      .apply(containerContext(resource, {}, { sources }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CloudStepError);
    expect((failure as Error).message).toBe(
      "The build did not finish within 0.02 minutes: the deployment stopped waiting for it.",
    );
    // Podman may finish the build after its request closed: the service's teardown removes its image then.
    const deadline = Date.now() + 15_000;
    do {
      await destroyUntilDone(driverOf(), containerContext(resource, {}));
      await new Promise((resolve) => setTimeout(resolve, 500));
    } while ((await builtImages(resource.id)).length > 0 && Date.now() < deadline);
    expect(await builtImages(resource.id)).toEqual([]);
  });

  it("fails the deployment with the build's error and output when the Dockerfile does not build", async () => {
    const driver = driverOf();
    const resource = githubApplication("broken");
    const failure = await deployUntilDone(driver, containerContext(resource, {}, { sources })).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CloudStepError);
    expect((failure as CloudStepError).transient).toBe(false);
    expect((failure as Error).message).toMatch(
      /^The build failed: the container engine said: .*exit status 7/,
    );
    expect((failure as CloudStepError).lines.map((line) => line.message)).toContain("compiling");
    expect(await builtImages(resource.id)).toEqual([]);
  });
});
