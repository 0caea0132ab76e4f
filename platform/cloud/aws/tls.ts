import type { CertificateDetail } from "@aws-sdk/client-acm";
import type * as AcmSdk from "@aws-sdk/client-acm";
import type { ServiceConfig } from "#contract/service-configs";
import { configOf } from "../configs";
import { clientTokenOf, ownedBy, tagList, tagRecord, tagsOf } from "./naming";
import type { ApplyResult, DestroyResult, ProvisionContext, Provisioner } from "./provisioner";
import type { Observation } from "../driver";
import {
  ProvisionError,
  runSteps,
  unlessMissing,
  type State,
  type Step,
  failingAs,
  changePlanOf,
} from "./common";

/**
 * A TLS certificate: an ACM certificate for the domain and its alternative names, validated by DNS or e-mail. A
 * certificate is immutable, so any change requests a new one and deletes the old one once the new one is there.
 * ACM answers with DNS validation records a few seconds after the request; they go in the outputs, one numbered
 * group per record (`validationRecord1Name`, `...Type`, `...Value`, `...Domains`: a wildcard and its apex share
 * one). The service is ready when the certificate is issued, or pending validation with its records known: the
 * user must create those records (or approve the e-mails) before ACM issues it. No secret: ACM never hands out
 * the private key.
 */

const RECORDS_POLL_MS = 3_000;
const MISSING = ["ResourceNotFoundException"];

type Acm = { client: AcmSdk.ACMClient; sdk: typeof AcmSdk };

async function acmOf(context: ProvisionContext): Promise<Acm> {
  return { client: await context.aws.acm(), sdk: await import("@aws-sdk/client-acm") };
}

/** What a certificate is requested for: a different answer needs another certificate. */
function requestOf(config: ServiceConfig<"tls">): string {
  const names = [...new Set(config.subjectAlternativeNames)].sort();
  return [config.domain, names.join(","), config.validationMethod].join("|");
}

async function describeCertificate(acm: Acm, arn: string): Promise<CertificateDetail | undefined> {
  const answer = await unlessMissing(
    () => acm.client.send(new acm.sdk.DescribeCertificateCommand({ CertificateArn: arn })),
    ...MISSING,
  );
  return answer?.Certificate;
}

type ValidationRecord = { name: string; type: string; value: string; domains: string[] };

