/** True for the errors of a path that is not there (the file, or a directory on its way). */
export const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** What `read` returns, or undefined when its path is not there; other errors are thrown. */
export const unlessMissing = <T>(read: () => T): T | undefined => {
  try {
    return read();
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
};
