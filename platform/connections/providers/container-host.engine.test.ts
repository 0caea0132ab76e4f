import { createServer, type Server } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../providers";
import { setContainerSockets } from "../../lib/container-sockets";
import { closedPortUrl, providerContext } from "../../testing/provider-servers";
import { setUpContainerEngine } from "../../testing/container-engine";
import { containerHost } from "./container-host";

const podman = setUpContainerEngine();
const context = providerContext();
const check = (DOCKER_HOST: string) => {
  const credentials: Credentials = {
    kind: "CONTAINER_HOST",
    method: "docker-host",
    fields: { DOCKER_HOST },
    secrets: {},
  };
  return containerHost.check(credentials, context);
};

let dir: string;
let deadSocket: string;
let notAnEngine: Server;
let notAnEngineSocket: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "container-host-"));
  // A socket that answers, but not HTTP: it closes every connection at once.
  notAnEngineSocket = path.join(dir, "not-an-engine.sock");
  notAnEngine = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => notAnEngine.listen(notAnEngineSocket, resolve));
  deadSocket = path.join(dir, "dead.sock");
  // As the operator would list them in CONTAINER_SOCKETS: unlisted, none of them would be opened.
  setContainerSockets([podman.socketPath, notAnEngineSocket, deadSocket]);
});

afterAll(async () => {
  setContainerSockets([]);
  await new Promise((resolve) => notAnEngine.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("checking a container host (issue 26)", () => {
  it("confirms an engine that answers the version call, with what it is", async () => {
    const result = await check(podman.dockerHost);
    expect(result).toEqual({
      ok: true,
      message: expect.stringMatching(
        /^The container engine answered: Podman Engine 4\.\d+\.\d+ \(Docker Engine API 1\.\d+, linux\/amd64\)\.$/,
      ),
      details: [
        expect.stringMatching(/^Engine: Podman Engine 4\./),
        expect.stringMatching(/^Docker Engine API: 1\.\d+$/),
        expect.stringMatching(/^Platform: linux\/\w+$/),
      ],
    });
  });

  it("says there is no socket at a wrong path", async () => {
    expect(await check(`unix://${deadSocket}`)).toEqual({
      ok: false,
      message: `There is no socket at ${deadSocket}: check the path, and that the engine runs on this machine (the Docker daemon, or podman system service).`,
      details: [],
      field: "DOCKER_HOST",
    });
  });

  it("says when something else listens on the socket", async () => {
    expect(await check(`unix://${notAnEngineSocket}`)).toMatchObject({
      ok: false,
      message: `${notAnEngineSocket} did not answer as a container engine: the connection was closed without an answer.`,
      field: "DOCKER_HOST",
    });
  });

  it("opens no socket the operator has not listed, not even a working engine's", async () => {
    setContainerSockets([]);
    try {
      expect(await check(podman.dockerHost)).toEqual({
        ok: false,
        message: `The platform does not open ${podman.socketPath} for a connection: a container engine's socket controls this machine, so only the sockets the operator lists in CONTAINER_SOCKETS may be named (none is listed).`,
        details: [],
        field: "DOCKER_HOST",
      });
    } finally {
      setContainerSockets([podman.socketPath, notAnEngineSocket, deadSocket]);
    }
  });

  it("says a tcp host refused the connection", async () => {
    const { host } = new URL(await closedPortUrl());
    expect(await check(`tcp://${host}`)).toEqual({
      ok: false,
      message: `Could not reach ${host}: the connection was refused.`,
      details: [],
      field: "DOCKER_HOST",
    });
  });

  it("refuses a tcp host the egress policy refuses, without calling it", async () => {
    expect(await check("tcp://169.254.169.254:2375")).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^The platform does not call 169\.254\.169\.254: it is a link-local address/,
      ),
      field: "DOCKER_HOST",
    });
  });
});
