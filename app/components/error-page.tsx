import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useEffect, useState } from "react";
import { onboardingPages } from "~/features/onboarding/paths";
import { errorCodeTitles, errorMessages } from "#contract/errors";
import { useReportError } from "~/features/error-reporting/use-error-reporting";
import { readOnboardingMirror } from "~/features/onboarding/mirror";

/**
 * What the error page says about an error: restricted access for a 403, a SPEC §8 code when the body names one, and
 * a 413's own message (the app server's answer to a submission over its body limit says what the limit is).
 */
export function describeRouteError(error: unknown): { restricted: boolean; code?: string; message?: string } {
  if (!isRouteErrorResponse(error)) return { restricted: false };
  if (error.status === 413 && typeof error.data === "string")
    return { restricted: false, message: error.data };
  const body: unknown = error.data;
  const code =
    body && typeof body === "object" && "code" in body && typeof body.code === "string"
      ? body.code
      : undefined;
  return { restricted: error.status === 403, code: code && errorCodeTitles[code] ? code : undefined };
}

/**
 * SPEC §2.7 error boundary page; a 403 says access is restricted, a SPEC §8 code is shown with its meaning. 'Take me
 * home' goes to the onboarding overview while the browser's mirror says onboarding is in progress, else home, whose
 * loader asks the platform and opens the overview or the environment.
 */
export function ErrorPage({ home = "/" }: { home?: string }) {
  const error = useRouteError();
  const { restricted, code, message } = describeRouteError(error);
  useReportError(error);
  const [target, setTarget] = useState(home);
  useEffect(() => setTarget(readOnboardingMirror() ? onboardingPages.overview : home), [home]);
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="md" maw={480} ta="center">
        <Title order={1}>Oops! Something went wrong</Title>
        <Text c="dimmed">
          {restricted ? errorMessages.restrictedAccess : (message ?? "Refresh the page and try again.")}
        </Text>
        {code ? (
          <Text size="sm" c="dimmed" data-testid="error-code">
            {code} · {errorCodeTitles[code]}
          </Text>
        ) : null}
        <Button component={Link} to={target} reloadDocument>
          Take me home
        </Button>
      </Stack>
    </Center>
  );
}
