import type { CertificateDetail } from "@aws-sdk/client-acm";
import { attributes, type ScannedResource } from "../model";
import { collect, definedStrings, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

export type AcmInventory = { certificates: CertificateDetail[] };

const service = "acm";

export const acmScanner: ServiceScanner<AcmInventory> = {
  service,
  permissions: ["acm:ListCertificates", "acm:DescribeCertificate"],

  async read(clients) {
    const { DescribeCertificateCommand, paginateListCertificates } = await import("@aws-sdk/client-acm");
    const client = await clients.acm();
    const summaries = await collect(
      paginateListCertificates({ client }, {}),
      (page) => page.CertificateSummaryList,
    );
    const certificates = await mapWithConcurrency(
      definedStrings(summaries.map((summary) => summary.CertificateArn)),
      4,
      async (CertificateArn) =>
        (await client.send(new DescribeCertificateCommand({ CertificateArn }))).Certificate,
    );
    return {
      certificates: certificates.filter((certificate): certificate is CertificateDetail =>
        Boolean(certificate),
      ),
    };
  },

  /**
   * Certificates AWS issues are described by their domains and validation method. Imported certificates would
   * need their private key in the configuration, so they stay out (the README says so).
   */
  toResources(raw) {
    return raw.certificates.flatMap((certificate): ScannedResource[] => {
      const arn = certificate.CertificateArn;
      const domain = certificate.DomainName;
      if (!arn || !domain || certificate.Type === "IMPORTED") return [];
      return [
        {
          service,
          type: "aws_acm_certificate",
          awsId: arn,
          importId: arn,
          nameHint: domain,
          body: attributes({
            domain_name: domain,
            subject_alternative_names: definedStrings(certificate.SubjectAlternativeNames).filter(
              (name) => name !== domain,
            ),
            validation_method: certificate.DomainValidationOptions?.[0]?.ValidationMethod,
            key_algorithm: certificate.KeyAlgorithm ? certificate.KeyAlgorithm.replace("-", "_") : undefined,
          }),
        },
      ];
    });
  },
};
