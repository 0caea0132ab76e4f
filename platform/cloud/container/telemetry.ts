import type { ContainerInfo } from "dockerode";
import type { NewLogLine } from "../driver";
import { engineStepError, type Engine } from "./engine";
import { LABEL_ROLE, LABEL_SERVICE, labelFilter } from "./labels";

/**
 * What the logs and monitoring tabs read of a service on a container engine (issue 26): its containers' own
 * output and their resource use, straight from the engine (no agent, no log shipping). The domain side
 * (a TelemetrySource in platform/deployments/) stores the lines in resource_logs like CloudWatch's.
 */

/** The service's own running containers (a one-off command's output goes to its deployment's logs instead). */
const runningContainersOf = async (engine: Engine, serviceId: string): Promise<ContainerInfo[]> =>
  (await engine.listContainers({ filters: labelFilter({ [LABEL_SERVICE]: serviceId }) })).filter(
    (container) => !container.Labels[LABEL_ROLE],
  );

const nameOf = (container: ContainerInfo) =>
  container.Names[0]?.replace(/^\//, "") ?? container.Id.slice(0, 12);

/** A line's level from its words, as log tools read them: the engine only knows stdout from stderr. */
function levelOf(message: string): NewLogLine["level"] {
  if (/\b(ERROR|FATAL|CRITICAL|PANIC)\b|level=(error|fatal)|"level"\s*:\s*"(error|fatal)"/i.test(message)) {
    return "error";
  }
  if (/\bWARN(ING)?\b|level=warn|"level"\s*:\s*"warn(ing)?"/i.test(message)) return "warn";
  if (/\b(DEBUG|TRACE)\b|level=(debug|trace)/i.test(message)) return "debug";
  return "info";
}

/**
 * The lines the service's running containers wrote in [from, until), oldest first, each under its container's
 * name; at most `limit` (the newest kept). The engine stamps each line when the container wrote it.
 */
export async function containerLogLines(
  engine: Engine,
  serviceId: string,
  { from, until, limit }: { from: Date; until: Date; limit: number },
): Promise<NewLogLine[]> {
  const lines: NewLogLine[] = [];
  try {
    for (const container of await runningContainersOf(engine, serviceId)) {
      const output = await engine.getContainer(container.Id).logs({
        stdout: true,
        stderr: true,
        timestamps: true,
        follow: false,
        since: Math.floor(from.getTime() / 1000),
      });
      for (const line of framedLines(output)) {
        const space = line.indexOf(" ");
        const at = new Date(line.slice(0, space));
        if (Number.isNaN(at.getTime()) || at < from || at >= until) continue;
        const message = line.slice(space + 1);
        lines.push({ at, podName: nameOf(container), level: levelOf(message), message });
      }
    }
  } catch (error) {
    throw engineStepError("Reading the containers' logs", error);
  }
  return lines.sort((a, b) => a.at.getTime() - b.at.getTime()).slice(-limit);
}

/** Docker's multiplexed stream (an 8-byte header per frame: stream, 0, 0, 0, size) as its lines. */
export function framedLines(buffer: Buffer): string[] {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= buffer.length && buffer[offset + 1] === 0 && buffer[offset + 2] === 0) {
    const size = buffer.readUInt32BE(offset + 4);
    parts.push(buffer.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  // A container with a TTY writes raw text, without frames.
  const text = parts.length ? Buffer.concat(parts).toString("utf8") : buffer.toString("utf8");
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter(Boolean);
}

/** The last lines a container wrote, stdout and stderr (what a failed start shows in the deployment's logs). */
export async function lastLinesOf(engine: Engine, id: string, tail: number): Promise<string[]> {
  const output = await engine
    .getContainer(id)
    .logs({ stdout: true, stderr: true, tail, follow: false })
    .catch(() => Buffer.alloc(0));
  return framedLines(output);
}

/** One sample of a container's use: CPU as a share of its CPU limit, memory of its memory limit. */
export type ContainerUsage = { name: string; at: Date; cpuPercent: number; memoryPercent: number };

type Stats = {
  read: string;
  cpu_stats: { cpu_usage: { total_usage: number }; system_cpu_usage?: number; online_cpus?: number };
  precpu_stats: { cpu_usage: { total_usage: number }; system_cpu_usage?: number };
  memory_stats: { usage?: number; limit?: number };
};

/** How long apart two stats reads are when the engine answers no previous reading (Podman). */
const CPU_SPAN_MS = 1000;

/**
 * A sample of each running container of the service. CPU is a rate: Docker's one-shot stats carry the reading a
 * second before (`precpu_stats`), Podman's carry none, so without one the container is read again a second later,
 * as `docker stats` does.
 */
export async function containerUsage(engine: Engine, serviceId: string): Promise<ContainerUsage[]> {
  try {
    const read = async (container: ContainerInfo): Promise<ContainerUsage> => {
      const handle = engine.getContainer(container.Id);
      const { HostConfig } = await handle.inspect();
      let stats = (await handle.stats({ stream: false })) as unknown as Stats;
      let before = stats.precpu_stats;
      if (!before.system_cpu_usage) {
        before = stats.cpu_stats;
        await new Promise((resolve) => setTimeout(resolve, CPU_SPAN_MS));
        stats = (await handle.stats({ stream: false })) as unknown as Stats;
      }
      const cpuDelta = stats.cpu_stats.cpu_usage.total_usage - before.cpu_usage.total_usage;
      const systemDelta = (stats.cpu_stats.system_cpu_usage ?? 0) - (before.system_cpu_usage ?? 0);
      const cpus = stats.cpu_stats.online_cpus ?? 1;
      // Of the machine's CPUs, then of the container's limit (NanoCpus), as Fargate's CPUUtilization reads.
      const ofMachine = systemDelta > 0 ? (cpuDelta / systemDelta) * cpus : 0;
      const limit = HostConfig.NanoCpus ? HostConfig.NanoCpus / 1e9 : cpus;
      const memoryLimit = HostConfig.Memory || stats.memory_stats.limit || 0;
      return {
        name: nameOf(container),
        at: new Date(stats.read),
        cpuPercent: Math.max(0, (ofMachine / limit) * 100),
        memoryPercent: memoryLimit ? ((stats.memory_stats.usage ?? 0) / memoryLimit) * 100 : 0,
      };
    };
    const samples = await Promise.all((await runningContainersOf(engine, serviceId)).map(read));
    return samples;
  } catch (error) {
    throw engineStepError("Reading the containers' stats", error);
  }
}
