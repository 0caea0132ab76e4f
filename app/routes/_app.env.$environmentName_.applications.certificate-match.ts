import { data, type LoaderFunctionArgs } from "@remix-run/node";
import type { CertificateMatch } from "~/features/applications/certificate-match";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { getWildcardCertificate, matchCertificate } from "~/platform/services.server";

/**
 * GET ?domain=app.example.com: the environment's certificate that covers the domain (GET certificates/match: by
 * name, or a wildcard one level up). With none, the wildcard certificate of the domain itself (GET
 * wildcardcertificate) is named too, since it covers the domain's subdomains but not the domain: the form says so.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  const domain = (new URL(request.url).searchParams.get("domain") ?? "").trim();
  const answer = (value: CertificateMatch) => data(value, { headers });
  try {
    const [certificate, wildcard] = await Promise.all([
      matchCertificate(api, tenantId, environment.id, domain),
      getWildcardCertificate(api, tenantId, environment.id, domain),
    ]);
    return certificate
      ? answer({ kind: "match", domain, certificate })
      : answer({ kind: "none", domain, wildcard });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return answer({ kind: "error", domain, message: userMessageOf(error) });
  }
}
