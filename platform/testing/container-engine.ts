import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../tests/setup/moto-server";
import { connectEngine, type Engine } from "../cloud/container/engine";
import { LABEL_ORGANIZATION, labelFilter } from "../cloud/container/labels";
import { setContainerSockets } from "../lib/container-sockets";
import { testOrganizationId } from "./container-deploys";
import { CONTAINERS_CONF } from "../../scripts/lib/container-engine.mjs";
import {
  OFFICIAL_IMAGE_SOURCES,
  OFFICIAL_IMAGES,
  busyboxContext,
  officialContexts,
  type OfficialImage,
} from "./official-images";

export type { OfficialImage };

// Vitest's hooks only in a test run: the e2e stack starts the same engine outside vitest (containerEngine), where
// importing vitest throws.
const vitest = process.env.VITEST ? await import("vitest") : undefined;

/**
 * A real container engine for the containers driver's tests (issue 26): `podman system service` on a socket of
 * its own, a local registry (Debian's docker-registry) on a free loopback port, and the test images built from
 * busybox-static through the engine's build endpoint and pushed there. No mock of the client: what passes here
 * passes against Docker's API as Podman serves it. Without podman the tests fail saying what to install.
 *
 * The registry is also the engine's Docker Hub mirror (registries.conf: `docker.io` mirrored to it, plain HTTP):
 * there is no internet here, so the official images a test asks for (`officialImages`) are stand-ins built here
 * and pushed under their official names (`library/nginx:1.27`). The driver pulls `nginx:1.27` (the engine
 * normalises it to docker.io/library/nginx:1.27) exactly as on a Docker host with internet; a name the mirror
 * does not hold fails its pull rather than reach Docker Hub.
 */

/** What these machines need (.ci/run installs them as root). */
const REQUIRED = {
  podman: "/usr/bin/podman",
  "docker-registry": "/usr/bin/docker-registry",
  "busybox-static": "/bin/busybox",
  runc: "/usr/sbin/runc",
} as const;

/** The containers.conf podman needs on these machines: one copy, the start script's (it starts podman too). */
export { CONTAINERS_CONF } from "../../scripts/lib/container-engine.mjs";

/** The images the tests deploy, as pushed to the local registry (`127.0.0.1:PORT/test/web:1`). */
export type TestImages = {
  /** busybox httpd on 8080: `/` answers `hello $GREETING`, `/healthz` answers ok. */
  web: string;
  /** The same server without `/healthz` (404): its health check never passes. */
  unhealthy: string;
  /** Exits with code 3 at start, after a line on stderr. */
  crashing: string;
};

/** A registry that asks for credentials, holding the web image (`setUpContainerEngine({ privateRegistry: true })`). */
export type PrivateRegistry = { host: string; username: string; password: string; image: string };

export type ContainerEngine = {
  /** DOCKER_HOST of the engine: unix:///tmp/…/podman.sock. */
  dockerHost: string;
  /** The engine's socket, listed in CONTAINER_SOCKETS by the set-up (a test that lists others keeps it). */
  socketPath: string;
  engine: Engine;
  /** host:port of the local registry (plain HTTP on loopback). */
  registry: string;
  images: TestImages;
  /** Started only when asked for. */
  privateRegistry: PrivateRegistry;
};

/**
 * Why the engine's tests cannot run here, naming the packages to install; null when everything is there. The
 * tests fail with it rather than skip: `npm test` skips nothing silently.
 */
export function missingEngineTools(required: Record<string, string> = REQUIRED): string | null {
  const missing = Object.entries(required)
    .filter(([, file]) => !existsSync(file))
    .map(([name]) => name);
  return missing.length
    ? `The containers driver's tests need a container engine: apt-get install -y ${missing.join(" ")} ` +
        "(as root; .ci/run does it in CI)."
    : null;
}

const webDockerfile = (withHealth: boolean) => `FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
COPY start.sh /start.sh
${withHealth ? "" : "ENV NO_HEALTH=1\n"}EXPOSE 8080
CMD ["/bin/sh", "/start.sh"]
`;

/** Writes the page from the container's environment at start, so a changed variable shows after a redeploy. */
const webStart = `mkdir -p /www
echo "hello \${GREETING:-world}" > /www/index.html
[ -z "$NO_HEALTH" ] && echo ok > /www/healthz
echo "listening on 8080"
exec httpd -f -v -p 8080 -h /www
`;

/** A repository's own start script for an image built `FROM` the web image: its page says what was built. */
export const builtWebStart = (page: string) => `mkdir -p /www
echo "${page}" > /www/index.html
echo ok > /www/healthz
exec httpd -f -p 8080 -h /www
`;

