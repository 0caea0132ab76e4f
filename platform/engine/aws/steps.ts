/**
 * How a provisioner walks towards its goal: an ordered list of steps, each of which looks at what AWS has and either
 * finds its work done (the next step runs at once) or changes one thing, or must wait. A change ends the call, so
 * the engine persists what was just created before anything else happens; a crash then loses at most that one
 * answer, and the step finds the resource again by its tags or name.
 */

/** What the provisioner remembers between calls: ids, ARNs, names. Strings only (persisted as JSON). */
export type State = Record<string, string>;

/**
 * A step's answer. No `waitMs`: nothing to wait for, carry on with `state` merged. With `waitMs`: the call ends and
 * the engine calls again after that long (0 once something was created, so its id is saved first). An empty string
 * in `state` removes the key.
 */
export type StepOutcome = { state?: State; waitMs?: number; progress?: string };

export type Step = {
  /** What the service's phase shows while this step works, and what a failure of it is called. */
  progress: string;
  run: (state: State) => Promise<StepOutcome | void>;
};

export type StepsResult =
  | { done: true; state: State }
  | { done: false; state: State; waitMs: number; progress: string };

export async function runSteps(steps: readonly Step[], initial: Readonly<State>): Promise<StepsResult> {
  let state: State = { ...initial };
  for (const step of steps) {
    const outcome = await failingAs(step.progress, () => step.run(state));
    if (!outcome) continue;
    state = merged(state, outcome.state ?? {});
    if (outcome.waitMs !== undefined) {
      return { done: false, state, waitMs: outcome.waitMs, progress: outcome.progress ?? step.progress };
    }
  }
  return { done: true, state };
}

function merged(state: State, changes: State): State {
  const next = { ...state, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === "") delete next[key];
  return next;
}

/**
 * A failure of a step, in words a user can act on: the step, then AWS's own error code and message (or the
 * provisioner's reason). `code` is AWS's error code; for a refusal the provisioner makes itself (a name another
 * owner holds), the code AWS uses for such a conflict or a name of its own; null when AWS was not reached.
 */
export class ProvisionError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    readonly step: string | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ProvisionError";
  }
}

type SdkError = Error & { $fault?: unknown; $metadata?: { httpStatusCode?: unknown } };

/** Whether AWS answered with an error (rather than the call failing before any answer). */
function isServiceError(error: unknown): error is SdkError {
  return (
    error instanceof Error &&
    (typeof (error as SdkError).$fault === "string" ||
      typeof (error as SdkError).$metadata?.httpStatusCode === "number")
  );
}

/** The AWS error code of an SDK error (its name), or null. */
export function awsErrorCode(error: unknown): string | null {
  return isServiceError(error) ? error.name : null;
}

/** Whether `error` is AWS's answer with one of `codes`. */
export function isAwsError(error: unknown, ...codes: string[]): boolean {
  const code = awsErrorCode(error);
  return code !== null && codes.includes(code);
}

/** Runs `run`, naming any failure after `step` (with AWS's code and message when AWS refused). */
export async function failingAs<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProvisionError && error.step !== null) throw error;
    if (error instanceof ProvisionError) {
      throw new ProvisionError(`${step} failed: ${error.message}`, error.code, step, { cause: error });
    }
    const code = awsErrorCode(error);
    const detail = error instanceof Error ? error.message : String(error);
    throw new ProvisionError(
      code ? `${step} failed: AWS answered ${code}: ${detail}` : `${step} failed: ${detail}`,
      code,
      step,
      { cause: error },
    );
  }
}

/** Runs `call` and answers undefined when AWS says the thing is not there (any of `codes`). */
export async function unlessMissing<T>(call: () => Promise<T>, ...codes: string[]): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isAwsError(error, ...codes)) return undefined;
    throw error;
  }
}

/**
 * A wait that must not last for ever: the first call records when the wait began in `state[key]`, later ones
 * compare it with `now`; past `limitMs` the wait ends in a ProvisionError with `reason` (AWS's last word on it).
 * The step that sees the wait over clears `state[key]`.
 */
export function boundedWait(
  state: State,
  key: string,
  {
    now,
    limitMs,
    waitMs,
    progress,
    reason,
    code = null,
  }: {
    now: Date;
    limitMs: number;
    waitMs: number;
    progress: string;
    reason: string;
    code?: string | null;
  },
): StepOutcome {
  const since = state[key] ? Date.parse(state[key]) : now.getTime();
  if (now.getTime() - since > limitMs) {
    throw new ProvisionError(`gave up after ${Math.round(limitMs / 60_000)} minutes: ${reason}`, code);
  }
  return { state: { [key]: new Date(since).toISOString() }, waitMs, progress };
}
