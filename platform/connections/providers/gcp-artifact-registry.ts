import { endpoint, jsonOf } from "../http";
import type { Credentials, Provider, Repository, Tag } from "../providers";
import { gcpAccessToken } from "./gcp";
import { checkWith, fetchOrRefuse, ProviderRefusal } from "../refusals";

/**
 * Google Artifact Registry (SPEC §3): one Docker-format repository of a project, read with the service account's
 * token through the Artifact Registry REST API (v1). Its "repositories" for the product are the repository's
 * images, each with its tags.
 */

const DEFAULT_API_URL = "https://artifactregistry.googleapis.com";
/** A repository of many thousand images is listed in pages of 1,000; more pages than this is a loop, not data. */
const MAX_PAGES = 100;

type GoogleError = {
  error?: { code?: number; message?: string; status?: string; details?: { reason?: string }[] };
};
type DockerImage = { name?: string; tags?: string[]; uploadTime?: string; updateTime?: string };

function repositoryPath({ fields }: Credentials): string {
  const segment = (value: string | undefined) => encodeURIComponent(value ?? "");
  return (
    `/v1/projects/${segment(fields.PROJECT_ID)}/locations/${segment(fields.GCP_ARTIFACT_REGISTRY_LOCATION)}` +
    `/repositories/${segment(fields.GCP_ARTIFACT_REGISTRY_REPOSITORY)}`
  );
}

/** Where images of the repository are pulled from: {location}-docker.pkg.dev/{project}/{repository}. */
function pullAddress({ fields }: Credentials): string {
  return `${fields.GCP_ARTIFACT_REGISTRY_LOCATION}-docker.pkg.dev/${fields.PROJECT_ID}/${fields.GCP_ARTIFACT_REGISTRY_REPOSITORY}`;
}

/** Artifact Registry's refusal (Google's error object) in plain words, with the field to fix. */
function apiRefusal(
  status: number,
  body: GoogleError | undefined,
  credentials: Credentials,
): ProviderRefusal {
  const { PROJECT_ID: project, GCP_ARTIFACT_REGISTRY_LOCATION: location } = credentials.fields;
  const repository = credentials.fields.GCP_ARTIFACT_REGISTRY_REPOSITORY;
  const reason = body?.error?.details?.find((detail) => detail.reason)?.reason;
  const said = body?.error?.message ? ` (${body.error.message})` : "";
  if (status === 404) {
    return new ProviderRefusal(
      `Project ${project} has no Artifact Registry repository ${repository} in ${location}.`,
      "GCP_ARTIFACT_REGISTRY_REPOSITORY",
    );
  }
  if (status === 403 && reason === "SERVICE_DISABLED") {
    return new ProviderRefusal(
      `The Artifact Registry API is not enabled in project ${project}: enable it in the Google Cloud console, then try again.`,
      "PROJECT_ID",
    );
  }
  if (status === 403) {
    return new ProviderRefusal(
      `The service account ${credentials.fields.GCP_CLIENT_EMAIL} may not read the repository ${repository} (or it ` +
        `does not exist in ${location}): grant it the Artifact Registry Reader role on it.`,
      "GCP_CLIENT_EMAIL",
    );
  }
  if (status === 401) {
    return new ProviderRefusal(
      `Artifact Registry did not accept the service account's token${said}.`,
      "GCP_SERVICE_ACCOUNT_KEY",
    );
  }
  return new ProviderRefusal(`Artifact Registry answered ${status}${said}.`, "BASE_URL");
}

/** GETs an Artifact Registry API path with the service account's token; its JSON, or a refusal. */
async function getJson<T>(credentials: Credentials, token: string, path: string): Promise<T> {
  const url = endpoint(credentials.fields.BASE_URL ?? DEFAULT_API_URL, path);
  const response = await fetchOrRefuse(
    url,
    { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } },
    "BASE_URL",
  );
  const body = await jsonOf(response);
  if (!response.ok) throw apiRefusal(response.status, body as GoogleError | undefined, credentials);
  if (!body || typeof body !== "object") {
    throw new ProviderRefusal(
      `${url.host} answered without JSON: is it the Artifact Registry API?`,
      "BASE_URL",
    );
  }
  return body as T;
}

/** Every image version of the repository (dockerImages.list, page by page). */
async function dockerImages(credentials: Credentials): Promise<DockerImage[]> {
  const { token } = await gcpAccessToken(credentials);
  const images: DockerImage[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ pageSize: "1000", ...(pageToken ? { pageToken } : {}) });
    const answer = await getJson<{ dockerImages?: DockerImage[]; nextPageToken?: string }>(
      credentials,
      token,
      `${repositoryPath(credentials)}/dockerImages?${query}`,
    );
    images.push(...(answer.dockerImages ?? []));
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return images;
}

/** "projects/…/dockerImages/team%2Fapp@sha256:…" → { image: "team/app", digest: "sha256:…" }. */
function imageOf(version: DockerImage): { image: string; digest: string | null } | undefined {
  const encoded = version.name?.split("/dockerImages/")[1];
  if (!encoded) return undefined;
  const [image = "", digest] = decodeURIComponent(encoded).split("@");
  return image ? { image, digest: digest ?? null } : undefined;
}

export const gcpArtifactRegistry: Provider = {
  check: (credentials) =>
    checkWith(async () => {
      const { token, clientEmail } = await gcpAccessToken(credentials);
      const repository = await getJson<{ format?: string; description?: string }>(
        credentials,
        token,
        repositoryPath(credentials),
      );
      const name = credentials.fields.GCP_ARTIFACT_REGISTRY_REPOSITORY;
      if (repository.format !== "DOCKER") {
        throw new ProviderRefusal(
          `The repository ${name} holds ${repository.format ?? "unknown"} packages, not Docker images: choose a Docker repository.`,
          "GCP_ARTIFACT_REGISTRY_REPOSITORY",
        );
      }
      return {
        message: `Artifact Registry let ${clientEmail} read the Docker repository ${pullAddress(credentials)}.`,
        details: [
          `Service account ${clientEmail}`,
          `Repository ${pullAddress(credentials)}`,
          ...(repository.description ? [repository.description] : []),
        ],
      };
    }),

  async repositories(credentials) {
    const latest = new Map<string, string | null>();
    for (const version of await dockerImages(credentials)) {
      const image = imageOf(version)?.image;
      if (!image) continue;
      const updated = version.updateTime ?? version.uploadTime ?? null;
      const known = latest.get(image) ?? null;
      latest.set(image, known && (!updated || known > updated) ? known : updated);
    }
    return [...latest]
      .map(
        ([name, updatedAt]): Repository => ({
          name,
          description: `${pullAddress(credentials)}/${name}`,
          updatedAt,
        }),
      )
      .sort((a, b) => a.name.localeCompare(b.name));
  },

  async tags(credentials, _context, repository) {
    const versions = (await dockerImages(credentials)).filter(
      (version) => imageOf(version)?.image === repository,
    );
    if (versions.length === 0) {
      throw new ProviderRefusal(
        `The repository ${pullAddress(credentials)} has no image named ${repository}.`,
      );
    }
    const tags = versions.flatMap((version) =>
      (version.tags ?? []).map(
        (name): Tag => ({
          name,
          digest: imageOf(version)?.digest ?? null,
          pushedAt: version.uploadTime ?? null,
        }),
      ),
    );
    // The newest first, as the registry's console lists them.
    return tags.sort(
      (a, b) => (b.pushedAt ?? "").localeCompare(a.pushedAt ?? "") || a.name.localeCompare(b.name),
    );
  },
};