const crashingDockerfile = `FROM scratch
COPY busybox /bin/busybox
CMD ["/bin/busybox", "sh", "-c", "echo 'fatal: cannot start' >&2; exit 3"]
`;

async function waitFor(what: string, check: () => Promise<boolean>, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}:\n${log()}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not answer within 30 s:\n${log()}`);
}

function started(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, log: () => output };
}

async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** Builds `context` (a tar with its Dockerfile) through the engine's build endpoint, tagged `tag`, and pushes it. */
async function buildAndPush(engine: Engine, tag: string, context: Buffer) {
  const build = await engine.buildImage(context as unknown as NodeJS.ReadableStream, { t: tag });
  const output = await followed(engine, build);
  const failed = output.find((event) => event.error);
  if (failed) throw new Error(`Building ${tag} failed: ${String(failed.error)}`);
  const [repository, version] = [tag.slice(0, tag.lastIndexOf(":")), tag.slice(tag.lastIndexOf(":") + 1)];
  const push = await engine.getImage(repository).push({ tag: version });
  const pushed = await followed(engine, push);
  const refused = pushed.find((event) => event.error);
  if (refused) throw new Error(`Pushing ${tag} failed: ${String(refused.error)}`);
}

/** Gives the image `from` the name `tag` too, and pushes it under that name. */
async function tagAndPush(engine: Engine, from: string, tag: string) {
  const colon = tag.lastIndexOf(":");
  await engine.getImage(from).tag({ repo: tag.slice(0, colon), tag: tag.slice(colon + 1) });
  const pushed = await followed(
    engine,
    await engine.getImage(tag.slice(0, colon)).push({ tag: tag.slice(colon + 1) }),
  );
  const refused = pushed.find((event) => event.error);
  if (refused) throw new Error(`Pushing ${tag} failed: ${String(refused.error)}`);
}

type ProgressEvent = { error?: unknown; stream?: string; status?: string };

function followed(engine: Engine, stream: NodeJS.ReadableStream): Promise<ProgressEvent[]> {
  return new Promise((resolve, reject) => {
    engine.modem.followProgress(stream, (error: Error | null, events: ProgressEvent[]) =>
      error ? reject(error) : resolve(events),
    );
  });
}

/**
 * Removes the names (tags and digest references) the images `ids` carry in the registries `hosts`, so the
 * machine's store does not grow run after run. Names only: another file's engine may be using the same image
 * (the builds are cached) under its own names; the image goes with its last name.
 */
async function forgetNames(engine: Engine, ids: string[], hosts: string[]) {
  for (const id of ids) {
    const image = await engine
      .getImage(id)
      .inspect()
      .catch(() => undefined);
    const names = [...(image?.RepoTags ?? []), ...(image?.RepoDigests ?? [])];
    for (const name of names.filter((one) => hosts.some((host) => one.startsWith(`${host}/`)))) {
      await engine
        .getImage(name)
        .remove()
        .catch(() => undefined);
    }
  }
}

/**
 * A docker-registry on a free loopback port, storing in `dir`; with `htpasswd`, it asks for credentials. One that
 * does not answer in time is stopped and started again on another port, once: on a loaded shared machine one did
 * not answer for 30 s (the port taken between its choice and the registry's bind is one suspect).
 */
async function startRegistry(dir: string, name: string, htpasswd?: string) {
  try {
    return await startRegistryOnce(dir, name, htpasswd);
  } catch (error) {
    console.warn(`container engine tests: ${error instanceof Error ? error.message : error}; trying again`);
    return startRegistryOnce(dir, name, htpasswd);
  }
}

async function startRegistryOnce(dir: string, name: string, htpasswd?: string) {
  const host = `127.0.0.1:${await freePort()}`;
  const config = [
    "version: 0.1",
    "log: { level: warn }",
    `storage: { filesystem: { rootdirectory: ${path.join(dir, name)} }, delete: { enabled: true } }`,
    `http: { addr: ${host} }`,
  ];
  if (htpasswd) {
    writeFileSync(path.join(dir, `${name}.htpasswd`), htpasswd);
    config.push(`auth: { htpasswd: { realm: ${name}, path: ${path.join(dir, `${name}.htpasswd`)} } }`);
  }
  writeFileSync(path.join(dir, `${name}.yml`), `${config.join("\n")}\n`);
  const { child, log } = started(REQUIRED["docker-registry"], ["serve", path.join(dir, `${name}.yml`)], {});
  // /v2/ answers 401 when it asks for credentials: either way it is up.
  try {
    await waitFor(
      "docker-registry",
      async () =>
        [200, 401].includes(
          (await fetch(`http://${host}/v2/`, { signal: AbortSignal.timeout(5000) })).status,
        ),
      child,
      log,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return { host, child };
}

