/** The one source of "now", passed to services so tests and timers agree on time. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
