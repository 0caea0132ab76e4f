import type { CloudConnectionJobStatus } from "#contract/tools";

/** SPEC §4 generation card states. */
export type GenerationCardState = "INITIATED" | "READY" | "DOWNLOADED";

export type GenerationCardEvent =
  | { type: "job-status"; status: CloudConnectionJobStatus }
  | { type: "downloaded" };

/** INITIATED → READY when the job is COMPLETED; READY → DOWNLOADED on download; nothing goes back. */
export function generationCardReducer(
  state: GenerationCardState,
  event: GenerationCardEvent,
): GenerationCardState {
  if (event.type === "job-status")
    return state === "INITIATED" && event.status === "COMPLETED" ? "READY" : state;
  return state === "READY" ? "DOWNLOADED" : state;
}

/** The download button waits (loading) while the card is INITIATED or there is no link yet (SPEC §4). */
export function isDownloadPending(
  state: GenerationCardState,
  downloadUrl: string | null | undefined,
): boolean {
  return state === "INITIATED" || !downloadUrl;
}
