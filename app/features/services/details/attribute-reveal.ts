/** A secret attribute's plaintext as the reveal route answers it, or why it could not be read. */
export type RevealedAttribute = { kind: "value"; value: string } | { kind: "error"; message: string };
