import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectionChecks, connections, organizations } from "../db/schema";
import { setContainerSockets } from "../lib/container-sockets";
import { setUpContainerEngine } from "../testing/container-engine";
import { openTestDb } from "../testing/db";
import { connectThisMachine } from "./this-machine";

const podman = setUpContainerEngine();
let database: Awaited<ReturnType<typeof openTestDb>>;
let dir: string;

beforeAll(async () => {
  database = await openTestDb();
  dir = mkdtempSync(path.join(tmpdir(), "this-machine-"));
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await database.db.delete(organizations).where(eq(organizations.id, "org_acme"));
  await database.db
    .insert(organizations)
    .values({ id: "org_acme", name: "acme-corp", displayName: "Acme Corp" });
});

const thisMachine = () =>
  database.db.select().from(connections).where(eq(connections.organizationId, "org_acme"));

describe('"This machine" for the demo organization (issue 26)', () => {
  it("connects the first listed socket whose engine answers, verified, once", async () => {
    const nothingThere = path.join(dir, "no-engine.sock");
    setContainerSockets([nothingThere, podman.socketPath]);
    const said = await connectThisMachine(database.db, { sockets: [nothingThere, podman.socketPath] });
    expect(said).toContain(`"This machine" connected for the demo organization at ${podman.dockerHost}`);
    expect(said).toContain("The container engine answered: Podman Engine");
    const [connection, ...others] = await thisMachine();
    expect(others).toEqual([]);
    expect(connection).toMatchObject({
      kind: "CONTAINER_HOST",
      name: "This machine",
      method: "docker-host",
      fields: { DOCKER_HOST: podman.dockerHost },
      status: "VERIFIED",
    });
    const checks = await database.db
      .select()
      .from(connectionChecks)
      .where(eq(connectionChecks.connectionId, connection?.id ?? ""));
    expect(checks).toMatchObject([{ ok: true, message: expect.stringContaining("Podman Engine") }]);

    // The next start finds it there and leaves it alone.
    expect(await connectThisMachine(database.db, { sockets: [podman.socketPath] })).toBeNull();
    expect(await thisMachine()).toHaveLength(1);
  });

  it("leaves the demo on the simulated cloud, saying so, when no engine answers", async () => {
    const nothingThere = path.join(dir, "no-engine.sock");
    setContainerSockets([nothingThere]);
    expect(await connectThisMachine(database.db, { sockets: [nothingThere] })).toBe(
      `no container engine answered on CONTAINER_SOCKETS (There is no socket at ${nothingThere}: check the ` +
        "path, and that the engine runs on this machine (the Docker daemon, or podman system service).): " +
        "the demo organization's environments run on the simulated cloud",
    );
    expect(await connectThisMachine(database.db, { sockets: [] })).toBe(
      "CONTAINER_SOCKETS lists no container engine socket: the demo organization's environments run on the " +
        "simulated cloud",
    );
    expect(await thisMachine()).toEqual([]);
  });
});
