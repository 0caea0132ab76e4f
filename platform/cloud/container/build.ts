import { gunzipSync } from "node:zlib";
import { packTar, unpackTar } from "modern-tar";
import { CloudStepError } from "../driver";
import { engineStepError, type Engine } from "./engine";
import { labelFilter } from "./labels";

/**
 * A GitHub application built on the container engine (issue 26): the repository's archive at the deployment's
 * commit becomes the build context, and the engine's build endpoint (what `docker build` calls) builds it. The
 * build's own output is what the deployment's logs show.
 */

/** Where the Dockerfile goes in the context when it sits outside the build context (as `docker build -f` does). */
const OUTSIDE_DOCKERFILE = ".cloud-console.Dockerfile";

/**
 * The Dockerfile's path in the repository, read as the simulated cloud reads it: a bare file name with a build
 * context other than the root is in that directory; any other path is from the repository's root.
 */
export function dockerfileInRepository(source: { dockerfilePath: string; buildContext: string }): string {
  return source.buildContext === "." || source.dockerfilePath.includes("/")
    ? source.dockerfilePath
    : `${trimmed(source.buildContext)}/${source.dockerfilePath}`;
}

const trimmed = (directory: string) => directory.replace(/^\.\/+/, "").replace(/\/+$/, "");

/**
 * The build context of a GitHub tarball (gzipped, every entry under one top directory): the entries under
 * `buildContext`, at the root of a plain tar; `dockerfile` is the Dockerfile's path in it.
 */
export async function buildContextOf(
  archive: Uint8Array,
  source: { dockerfilePath: string; buildContext: string },
): Promise<{ tar: Uint8Array; dockerfile: string }> {
  let entries;
  try {
    entries = await unpackTar(gunzipSync(archive), { strip: 1 });
  } catch (error) {
    throw new CloudStepError(
      `The repository's archive could not be read: ${error instanceof Error ? error.message : String(error)}`,
      { transient: false },
    );
  }
  const directory = trimmed(source.buildContext);
  const prefix = directory === "" || directory === "." ? "" : `${directory}/`;
  const dockerfilePath = dockerfileInRepository(source);
  const inContext = entries
    .filter((entry) => entry.header.name.startsWith(prefix) && entry.header.name !== prefix)
    .map((entry) => ({
      ...entry,
      header: { ...entry.header, name: entry.header.name.slice(prefix.length) },
    }));
  const file = entries.find((entry) => entry.header.name === dockerfilePath && entry.data);
  if (!file) {
    throw new CloudStepError(`The repository has no ${dockerfilePath} at this commit.`, { transient: false });
  }
  if (dockerfilePath.startsWith(prefix)) {
    return { tar: await packTar(inContext), dockerfile: dockerfilePath.slice(prefix.length) };
  }
  const outside = { ...file, header: { ...file.header, name: OUTSIDE_DOCKERFILE } };
  return { tar: await packTar([...inContext, outside]), dockerfile: OUTSIDE_DOCKERFILE };
}

type BuildEvent = {
  stream?: string;
  error?: unknown;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
};

/**
 * Builds `tar` on the engine as `tag` with `labels` (what the teardown finds it by); `onLines` gets the build's
 * output as it comes. Answers the image's id; a failed build fails the step with the engine's words.
 */
export async function buildImage(
  engine: Engine,
  {
    tar,
    dockerfile,
    tag,
    labels,
    timeoutMs,
    onLines,
  }: {
    tar: Uint8Array;
    dockerfile: string;
    tag: string;
    labels: Record<string, string>;
    /** The build's request is closed when it runs longer (Docker then ends the build; Podman may finish it). */
    timeoutMs: number;
    onLines: (lines: string[]) => void;
  },
): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  const stepError = (error: unknown) => {
    if (!signal.aborted) return engineStepError("Building the image", error);
    const minutes = Math.round((timeoutMs / 60_000) * 100) / 100;
    return new CloudStepError(
      `The build did not finish within ${minutes} minute${minutes === 1 ? "" : "s"}: the deployment stopped waiting for it.`,
      { transient: false },
    );
  };
  const stream = await engine
    .buildImage(Buffer.from(tar) as unknown as NodeJS.ReadableStream, {
      t: tag,
      dockerfile,
      labels,
      rm: true,
      forcerm: true,
      abortSignal: signal,
    })
    .catch((error: unknown) => {
      throw stepError(error);
    });
  const events = await new Promise<BuildEvent[]>((resolve, reject) => {
    engine.modem.followProgress(
      stream,
      (error: Error | null, all: BuildEvent[]) => (error ? reject(stepError(error)) : resolve(all)),
      (event: BuildEvent) => {
        const lines = (event.stream ?? "")
          .split(/\r?\n/)
          .map((line) => line.trimEnd())
          .filter(Boolean);
        if (lines.length) onLines(lines);
      },
    );
  });
  const failed = events.find((event) => event.error);
  if (failed) {
    const said = failed.errorDetail?.message ?? String(failed.error);
    throw new CloudStepError(`The build failed: the container engine said: ${said.trim()}`, {
      transient: false,
    });
  }
  const inspected = await engine
    .getImage(tag)
    .inspect()
    .catch((error: unknown) => {
      throw engineStepError("Reading the built image", error);
    });
  return inspected.Id;
}

/**
 * The images carrying all of `labels` (the ones built for a service or an environment). Podman fails a listing
 * with 500 "image not known" when an image goes while it lists (another deployment's removal): it is asked again.
 */
export async function imagesLabelled(engine: Engine, labels: Record<string, string>) {
  const filters = labelFilter(labels);
  for (let attempt = 1; ; attempt++) {
    try {
      return await engine.listImages({ filters });
    } catch (error) {
      const raced =
        (error as { statusCode?: number }).statusCode === 500 && /image not known/.test(String(error));
      if (!raced || attempt === 3) throw engineStepError("Listing the built images", error);
    }
  }
}
