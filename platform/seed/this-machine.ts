import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { checkDockerHost } from "../connections/providers/container-host";
import { recordCheck } from "../connections/records";
import type { Database } from "../db/index";
import { connections, organizations } from "../db/schema";

/** The demo organization's container host connection: the engine of the machine the platform runs on. */
export const THIS_MACHINE = "This machine";
const DEMO_ORGANIZATION_ID = "org_acme";

/**
 * Gives the demo organization a verified "This machine" connection to the first listed socket whose engine
 * answers (issue 26), so fastboot and new environments deploy for real by default. It runs at every start, not
 * only with the first seed: an engine started later is found then. Nothing changes when the organization already
 * has it, or when no engine answers: environments keep the simulated cloud, and the line returned says which.
 * Only listed sockets are tried (CONTAINER_SOCKETS), as a tenant's connection could name.
 */
export async function connectThisMachine(
  db: Database,
  { sockets, now = new Date() }: { sockets: readonly string[]; now?: Date },
): Promise<string | null> {
  const [organization] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, DEMO_ORGANIZATION_ID));
  if (!organization) return null;
  const [existing] = await db
    .select({ id: connections.id })
    .from(connections)
    .where(and(eq(connections.organizationId, organization.id), eq(connections.name, THIS_MACHINE)));
  if (existing) return null;
  const refused: string[] = [];
  for (const socket of sockets) {
    const DOCKER_HOST = `unix://${socket}`;
    const check = await checkDockerHost(DOCKER_HOST);
    if (!check.ok) {
      refused.push(check.message);
      continue;
    }
    await db.transaction(async (tx) => {
      const id = randomUUID();
      await tx.insert(connections).values({
        id,
        organizationId: organization.id,
        kind: "CONTAINER_HOST",
        name: THIS_MACHINE,
        method: "docker-host",
        fields: { DOCKER_HOST },
        status: "VERIFIED",
        createdAt: now,
        updatedAt: now,
      });
      await recordCheck(tx, id, check, null, now);
    });
    return `"${THIS_MACHINE}" connected for the demo organization at ${DOCKER_HOST}: ${check.message}`;
  }
  const why = sockets.length
    ? `no container engine answered on CONTAINER_SOCKETS (${refused.join(" ")})`
    : "CONTAINER_SOCKETS lists no container engine socket";
  return `${why}: the demo organization's environments run on the simulated cloud`;
}
