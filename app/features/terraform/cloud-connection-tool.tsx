import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useFetcher, useNavigation } from "@remix-run/react";
import { showToast } from "~/components/toaster";
import { usePollInterval } from "~/hooks/use-revalidate-while";
import type { loader as jobLoader } from "~/routes/cloud-connection.jobs.$jobId";
import { AwsConnectForm } from "./aws-connect-form";
import type { ConnectActionData } from "./job-poll";
import { jobStorage } from "./job-storage";

/** The stored region, read only in the browser (the server renders the card before any storage is read). */
function storedRegion(): string | null {
  return typeof window === "undefined" ? null : jobStorage.region();
}
import { cloudConnectionPaths } from "./paths";
import { TerraformGenerationCard } from "./terraform-generation-card";
import { ToolFooter } from "./tool-footer";
import { TutorialVideo } from "./tutorial-video";
import { useCloudConnectionJob } from "./use-cloud-connection-job";

/**
 * The AWS connect page and the generation card (SPEC §2.3, §2.4), shared by the cloud-connection page and the
 * marketplace tool: the form while there is no job, the card while one is underway or done.
 */
export function CloudConnectionTool({
  actionData,
  startForFreeHref,
  year,
  framed,
}: {
  actionData: ConnectActionData | undefined;
  startForFreeHref: string;
  year: number;
  framed: boolean;
}) {
  const navigation = useNavigation();
  const fetcher = useFetcher<typeof jobLoader>();
  const pollIntervalMs = usePollInterval();
  const { jobId, job, redirectUrl } = useCloudConnectionJob(actionData?.job, {
    load: (id) => fetcher.load(cloudConnectionPaths.job(id)),
    result: fetcher.data,
    notify: showToast,
    pollIntervalMs,
  });

  // Before the browser has read its storage (the server's HTML, or no JavaScript at all), a job the form just
  // created is shown with its link, so the AWS console is one click away even without scripts.
  const shownJobId = jobId === undefined ? actionData?.job?.id : jobId;
  const shownRedirectUrl = jobId === undefined ? (actionData?.job?.redirectURL ?? null) : redirectUrl;

  if (shownJobId) {
    return (
      <Stack gap="lg" align="center">
        {shownRedirectUrl ? (
          <Text ta="center" data-testid="aws-redirect-notice">
            Opening the AWS console to create the read-only role.{" "}
            <Anchor href={shownRedirectUrl} target="_blank" rel="noopener noreferrer">
              Click here
            </Anchor>{" "}
            if you are not redirected to AWS.
          </Text>
        ) : null}
        <TerraformGenerationCard
          key={shownJobId}
          job={job}
          region={actionData?.job?.awsAccountRegion ?? storedRegion() ?? "us-east-1"}
          startForFreeHref={startForFreeHref}
          framed={framed}
        />
        <ToolFooter year={year} />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={framed ? 640 : undefined}>
      <Title order={2}>Connect your AWS account</Title>
      <Text>
        You will be redirected to the AWS console to authorize Cloud Console to generate Terraform for your
        infrastructure. There, deploy the CloudFormation template: it creates a role with read-only
        permissions, which Cloud Console uses to list your resources. It cannot read your data or change
        anything.
      </Text>
      <AwsConnectForm lastResult={actionData?.result} submitting={navigation.state === "submitting"} />
      <TutorialVideo />
      <ToolFooter year={year} />
    </Stack>
  );
}
