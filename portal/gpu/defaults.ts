// Implements: the portal's default runtime budget for a box it launches.

/** Default runtime budget of a box, in seconds (a box self-terminates after about two hours). */
export const DEFAULT_MAX_RUNTIME_SECONDS = 7200;
