/**
 * SPEC §9: the cloning state is refreshed every 5 minutes, also while the page is in the background. The
 * environment's layout reloads its data (the stage and the cloning state) this often while the stage is in
 * progress (useRevalidateWhile); the clone page looks again at the busy poll interval while a step runs.
 */
export const CLONE_STATE_REFRESH_MS = 5 * 60 * 1000;