/** The distinct DNS records ACM asks for, each with the names it validates. */
function validationRecordsOf(certificate: CertificateDetail): ValidationRecord[] {
  const records = new Map<string, ValidationRecord>();
  for (const option of certificate.DomainValidationOptions ?? []) {
    const record = option.ResourceRecord;
    if (!record?.Name) continue;
    const known = records.get(record.Name);
    if (known) known.domains.push(option.DomainName ?? "");
    else {
      records.set(record.Name, {
        name: record.Name,
        type: record.Type ?? "CNAME",
        value: record.Value ?? "",
        domains: [option.DomainName ?? ""],
      });
    }
  }
  return [...records.values()]
    .map((record) => ({ ...record, domains: record.domains.sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function outputsOf(certificate: CertificateDetail, config: ServiceConfig<"tls">): State {
  const outputs: State = {
    certificateArn: certificate.CertificateArn ?? "",
    status: certificate.Status ?? "",
    validationMethod: config.validationMethod === "dns" ? "DNS" : "EMAIL",
  };
  validationRecordsOf(certificate).forEach((record, index) => {
    const prefix = `validationRecord${index + 1}`;
    outputs[`${prefix}Name`] = record.name;
    outputs[`${prefix}Type`] = record.type;
    outputs[`${prefix}Value`] = record.value;
    outputs[`${prefix}Domains`] = record.domains.join(",");
  });
  const emails = [
    ...new Set(
      (certificate.DomainValidationOptions ?? []).flatMap((option) => option.ValidationEmails ?? []),
    ),
  ];
  if (config.validationMethod === "email" && emails.length > 0) outputs.validationEmails = emails.join(",");
  return outputs;
}

function deleteCertificatesStep(acm: Acm, context: ProvisionContext, key: string, progress: string): Step {
  return {
    progress,
    async run(state) {
      const arns = state[key] ? state[key].split(",") : [];
      if (arns.length === 0) return;
      for (const arn of arns) {
        // A certificate still attached to a load balancer is refused with ResourceInUseException: passed on.
        await unlessMissing(
          () => acm.client.send(new acm.sdk.DeleteCertificateCommand({ CertificateArn: arn })),
          ...MISSING,
        );
        context.log("info", `Deleted ACM certificate ${arn}`);
      }
      return { state: { [key]: "" } };
    },
  };
}

async function apply(context: ProvisionContext): Promise<ApplyResult> {
  const config = configOf(context.resource, "tls");
  const request = requestOf(config);
  const acm = await acmOf(context);
  const steps: Step[] = [
    {
      progress: `Requesting a certificate for ${config.domain}`,
      async run(state) {
        if (state.certificateArn && state.certificateRequest === request) return;
        const replaced: State = state.certificateArn
          ? {
              previousCertificateArns: [state.previousCertificateArns, state.certificateArn]
                .filter(Boolean)
                .join(","),
            }
          : {};
        const alternativeNames = [...new Set(config.subjectAlternativeNames)].filter(
          (name) => name !== config.domain,
        );
        const { CertificateArn } = await acm.client.send(
          new acm.sdk.RequestCertificateCommand({
            DomainName: config.domain,
            ...(alternativeNames.length > 0
              ? { SubjectAlternativeNames: [config.domain, ...alternativeNames] }
              : {}),
            ValidationMethod: config.validationMethod === "dns" ? "DNS" : "EMAIL",
            // The same request within an hour answers the same certificate: a repeated call creates no other.
            IdempotencyToken: clientTokenOf(context, request),
            Tags: tagList(tagsOf(context, "certificate", config.domain)),
          }),
        );
        context.log("info", `Requested ACM certificate ${CertificateArn} for ${config.domain}`);
        return {
          state: { ...replaced, certificateArn: CertificateArn ?? "", certificateRequest: request },
          waitMs: 0,
        };
      },
    },
    {
      progress: "Waiting for the DNS validation records",
      async run(state) {
        const certificate = await describeCertificate(acm, state.certificateArn ?? "");
        if (!certificate) {
          // Deleted outside the console: request it again.
          return { state: { certificateArn: "", certificateRequest: "" }, waitMs: 0 };
        }
        if (certificate.Status === "ISSUED") return;
        if (certificate.Status !== "PENDING_VALIDATION") {
          const reason = certificate.FailureReason;
          throw new ProvisionError(
            `the certificate is ${certificate.Status ?? "in an unknown state"}${reason ? ` (${reason})` : ""}`,
            reason ?? certificate.Status ?? null,
          );
        }
        const options = certificate.DomainValidationOptions ?? [];
        const recordsKnown = options.length > 0 && options.every((option) => option.ResourceRecord?.Name);
        if (config.validationMethod === "email" || recordsKnown) return;
        return { waitMs: RECORDS_POLL_MS, progress: "Waiting for ACM to publish the DNS validation records" };
      },
    },
    deleteCertificatesStep(acm, context, "previousCertificateArns", "Deleting the replaced certificate"),
  ];
  const result = await runSteps(steps, context.state);
  if (!result.done) return result;
  const certificate = await describeCertificate(acm, result.state.certificateArn ?? "");
  if (!certificate) throw new ProvisionError("the certificate disappeared while it was being requested");
  const detail = pendingDetailOf(certificate, config);
  if (detail) {
    if (config.validationMethod === "dns") {
      for (const record of validationRecordsOf(certificate)) {
        context.log(
          "info",
          `Pending validation: create the DNS record ${record.name} ${record.type} ${record.value} (validates ${record.domains.join(", ")})`,
        );
      }
    } else {
      context.log("info", "Pending validation: approve the e-mail ACM sent to the domain's contacts");
    }
  } else {
    context.log("info", `ACM certificate for ${config.domain} is ${certificate.Status}`);
  }
  return {
    done: true,
    state: result.state,
    endpoint: null,
    secrets: {},
    outputs: outputsOf(certificate, config),
    ...(detail ? { detail } : {}),
  };
}

/**
 * What a certificate pending validation waits for, shown as the service's status detail (it is deployed: the
 * next step is the user's), or undefined once it is not pending.
 */
function pendingDetailOf(certificate: CertificateDetail, config: ServiceConfig<"tls">): string | undefined {
  if (certificate.Status !== "PENDING_VALIDATION") return undefined;
  if (config.validationMethod === "email") {
    return "Pending validation: ACM issues the certificate once the e-mail it sent to the domain's contacts is approved.";
  }
  const records = validationRecordsOf(certificate).map(
    (record) => `${record.name} ${record.type} ${record.value} (validates ${record.domains.join(", ")})`,
  );
  return `Pending validation: ACM issues the certificate once these DNS records exist: ${records.join("; ")}.`;
}

/** The certificates of this domain tagged for this service (a call that crashed before its state was saved). */
async function findCertificates(acm: Acm, context: ProvisionContext, domain: string): Promise<string[]> {
  const found: string[] = [];
  for await (const page of acm.sdk.paginateListCertificates({ client: acm.client }, {})) {
    for (const summary of page.CertificateSummaryList ?? []) {
      if (summary.DomainName !== domain || !summary.CertificateArn) continue;
      const { Tags } = await acm.client.send(
        new acm.sdk.ListTagsForCertificateCommand({ CertificateArn: summary.CertificateArn }),
      );
      if (ownedBy(context, tagRecord(Tags))) found.push(summary.CertificateArn);
    }
  }
  return found;
}

async function destroy(context: ProvisionContext): Promise<DestroyResult> {
  const acm = await acmOf(context);
  const { domain } = configOf(context.resource, "tls");
  const result = await runSteps(
    [
      {
        progress: "Finding the certificate",
        async run(state) {
          if (state.certificateArn) return;
          return { state: { certificateArn: (await findCertificates(acm, context, domain)).join(",") } };
        },
      },
      deleteCertificatesStep(acm, context, "certificateArn", "Deleting the certificate"),
      deleteCertificatesStep(acm, context, "previousCertificateArns", "Deleting the replaced certificate"),
    ],
    context.state,
  );
  return result.done ? { done: true } : result;
}

async function observe(context: ProvisionContext): Promise<Observation> {
  const arn = context.state.certificateArn;
  if (!arn) return { state: "ok" };
  const certificate = await describeCertificate(await acmOf(context), arn);
  if (!certificate) {
    return {
      state: "missing",
      message: `The ACM certificate ${arn} no longer exists: it was deleted outside the console`,
    };
  }
  if (certificate.Status === "ISSUED") return { state: "ok", message: "The certificate is issued." };
  const pending = pendingDetailOf(certificate, configOf(context.resource, "tls"));
  if (pending) return { state: "pending", message: pending };
  const reason = certificate.FailureReason ? ` (${certificate.FailureReason})` : "";
  return {
    state: "degraded",
    message: `The certificate is ${certificate.Status ?? "in an unknown state"}${reason}`,
  };
}

export const tlsProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  apply,
  destroy,
  plan(before, after) {
    // Alternative names listed in another order ask for the same certificate.
    const sameRequest = requestOf(configOf(before, "tls")) === requestOf(configOf(after, "tls"));
    return sameRequest
      ? { inPlace: [], replace: [] }
      : changePlanOf(before, after, {
          replace: ["config.domain", "config.subjectAlternativeNames", "config.validationMethod"],
          inPlace: [],
        });
  },
  observe: (context) => failingAs("Checking the certificate", () => observe(context)),
};
