/**
 * Runs `runDue` every `pollIntervalMs` until stopped, one run at a time: the loop of the platform's background
 * workers (notification deliveries, metric forwarding). A failed run is logged under `name` and the next one comes
 * on schedule.
 */
export function createPoller({
  name,
  pollIntervalMs,
  runDue,
}: {
  name: string;
  pollIntervalMs: number;
  runDue: () => Promise<unknown>;
}) {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;

  function schedule(delayMs: number) {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void poll(), delayMs);
  }

  async function poll() {
    if (tick) return;
    tick = runDue().then(
      () => undefined,
      (error: unknown) => console.error(`${name}: a run failed`, error),
    );
    await tick;
    tick = undefined;
    schedule(pollIntervalMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    /** Stops polling and waits for the run in progress to finish. */
    async stop() {
      running = false;
      clearTimeout(timer);
      await tick;
    },
    get isRunning() {
      return running;
    },
  };
}
