import { afterEach, describe, expect, it } from "vitest";
import { setContainerSockets } from "../../lib/container-sockets";
import { emptyOutboundAllowList, setOutboundAllowList } from "../../lib/egress";
import { testOutboundAllowList } from "../../testing/egress";
import { missingEngineTools, setUpContainerEngine } from "../../testing/container-engine";
import { connectEngine, engineStepError, parseDockerHost } from "./engine";

const engine = setUpContainerEngine();

afterEach(() => {
  setOutboundAllowList(testOutboundAllowList);
  setContainerSockets([engine.socketPath]);
});

describe("the container engine's client", () => {
  it("talks to the engine DOCKER_HOST names, with the test images in the local registry", async () => {
    const client = await connectEngine(engine.dockerHost);
    expect((await client.version()).ApiVersion).toBeTruthy();
    const catalog = await (await fetch(`http://${engine.registry}/v2/_catalog`)).json();
    expect(catalog).toEqual({ repositories: ["test/crashing", "test/unhealthy", "test/web"] });
  });

  it("has its tests fail, naming the packages to install, where the engine is missing", () => {
    expect(missingEngineTools()).toBeNull();
    expect(
      missingEngineTools({ podman: "/usr/bin/podman", runc: "/nonexistent/runc", "docker-registry": "/no" }),
    ).toBe(
      "The containers driver's tests need a container engine: apt-get install -y runc docker-registry " +
        "(as root; .ci/run does it in CI).",
    );
  });

  it("accepts unix sockets, tcp hosts and https hosts only", () => {
    expect(parseDockerHost("tcp://docker.example.com:2376").port).toBe("2376");
    for (const wrong of [
      "/var/run/docker.sock",
      "http://docker.example.com",
      "unix://relative.sock",
      "ssh://docker",
    ]) {
      expect(() => parseDockerHost(wrong), wrong).toThrow(
        `DOCKER_HOST ${JSON.stringify(wrong)} is neither unix:///path/to/docker.sock nor tcp://host:port nor https://host:port`,
      );
    }
  });

  it("calls a tcp host only where the egress policy allows it", async () => {
    setOutboundAllowList(emptyOutboundAllowList);
    await expect(connectEngine("tcp://127.0.0.1:2375")).rejects.toThrow(
      "The platform does not call 127.0.0.1: it is a loopback address (this machine).",
    );
  });

  it("opens a unix socket only when CONTAINER_SOCKETS lists it", async () => {
    setContainerSockets([]);
    await expect(connectEngine(engine.dockerHost)).rejects.toMatchObject({
      message: expect.stringContaining(
        `The platform does not open ${engine.socketPath} for a connection: a container engine's socket controls this machine`,
      ),
      transient: false,
    });
  });

  it("words the engine's refusals with its status and message, transient when it failed on its side", async () => {
    const refused = await engine.engine
      .getContainer("no-such-container")
      .inspect()
      .catch((error: unknown) => engineStepError("Reading the container", error));
    expect(refused).toMatchObject({
      message: expect.stringMatching(
        /^Reading the container failed: the container engine answered 404: .*no such container/,
      ),
      transient: false,
    });
    setContainerSockets([engine.socketPath, "/nonexistent/podman.sock"]);
    const unanswered = await (await connectEngine("unix:///nonexistent/podman.sock"))
      .version()
      .catch((error: unknown) => engineStepError("Asking the version", error));
    expect(unanswered).toMatchObject({
      message: expect.stringMatching(
        /^Asking the version failed: the container engine did not answer \(ENOENT/,
      ),
      transient: true,
    });
  });
});
