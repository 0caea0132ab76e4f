import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { Certificate } from "#contract/services";
import { applicationPagePaths } from "./paths";

/**
 * What the certificate-match route answers for a domain: the environment's certificate that covers it (GET
 * certificates/match), or none, with a wildcard certificate of the domain itself (GET wildcardcertificate), which
 * covers its subdomains but not the domain, so the form can say what to do; or why the look-up failed.
 */
export type CertificateMatch =
  | { kind: "match"; domain: string; certificate: Certificate }
  | { kind: "none"; domain: string; wildcard: Certificate | null }
  | { kind: "error"; domain: string; message: string };

/** The shape GET certificates/match accepts; the form's own check says what is wrong with anything else. */
const DOMAIN_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOOKUP_DELAY_MS = 400;

/** The look-up of the certificate for `domain` as typed, once typing pauses; null while there is nothing to look up. */
export function useCertificateMatch(environmentName: string, domain: string) {
  const fetcher = useFetcher<CertificateMatch>();
  const { load } = fetcher;
  const host = domain.trim();
  const [asked, setAsked] = useState<string | null>(null);
  useEffect(() => {
    if (!DOMAIN_PATTERN.test(host)) return;
    const timer = setTimeout(() => {
      setAsked(host);
      load(applicationPagePaths.certificateMatch(environmentName, host));
    }, LOOKUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [environmentName, host, load]);
  if (!DOMAIN_PATTERN.test(host)) return { answer: null, loading: false };
  const answer = fetcher.data?.domain === host ? fetcher.data : null;
  return { answer, loading: fetcher.state !== "idle" || asked !== host };
}

/** "*.example.com (issued, expires 2026-01-31)" */
export function certificateLabel(certificate: Certificate): string {
  const status = { ISSUED: "issued", PENDING_VALIDATION: "pending validation", FAILED: "failed" }[
    certificate.status
  ];
  const expiry = certificate.expiresAt ? `, expires ${certificate.expiresAt.slice(0, 10)}` : "";
  return `${certificate.domain} (${status}${expiry})`;
}
