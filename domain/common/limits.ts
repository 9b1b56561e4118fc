/** The largest file any content write may bring: fetched from a URL through the API, or pushed through git. */
export const largestFileBytes = 10 * 1024 * 1024;
