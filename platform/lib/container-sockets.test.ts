import { afterEach, describe, expect, it } from "vitest";
import {
  checkedContainerSocket,
  ContainerSocketRefusedError,
  parseContainerSockets,
  setContainerSockets,
} from "./container-sockets";

afterEach(() => setContainerSockets([]));

describe("the container sockets a tenant may name (CONTAINER_SOCKETS)", () => {
  it("reads absolute paths, comma-separated, and says which entries are not", () => {
    expect(parseContainerSockets(" /run/podman/podman.sock, /var/run/docker.sock ,")).toEqual({
      sockets: ["/run/podman/podman.sock", "/var/run/docker.sock"],
      problems: [],
    });
    expect(parseContainerSockets("docker.sock").problems).toEqual([
      "docker.sock is not an absolute socket path (such as /var/run/docker.sock)",
    ]);
  });

  it("lets a listed socket through, the same file however the path is written", () => {
    setContainerSockets(["/run/podman/podman.sock"]);
    expect(checkedContainerSocket("/run/podman/podman.sock")).toBe("/run/podman/podman.sock");
    expect(checkedContainerSocket("/run/./podman//podman.sock")).toBe("/run/podman/podman.sock");
  });

  it("refuses every other socket, saying why and what the operator can do", () => {
    setContainerSockets(["/run/podman/podman.sock"]);
    for (const path of ["/var/run/docker.sock", "/run/podman/../docker.sock"]) {
      expect(() => checkedContainerSocket(path)).toThrow(ContainerSocketRefusedError);
    }
    setContainerSockets([]);
    expect(() => checkedContainerSocket("/var/run/docker.sock")).toThrow(
      "The platform does not open /var/run/docker.sock for a connection: a container engine's socket controls " +
        "this machine, so only the sockets the operator lists in CONTAINER_SOCKETS may be named (none is listed).",
    );
  });
});
