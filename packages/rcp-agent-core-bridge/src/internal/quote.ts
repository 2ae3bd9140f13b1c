/**
 * Quotes a caller- or model-supplied name for an error message: JSON-escaped and cut to
 * 80 characters, so a hostile name cannot forge lines or flood a log.
 */
export function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/** The message of a thrown value, for wrapping it (never used for RCP errors). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'invalid input';
}
