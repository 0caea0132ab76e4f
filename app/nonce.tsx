import { createContext, useContext } from "react";

/** The per-response CSP nonce; set on the server, empty in the browser (which hides nonces anyway). */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
