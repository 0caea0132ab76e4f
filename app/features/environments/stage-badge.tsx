import { Badge } from "@mantine/core";
import type { Stage } from "#contract/stages";

const stageColors: Partial<Record<Stage, string>> = {
  STAGE_COMPLETED: "success",
  STAGE_FAILED: "red",
  STAGE_IN_PROGRESS: "blue",
  STAGE_SYNCING: "blue",
  STAGE_QUEUED: "gray",
  STAGE_CANCELING: "warning",
  STAGE_CANCELED: "warning",
};

/** STAGE_READY_TO_DEPLOY → "Ready to deploy". */
export function stageLabel(stage: Stage): string {
  const words = stage
    .replace(/^STAGE_/, "")
    .toLowerCase()
    .replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StageBadge({ stage, ...props }: { stage: Stage; mt?: string }) {
  return (
    <Badge variant="light" color={stageColors[stage] ?? "purple"} {...props}>
      {stageLabel(stage)}
    </Badge>
  );
}