/**
 * The registry's htpasswd line: it accepts bcrypt only, which Node lacks; Python's crypt module (libxcrypt) has
 * it, and Python is on these machines (moto_server).
 */
function htpasswdLine(username: string, password: string): string {
  const result = spawnSync(
    "python3",
    [
      "-c",
      "import crypt, sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH)))",
      password,
    ],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`Could not hash the test registry's password: ${result.stderr}`);
  return `${username}:${result.stdout.trim()}\n`;
}

type EngineOptions = { privateRegistry?: boolean; officialImages?: OfficialImage[] };

/**
 * Starts the engine, the registry and the test images for the calling file in beforeAll (a few seconds: the
 * images are tiny) and stops them in afterAll, with any container a failed test of the file left. The
 * engine's image store is the machine's (root's podman): a deployment's pull of a test image asks the registry,
 * which answers it is already there. `privateRegistry` adds a registry that asks for credentials.
 */
export function setUpContainerEngine(options: EngineOptions = {}): ContainerEngine {
  if (!vitest)
    throw new Error("setUpContainerEngine registers vitest's hooks: outside vitest use containerEngine");
  const { handle, start, stop: stopEngine } = containerEngine(options);
  // Building and pushing the PostgreSQL stand-in (84 MB) takes a minute when six people share two cores.
  vitest.beforeAll(start, 300_000);
  vitest.afterAll(stopEngine);
  return handle;
}

