// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { theme } from "~/theme";
import { AwsRoleSetup } from "./aws-role-setup";

afterEach(cleanup);

function renderSetup() {
  return render(
    <MantineProvider theme={theme} env="test">
      <AwsRoleSetup
        setup={{
          kind: "ok",
          externalId: "9a8b7c6d5e4f30211203f4e5d6c7b8a9",
          trustedAccountId: "111122223333",
          launchStackUrl:
            "https://console.aws.amazon.com/cloudformation/home?region=us-east-1#/stacks/quickcreate",
        }}
      />
    </MantineProvider>,
  );
}

describe("the AWS role method's setup", () => {
  it("says what the role the stack creates may do: deploy, not only read", () => {
    renderSetup();
    const setup = screen.getByRole("region", { name: "Role setup" });
    expect(setup.textContent).not.toContain("read-only role");
    expect(setup.textContent).toContain(
      "It creates the role your environments are deployed through, trusting account 111122223333 only when it presents your external id.",
    );
    const abilities = screen.getByRole("list", { name: "What the role may do" });
    expect(abilities.textContent).toContain(
      "Create, change and delete your environments' AWS resources; it deletes databases, tables, Kubernetes clusters, functions, load balancers and networks only when they carry your organization's tag.",
    );
    expect(abilities.textContent).toContain("Read their logs and metrics");
    expect(setup.textContent).toContain("A role created with the earlier read-only template cannot deploy");
  });
});
