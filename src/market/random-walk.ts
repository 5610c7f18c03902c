/**
 * The simulated index: a geometric random walk whose n-th step is a pure function of
 * (seed, stream id, n), where step n happens at n × interval on the server clock. The same
 * seed therefore gives the same price path whenever and however often it is polled, across
 * restarts too (the walk resumes from the journaled index price at the current step).
 *
 * Floats are fine here: this module only invents prices; they become decimal strings at the
 * instrument's precision before they reach the engine (a SetIndexPrice command).
 */

const YEAR_MS = 365 * 24 * 3_600_000;
/** More steps than this in one poll (a long clock jump) are taken as one combined draw. */
const MAX_STEPS = 100_000;

function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A stable 32-bit hash of a text (FNV-1a), for stream ids. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    h = Math.imul(h ^ text.charCodeAt(index), 0x01000193);
  }
  return h >>> 0;
}

function uniform(seed: number, stream: number, step: number, lane: number): number {
  const high = Math.floor(step / 0x1_0000_0000);
  const low = step >>> 0;
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ stream);
  h = mix32(h ^ high);
  h = mix32(h ^ low);
  h = mix32(h ^ lane);
  return (h + 0.5) / 0x1_0000_0000;
}

/** A standard normal draw for step `step` (Box–Muller on two counter-based uniforms). */
export function normalAt(seed: number, stream: number, step: number): number {
  const u1 = uniform(seed, stream, step, 1);
  const u2 = uniform(seed, stream, step, 2);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

export class RandomWalk {
  private readonly stepSigma: number;
  private readonly stream: number;

  constructor(
    private readonly seed: number,
    streamId: string,
    volatility: number,
    readonly intervalMs: number,
  ) {
    this.stream = hashText(streamId);
    this.stepSigma = volatility * Math.sqrt(intervalMs / YEAR_MS);
  }

  stepAt(timeMs: number): number {
    return Math.floor(timeMs / this.intervalMs);
  }

  /** The price after applying steps (fromStep, toStep] to `price`. */
  advance(price: number, fromStep: number, toStep: number): number {
    const count = toStep - fromStep;
    if (count <= 0) return price;
    let logPrice = Math.log(price);
    if (count > MAX_STEPS) {
      logPrice += this.stepSigma * Math.sqrt(count) * normalAt(this.seed, this.stream, toStep);
    } else {
      for (let step = fromStep + 1; step <= toStep; step += 1) {
        logPrice += this.stepSigma * normalAt(this.seed, this.stream, step);
      }
    }
    return Math.exp(logPrice);
  }
}