/** The same engine as plain start and stop, for a process of its own (the e2e stack's, tests/setup/). */
export function containerEngine({ privateRegistry = false, officialImages = [] }: EngineOptions = {}): {
  handle: ContainerEngine;
  start: () => Promise<void>;
  stop: () => Promise<void>;
} {
  let ready: ContainerEngine | undefined;
  let podman: ChildProcess | undefined;
  const registries: ChildProcess[] = [];
  let privateImage: PrivateRegistry | undefined;
  /** The test images' ids, and the registries whose names this file gives them. */
  const imageIds: string[] = [];
  /** Those of the official stand-ins, which keep the official name a pull gave them until removed by id. */
  const officialIds: string[] = [];
  const hosts: string[] = [];
  let dir: string | undefined;

  const start = async () => {
    const missing = missingEngineTools({
      ...REQUIRED,
      ...Object.assign({}, ...officialImages.map((name) => OFFICIAL_IMAGE_SOURCES[name])),
    });
    if (missing) throw new Error(missing);
    dir = mkdtempSync(path.join(tmpdir(), "container-engine-"));
    const registry = await startRegistry(dir, "registry");
    registries.push(registry.child);
    const credentials = { username: "deployer", password: "pull-s3cret" };
    const locked = privateRegistry
      ? await startRegistry(dir, "private", htpasswdLine(credentials.username, credentials.password))
      : undefined;
    if (locked) registries.push(locked.child);
    writeFileSync(path.join(dir, "containers.conf"), CONTAINERS_CONF);
    // A registry on loopback speaks plain HTTP: podman must be told it may. The first is Docker Hub's mirror.
    writeFileSync(
      path.join(dir, "registries.conf"),
      [
        ...[registry.host, ...(locked ? [locked.host] : [])].map(
          (host) => `[[registry]]\nlocation = "${host}"\ninsecure = true\n`,
        ),
        `[[registry]]\nlocation = "docker.io"\n\n[[registry.mirror]]\nlocation = "${registry.host}"\ninsecure = true\n`,
      ].join("\n"),
    );
    const registryHost = registry.host;

    const socket = path.join(dir, "podman.sock");
    const dockerHost = `unix://${socket}`;
    // As the operator lists it: the driver opens no socket that is not listed.
    setContainerSockets([socket]);
    const podmanProcess = started(REQUIRED.podman, ["system", "service", "--time=0", dockerHost], {
      CONTAINERS_CONF: path.join(dir, "containers.conf"),
      CONTAINERS_REGISTRIES_CONF: path.join(dir, "registries.conf"),
    });
    podman = podmanProcess.child;
    const engine = await connectEngine(dockerHost);
    await waitFor(
      "podman system service",
      async () => Boolean(await engine.version()),
      podman,
      podmanProcess.log,
    );

    const images: TestImages = {
      web: `${registryHost}/test/web:1`,
      unhealthy: `${registryHost}/test/unhealthy:1`,
      crashing: `${registryHost}/test/crashing:1`,
    };
    // A label of this file's own makes its images its own (the layers stay cached): files running side by side
    // on the machine's one store never add or remove names on each other's images.
    const own = (dockerfile: string) => `${dockerfile}LABEL test.registry="${registryHost}"\n`;
    await buildAndPush(
      engine,
      images.web,
      busyboxContext({ Dockerfile: own(webDockerfile(true)), "start.sh": webStart }),
    );
    await buildAndPush(
      engine,
      images.unhealthy,
      busyboxContext({ Dockerfile: own(webDockerfile(false)), "start.sh": webStart }),
    );
    await buildAndPush(engine, images.crashing, busyboxContext({ Dockerfile: own(crashingDockerfile) }));
    // The official stand-ins carry the file's label too: files building them side by side (the build cache would
    // give them one image) never remove each other's. The official name a pull leaves in the machine's store
    // (docker.io/library/postgres:16) moves to the last file's image; each file removes its own at the end.
    const mirrored: string[] = [];
    for (const name of officialImages) {
      // Docker Hub's official images are under `library/`; others (`valkey/valkey`) under their own namespace.
      const [first = "", ...more] = OFFICIAL_IMAGES[name].map(
        (tag) => `${registryHost}/${tag.includes("/") ? tag : `library/${tag}`}`,
      );
      await buildAndPush(engine, first, officialContexts[name](`LABEL test.registry="${registryHost}"\n`));
      for (const tag of more) await tagAndPush(engine, first, tag);
      mirrored.push(first, ...more);
    }
    const builtIds = await Promise.all(
      [...Object.values(images), ...mirrored].map(
        async (image) => (await engine.getImage(image).inspect()).Id,
      ),
    );
    imageIds.push(...builtIds);
    officialIds.push(...builtIds.slice(Object.values(images).length));
    if (locked) {
      const image = `${locked.host}/test/private-web:1`;
      await engine.getImage(images.web).tag({ repo: `${locked.host}/test/private-web`, tag: "1" });
      const auth = { ...credentials, serveraddress: locked.host };
      const refused = (await followed(engine, await engine.getImage(image).push({ authconfig: auth }))).find(
        (event) => event.error,
      );
      if (refused) throw new Error(`Pushing ${image} failed: ${String(refused.error)}`);
      privateImage = { host: locked.host, ...credentials, image };
    }
    hosts.push(registryHost, ...(locked ? [locked.host] : []));
    // The tests pull the images as a deployment would: the names the build and the pushes gave them go (the
    // pushes' digests are of the local manifests, not the registry's).
    await forgetNames(engine, imageIds, hosts);
    ready = {
      dockerHost,
      socketPath: socket,
      engine,
      registry: registryHost,
      images,
      get privateRegistry(): PrivateRegistry {
        if (!privateImage) throw new Error("setUpContainerEngine({ privateRegistry: true }) starts one");
        return privateImage;
      },
    };
  };

  const stopEngine = async () => {
    // Whatever a failed test left goes with the engine: only this file's (its organization's label), since
    // another file's engine shares the machine's store.
    if (ready) {
      const { engine } = ready;
      const left = await engine.listContainers({
        all: true,
        filters: labelFilter({ [LABEL_ORGANIZATION]: testOrganizationId }),
      });
      for (const container of left) await engine.getContainer(container.Id).remove({ force: true });
      const { Volumes: volumes } = await engine.listVolumes({
        filters: labelFilter({ [LABEL_ORGANIZATION]: testOrganizationId }),
      });
      for (const volume of volumes ?? []) await engine.getVolume(volume.Name).remove({ force: true });
      const networks = await engine.listNetworks({
        filters: labelFilter({ [LABEL_ORGANIZATION]: testOrganizationId }),
      });
      // 404: removed meanwhile by the test still running when its time-out ended it.
      for (const network of networks) {
        await engine
          .getNetwork(network.Id)
          .remove()
          .catch((error: { statusCode?: number }) => {
            if (error.statusCode !== 404) throw error;
          });
      }
      await forgetNames(engine, imageIds, hosts);
      // This file's stand-ins are its own (its label): they go with whatever official name they still carry.
      for (const id of new Set(officialIds)) {
        await engine
          .getImage(id)
          .remove({ force: true })
          .catch(() => undefined);
      }
    }
    await stop(podman);
    for (const child of registries) await stop(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  };

  const handle = <Key extends keyof ContainerEngine>(key: Key): ContainerEngine[Key] => {
    if (!ready)
      throw new Error("The container engine starts in beforeAll: use its handle in hooks and tests");
    return ready[key];
  };
  const engineHandle: ContainerEngine = {
    get dockerHost() {
      return handle("dockerHost");
    },
    get socketPath() {
      return handle("socketPath");
    },
    get engine() {
      return handle("engine");
    },
    get registry() {
      return handle("registry");
    },
    get images() {
      return handle("images");
    },
    get privateRegistry() {
      return handle("privateRegistry");
    },
  };
  return { handle: engineHandle, start, stop: stopEngine };
}
