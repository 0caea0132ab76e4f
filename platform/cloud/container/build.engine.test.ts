import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionSources } from "../../applications/sources";
import type { Credentials } from "../../connections/providers";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
} from "../../testing/container-deploys";
import { providerContext, startFakeGitHub, type TestServer } from "../../testing/provider-servers";
import { CloudStepError, type ApplicationSources, type DriverResource } from "../driver";
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

/** The repository's own start script: the page says which files were built. */
const startScript = (page: string) => `mkdir -p /www
echo "${page}" > /www/index.html
echo ok > /www/healthz
exec httpd -f -p 8080 -h /www
`;

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
              "start.sh": startScript("built from the branch"),
            },
            commits: {
              [pushedSha]: {
                // The Dockerfile outside the build context, which holds the start script.
                "docker/web.Dockerfile": `FROM ${base}\nCOPY start.sh /start.sh\n`,
                "site/start.sh": startScript("built from the pushed commit"),
              },
            },
          },
          { name: "broken", files: { Dockerfile: `FROM ${base}\nRUN echo 'compiling' && exit 7\n` } },
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

const builtImages = (serviceId: string) =>
  engine.engine.listImages({ filters: labelFilter({ [LABEL_SERVICE]: serviceId }) });

describe("a GitHub application on the container engine", () => {
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

  it("builds a pushed commit, with its Dockerfile outside the build context, and removes the image it replaced", async () => {
    const driver = driverOf();
    const resource = githubApplication("web", {
      dockerfilePath: "docker/web.Dockerfile",
      buildContext: "site",
    });
    const atHead = { ...resource, config: githubApplication("web").config };
    const first = await deployUntilDone(driver, containerContext(atHead, {}, { sources }));
    const firstImage = first.state.imageId;
    const pushed = await deployUntilDone(
      driver,
      containerContext(resource, first.state, {
        sources,
        pushedCommit: { sha: pushedSha, message: "Move the site\n\nAnd its Dockerfile." },
      }),
    );

    expect(await (await fetch(`${pushed.endpoint ?? ""}/`)).text()).toBe("built from the pushed commit\n");
    expect(pushed.lines[0]?.message).toBe("Cloning acme/web at main (c0ffee0 Move the site)");
    expect(pushed.state.commit).toBe(pushedSha);
    expect((await builtImages(resource.id)).map((image) => image.Id)).toEqual([pushed.state.imageId]);
    expect(first.state.image).toMatch(/^localhost\/cloud-console\/web-[0-9a-f]{8}:[0-9a-f]{12}$/);
    expect(pushed.lines.map((line) => line.message)).toContain(`Removed image ${first.state.image ?? ""}`);
    expect(firstImage).not.toBe(pushed.state.imageId);
    await destroyUntilDone(driver, containerContext(resource, pushed.state));
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
