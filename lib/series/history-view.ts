// The history answer's arithmetic under the names it had before the pipeline (lib/series/history.ts): each function
// now lives in the step it belongs to.
export { convertDaily, convertMonthly, MAX_RATE_AGE_DAYS, type Converted } from './history-convert';
export { groupPoints } from './history-group';
export { firstOnOrAfter, lastOnOrBefore, roundPoint, type OutPoint, type RawPoint, type SeriesKind } from './history-points';
export { periodOf, type Period } from './history-stats';
