/** Resolves once the style sheet is in the document and loaded, so a lazily loaded part never shows unstyled. */
export function loadStyleSheet(href: string): Promise<void> {
  if (typeof document === "undefined") return Promise.resolve();
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}
