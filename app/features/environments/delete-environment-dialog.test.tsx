// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { theme } from "~/theme";
import { PreviewsThatGo } from "./delete-environment-dialog";

afterEach(cleanup);

describe("the delete environment dialog's plan", () => {
  it("lists each live preview that goes with the environment by its pull request's number and title", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <PreviewsThatGo
          previews={[
            { number: 42, title: "Make the header blue" },
            { number: 7, title: "Fix the footer" },
          ]}
        />
      </MantineProvider>,
    );
    const plan = screen.getByTestId("delete-environment-previews");
    expect(plan.textContent).toContain("Its 2 preview environments are removed with it");
    const items = [...plan.querySelectorAll("li")].map((item) => item.textContent);
    expect(items).toEqual(["#42 Make the header blue", "#7 Fix the footer"]);
  });

  it("says nothing when the environment has no live preview", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <PreviewsThatGo previews={[]} />
      </MantineProvider>,
    );
    expect(screen.queryByTestId("delete-environment-previews")).toBeNull();
  });
});
