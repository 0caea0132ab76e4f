import { Alert, Anchor, Text } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { onboardingPages } from "~/features/onboarding/paths";
import { onboardingReturnTo, readOnboardingMirror } from "./mirror";

/**
 * The way back to onboarding from the product's screens a step opened: shown when the address carries a
 * `returnTo` into onboarding, or while the browser's mirror says onboarding is in progress. Not on the onboarding
 * pages themselves. It is only a link: where it leads, the server decides again.
 */
export function OnboardingBanner() {
  const location = useLocation();
  const [mirrored, setMirrored] = useState(false);
  useEffect(() => setMirrored(readOnboardingMirror()), [location.key]);
  const returnTo = onboardingReturnTo(new URLSearchParams(location.search).get("returnTo"));
  const onOnboardingPage =
    location.pathname === onboardingPages.walkThrough ||
    location.pathname.startsWith(`${onboardingPages.walkThrough}/`);
  if (onOnboardingPage || (!returnTo && !mirrored)) return null;
  return (
    <Alert color="blue" variant="light" py="xs" mb="md" data-testid="onboarding-banner">
      <Text size="sm">
        You are setting up your organization.{" "}
        <Anchor component={Link} to={returnTo ?? onboardingPages.walkThrough} size="sm" fw={600}>
          Back to onboarding
        </Anchor>
      </Text>
    </Alert>
  );
}
