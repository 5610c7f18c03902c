/** Where command time comes from: wall time, or simulated time the operator advances. */
export interface Clock {
  readonly simulated: boolean;
  now(): number;
}
