import { CloudStepError, type RegistryAuth } from "../driver";
import { engineStepError, type Engine } from "./engine";

/** What the containers driver's pulls share: following the engine's progress, and the lines it is logged as. */

type ProgressEvent = { error?: unknown; status?: string; id?: string; progress?: string };

function followed(engine: Engine, stream: NodeJS.ReadableStream): Promise<ProgressEvent[]> {
  return new Promise((resolve, reject) => {
    engine.modem.followProgress(stream, (error: Error | null, events: ProgressEvent[]) =>
      error ? reject(engineStepError("Pulling the image", error)) : resolve(events),
    );
  });
}

/** The pull's progress as `docker pull` prints it once done: one line per status, without the progress bars. */
function pullLines(events: ProgressEvent[]): string[] {
  const lines: string[] = [];
  for (const event of events) {
    if (!event.status || event.progress) continue;
    const line = event.id ? `${event.id}: ${event.status}` : event.status;
    if (lines.at(-1) !== line) lines.push(line.trim());
  }
  return lines.filter(Boolean).slice(-50);
}

/**
 * Pulls `reference`, with a registry connection's `auth` when it has one, and answers the engine's progress as
 * log lines; a refusal fails the step in the engine's words.
 */
export async function pulled(engine: Engine, reference: string, auth?: RegistryAuth): Promise<string[]> {
  const stream = await engine.pull(reference, auth ? { authconfig: auth } : {}).catch((error: unknown) => {
    throw engineStepError(`Pulling ${reference}`, error);
  });
  const events = await followed(engine, stream);
  const failed = events.find((event) => event.error);
  if (failed) {
    throw new CloudStepError(
      `Pulling ${reference} failed: the container engine said: ${String(failed.error)}`,
      {
        transient: false,
      },
    );
  }
  return pullLines(events);
}

/** Pulls `reference` (an official image by its Docker Hub name), logging its progress; answers the image's id. */
export async function pullImage(engine: Engine, reference: string, log: (message: string) => void) {
  log(`Pulling image "${reference}"`);
  for (const line of await pulled(engine, reference)) log(line);
  const inspected = await engine.getImage(reference).inspect();
  log(`Successfully pulled image "${reference}"`);
  return inspected.Id;
}
