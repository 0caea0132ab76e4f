import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answers, containerEnginePlan, usualContainerSockets } from "./container-engine.mjs";

describe('which container engine `npm start` offers as "This machine" (issue 26)', () => {
  it("tries DOCKER_HOST's socket first, then Podman's and Docker's usual sockets, then the rootless one", () => {
    expect(
      usualContainerSockets({
        DOCKER_HOST: "unix:///home/me/docker.sock",
        XDG_RUNTIME_DIR: "/run/user/1000",
      }),
    ).toEqual([
      "/home/me/docker.sock",
      "/run/podman/podman.sock",
      "/var/run/docker.sock",
      "/run/user/1000/podman/podman.sock",
    ]);
    expect(usualContainerSockets({ DOCKER_HOST: "tcp://build-host:2375" })).toEqual([
      "/run/podman/podman.sock",
      "/var/run/docker.sock",
    ]);
  });

  it("lists the sockets an engine answers on", () => {
    const found = ["/run/podman/podman.sock"];
    expect(containerEnginePlan({}, { answering: found, podmanInstalled: true, uid: 0 })).toEqual({
      kind: "found",
      sockets: found,
    });
  });

  it("keeps the operator's CONTAINER_SOCKETS, even empty, and adds nothing in production", () => {
    const found = ["/run/podman/podman.sock"];
    expect(
      containerEnginePlan({ CONTAINER_SOCKETS: "" }, { answering: found, podmanInstalled: true, uid: 0 }),
    ).toEqual({ kind: "operator" });
    expect(
      containerEnginePlan({ NODE_ENV: "production" }, { answering: found, podmanInstalled: true, uid: 0 }),
    ).toEqual({ kind: "production" });
  });

  it("starts podman's service at its usual socket when podman is installed but no engine answers", () => {
    expect(containerEnginePlan({}, { answering: [], podmanInstalled: true, uid: 0 })).toEqual({
      kind: "start-podman",
      socket: "/run/podman/podman.sock",
    });
    expect(
      containerEnginePlan(
        { XDG_RUNTIME_DIR: "/run/user/1000" },
        { answering: [], podmanInstalled: true, uid: 1000 },
      ),
    ).toEqual({ kind: "start-podman", socket: "/run/user/1000/podman/podman.sock" });
  });

  it("leaves the simulated cloud without an engine or podman", () => {
    expect(containerEnginePlan({}, { answering: [], podmanInstalled: false, uid: 0 })).toEqual({
      kind: "none",
    });
    expect(containerEnginePlan({}, { answering: [], podmanInstalled: true, uid: 1000 })).toEqual({
      kind: "none",
    });
  });
});

describe("an engine that answers", () => {
  let dir: string;
  let engine: Server;
  let notAnEngine: Server;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "start-engine-"));
    engine = createServer((request, response) =>
      response.writeHead(request.url === "/_ping" ? 200 : 404).end("OK"),
    );
    notAnEngine = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => engine.listen(path.join(dir, "engine.sock"), resolve));
    await new Promise<void>((resolve) => notAnEngine.listen(path.join(dir, "other.sock"), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => engine.close(resolve));
    await new Promise((resolve) => notAnEngine.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("is one whose socket answers Docker's ping; a missing socket or another server is not", async () => {
    expect(await answers(path.join(dir, "engine.sock"))).toBe(true);
    expect(await answers(path.join(dir, "other.sock"))).toBe(false);
    expect(await answers(path.join(dir, "missing.sock"))).toBe(false);
  });
});
