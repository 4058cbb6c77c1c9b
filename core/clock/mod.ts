/**
 * Clocks: the time and timers that waiting code (TTLs, expiry, retries, backoff, breakers, idle workers) takes
 * as an option, so that tests advance a fake clock instead of sleeping.
 * @module
 */
export { type Clock, systemClock } from "./clock.ts";
