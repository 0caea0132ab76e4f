import {
  ActionIcon,
  Button as MantineButton,
  createPolymorphicComponent,
  type BoxProps,
  type MantineColor,
  type MantineSize,
} from "@mantine/core";
import { forwardRef, type ReactNode } from "react";

/** SPEC §9 button variants and sizes. */
export const buttonVariants = [
  "primary",
  "secondary",
  "ghost",
  "ghostSecondary",
  "linkText",
  "danger",
  "iconPrimary",
  "iconSecondary",
] as const;
export const buttonSizes = ["small", "medium", "large"] as const;

export type ButtonVariant = (typeof buttonVariants)[number];
export type ButtonSize = (typeof buttonSizes)[number];

type MantineLook = { variant: string; color?: MantineColor };

const textLooks: Record<Exclude<ButtonVariant, "iconPrimary" | "iconSecondary">, MantineLook> = {
  primary: { variant: "filled" },
  secondary: { variant: "outline" },
  ghost: { variant: "subtle" },
  ghostSecondary: { variant: "subtle", color: "gray" },
  linkText: { variant: "transparent" },
  danger: { variant: "filled", color: "error" },
};

const iconLooks: Record<"iconPrimary" | "iconSecondary", MantineLook> = {
  iconPrimary: { variant: "filled" },
  iconSecondary: { variant: "subtle", color: "gray" },
};

/** Mantine sizes: text buttons are 30, 36 and 42 px high; icon buttons 28, 34 and 44 px square. */
const textSizes: Record<ButtonSize, MantineSize> = { small: "xs", medium: "sm", large: "md" };
const iconSizes: Record<ButtonSize, MantineSize> = { small: "md", medium: "lg", large: "xl" };

export function isIconVariant(variant: ButtonVariant): variant is "iconPrimary" | "iconSecondary" {
  return variant === "iconPrimary" || variant === "iconSecondary";
}

export interface ButtonProps extends BoxProps {
  /** @default "primary" */
  variant?: ButtonVariant;
  /** @default "medium" */
  size?: ButtonSize;
  loading?: boolean;
  disabled?: boolean;
  /** Text variants only. */
  fullWidth?: boolean;
  /** Text variants only. */
  leftSection?: ReactNode;
  /** Text variants only. */
  rightSection?: ReactNode;
  /** The label, or the icon of an icon variant (which then needs an `aria-label`). */
  children?: ReactNode;
}

/**
 * The product's one button (SPEC §9): text variants render Mantine's Button, icon variants its ActionIcon.
 * Polymorphic like Mantine's: `<Button component={Link} to="/environments">`.
 */
export const Button = createPolymorphicComponent<"button", ButtonProps>(
  forwardRef<HTMLButtonElement, ButtonProps>(function Button(
    { variant = "primary", size = "medium", fullWidth, leftSection, rightSection, ...props },
    ref,
  ) {
    if (isIconVariant(variant)) {
      const look = iconLooks[variant];
      return (
        <ActionIcon
          ref={ref}
          variant={look.variant}
          color={look.color}
          size={iconSizes[size]}
          data-button-variant={variant}
          {...props}
        />
      );
    }
    const look = textLooks[variant];
    const linkText = variant === "linkText";
    return (
      <MantineButton
        ref={ref}
        variant={look.variant}
        color={look.color}
        size={textSizes[size]}
        fullWidth={fullWidth}
        leftSection={leftSection}
        rightSection={rightSection}
        data-button-variant={variant}
        {...(linkText ? { px: 0, h: "auto", td: "underline" } : {})}
        {...props}
      />
    );
  }),
);
