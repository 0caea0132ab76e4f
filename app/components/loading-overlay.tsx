import { Box, Loader, getDefaultZIndex } from "@mantine/core";
import { useSlowNavigation } from "~/hooks/use-slow-navigation";

export type LoadingOverlayProps = {
  /** @default true */
  visible?: boolean;
  /** Cover the whole viewport (fixed) instead of the nearest positioned parent. */
  fullPage?: boolean;
  /** Accessible name of the busy state. @default "Loading" */
  label?: string;
};

/** SPEC §2.7: a semi-transparent dark backdrop with a centred spinner, over the viewport or its parent. */
export function LoadingOverlay({ visible = true, fullPage = false, label = "Loading" }: LoadingOverlayProps) {
  if (!visible) return null;
  return (
    <Box
      role="status"
      aria-label={label}
      data-testid="loading-overlay"
      data-full-page={fullPage || undefined}
      style={{
        position: fullPage ? "fixed" : "absolute",
        inset: 0,
        zIndex: fullPage ? getDefaultZIndex("overlay") : 1,
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        backgroundColor: "rgba(0, 0, 0, 0.45)",
      }}
    >
      <Loader color="white" />
    </Box>
  );
}

/** The full-page overlay for navigations slower than about 300 ms (rendered once, by root). */
export function NavigationLoadingOverlay() {
  return <LoadingOverlay visible={useSlowNavigation()} fullPage />;
}
