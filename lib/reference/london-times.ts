import type { MetalId } from './metals';

// The London times at which the service keeps each metal's price (decisions §30): the times of day, Europe/London,
// that the metals' London benchmark auctions use. The values are this service's own spot at those minutes, not
// any benchmark's price. `am`, `pm` and `noon` name them in the API.

export const LONDON_TIME_NAMES = ['am', 'pm', 'noon'] as const;
export type LondonTime = (typeof LONDON_TIME_NAMES)[number];

/** Each metal's times, HH:MM in London. */
export const LONDON_TIMES = {
  gold: { am: '10:30', pm: '15:00' },
  silver: { noon: '12:00' },
  platinum: { am: '09:45', pm: '14:00' },
  palladium: { am: '09:45', pm: '14:00' },
} as const satisfies Record<MetalId, Partial<Record<LondonTime, string>>>;

/** The time a metal's London series answers when none is asked: the afternoon one, or silver's only one. */
export const DEFAULT_LONDON_TIME = { gold: 'pm', silver: 'noon', platinum: 'pm', palladium: 'pm' } as const satisfies Record<MetalId, LondonTime>;

/** How long after its minute a reading still counts for a London time: the first fresh one within it is the value. */
export const LONDON_WINDOW_MIN = 5;

/** The time names a metal has, in the order of the day. */
export function londonTimesOf(metal: MetalId): LondonTime[] {
  return Object.keys(LONDON_TIMES[metal]) as LondonTime[];
}

/** The HH:MM of a metal's time, or undefined when the metal has no such time. */
export function londonTimeOf(metal: MetalId, time: LondonTime): string | undefined {
  return (LONDON_TIMES[metal] as Partial<Record<LondonTime, string>>)[time];
}
