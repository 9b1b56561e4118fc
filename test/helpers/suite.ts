/** uvu reports a failing hook only as failed tests, without its error: this prints it. */
export function reportingErrors(hook: () => Promise<void>): () => Promise<void> {
  return async () => {
    try {
      await hook();
    } catch (error) {
      console.error('suite hook failed:', error);
      throw error;
    }
  };
}
