import { DescribeCertificateCommand, ListCertificatesCommand } from "@aws-sdk/client-acm";
import { describe, expect, it } from "vitest";
import {
  applyUntilDone,
  destroyUntilDone,
  resourceOf,
  setUpMoto,
  taggedResources,
  testService,
} from "../../testing/aws";
import { expectListedSecrets } from "../../testing/aws-provisioning";
import type { AwsClients } from "./clients";
import { tlsProvisioner } from "./tls";

/** moto's validation records: one name per domain (a wildcard shares its apex's), one value for all. */
const recordValue = "_c9edd76ee4a0e2a74388032f3861cc50.ykybfrwcxw.acm-validations.aws.";
const recordName = (domain: string) => `_d930b28be6c5927595552b219965053e.${domain}.`;

async function certificateArns(aws: AwsClients): Promise<string[]> {
  const { CertificateSummaryList = [] } = await (await aws.acm()).send(new ListCertificatesCommand({}));
  return CertificateSummaryList.map((summary) => summary.CertificateArn ?? "");
}

describe("tls provisioner, while ACM waits for validation", () => {
  // moto keeps a new certificate PENDING_VALIDATION for a minute (MOTO_ACM_VALIDATION_WAIT, 60 by default).
  const { aws } = setUpMoto({ warmUp: true });

  it("is ready with the DNS records to create, replaces the certificate for new names, and deletes it", async () => {
    const service = testService(
      aws,
      resourceOf("tls", { domain: "api.example.com", subjectAlternativeNames: ["*.api.example.com"] }),
    );
    const requested = await applyUntilDone(tlsProvisioner, service);
    const arn = requested.outputs.certificateArn ?? "";

    expect(requested.endpoint).toBeNull();
    expect(requested.secrets).toEqual({});
    expect(requested.outputs).toEqual({
      certificateArn: expect.stringMatching(/^arn:aws:acm:eu-west-1:\d{12}:certificate\//),
      status: "PENDING_VALIDATION",
      validationMethod: "DNS",
      validationRecord1Name: recordName("api.example.com"),
      validationRecord1Type: "CNAME",
      validationRecord1Value: recordValue,
      validationRecord1Domains: "*.api.example.com,api.example.com",
    });
    expect(service.logs).toContainEqual({
      level: "info",
      message: `Pending validation: create the DNS record ${recordName("api.example.com")} CNAME ${recordValue} (validates *.api.example.com, api.example.com)`,
    });
    expect(requested.detail).toBe(
      "Pending validation: ACM issues the certificate once these DNS records exist: " +
        `${recordName("api.example.com")} CNAME ${recordValue} (validates *.api.example.com, api.example.com).`,
    );
    expect(await tlsProvisioner.observe(service.context())).toEqual({
      state: "pending",
      message: requested.detail,
    });
    expect(await taggedResources(aws, service.resource.id)).toEqual([arn]);

    const before = service.resource;
    service.resource = {
      ...before,
      config: { ...before.config, subjectAlternativeNames: ["*.api.example.com", "www.example.com"] },
    };
    expect(tlsProvisioner.plan(before, service.resource)).toEqual({
      inPlace: [],
      replace: ["config.subjectAlternativeNames"],
    });
    const replaced = await applyUntilDone(tlsProvisioner, service);
    expect(replaced.outputs.certificateArn).not.toBe(arn);
    expect(replaced.outputs.validationRecord2Name).toBe(recordName("www.example.com"));
    expect(await certificateArns(aws)).not.toContain(arn);
    await expect(
      (await aws.acm()).send(new DescribeCertificateCommand({ CertificateArn: arn })),
    ).rejects.toMatchObject({ name: "ResourceNotFoundException" });

    await destroyUntilDone(tlsProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("asks for the same certificate again after a call whose state was lost, and finds it when deleting", async () => {
    const service = testService(aws, resourceOf("tls", { domain: "crash.example.com" }));
    const first = await tlsProvisioner.apply(service.context());
    expect(first.done).toBe(false);
    const done = await applyUntilDone(tlsProvisioner, service);
    expectListedSecrets(tlsProvisioner, service.resource, done.secrets);
    expect(first.state.certificateArn).toBe(done.outputs.certificateArn);
    expect(await taggedResources(aws, service.resource.id)).toEqual([done.outputs.certificateArn]);

    service.state = {};
    await destroyUntilDone(tlsProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  });

  it("does not replace the certificate when only the order of the alternative names changes", () => {
    const before = resourceOf("tls", {
      domain: "a.example.com",
      subjectAlternativeNames: ["b.example.com", "c.example.com"],
    });
    const after = {
      ...before,
      config: { ...before.config, subjectAlternativeNames: ["c.example.com", "b.example.com"] },
    };
    expect(tlsProvisioner.plan(before, after)).toEqual({ inPlace: [], replace: [] });
  });
});

describe("tls provisioner, once ACM issues the certificate", () => {
  const { aws } = setUpMoto({ warmUp: true, settings: { MOTO_ACM_VALIDATION_WAIT: "0" } });

  it("is ready with the certificate issued", async () => {
    const service = testService(aws, resourceOf("tls", { domain: "issued.example.com" }));
    const issued = await applyUntilDone(tlsProvisioner, service);
    expect(issued.outputs.status).toBe("ISSUED");
    expect(service.logs).toContainEqual({
      level: "info",
      message: "ACM certificate for issued.example.com is ISSUED",
    });
    expect(issued.detail).toBeUndefined();
    expect(await tlsProvisioner.observe(service.context())).toEqual({
      state: "ok",
      message: "The certificate is issued.",
    });
    await destroyUntilDone(tlsProvisioner, service);
    expect(await certificateArns(aws)).toEqual([]);
  });
});
