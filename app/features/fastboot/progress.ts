import type { Fastboot } from "#contract/fastboot";

/** The progress page's one-line summary. */
export function progressSummary(fastboot: Pick<Fastboot, "status" | "resources">): string {
  if (fastboot.status === "completed") return "Everything is deployed.";
  if (fastboot.status === "failed") return "Stopped: a service did not deploy. Read its logs, then retry it.";
  const deployed = fastboot.resources.filter((resource) => resource.stage === "STAGE_COMPLETED").length;
  return `Deploying: ${deployed} of ${fastboot.resources.length} services deployed. This page follows along.`;
}
