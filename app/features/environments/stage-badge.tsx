import type { MantineSpacing } from "@mantine/core";
import type { Stage } from "#contract/stages";
import { mantineClasses } from "~/components/mantine-classes";

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

/**
 * Mantine's light Badge in the stage's colour, written as plain elements: lists show one per row. The colours
 * are `.stage-badge[data-color]` in styles/global.css.
 */
export function StageBadge({ stage, mt }: { stage: Stage; mt?: MantineSpacing }) {
  return (
    <div
      className={`${mantineClasses.badge} stage-badge`}
      data-variant="light"
      data-color={stageColors[stage] ?? "purple"}
      style={mt ? { marginTop: `var(--mantine-spacing-${mt})` } : undefined}
    >
      <span className={mantineClasses.badgeLabel}>{stageLabel(stage)}</span>
    </div>
  );
}
