import type { Steps } from '@yangkit/yang-json-codec';

/**
 * What happens in order once something is asked for: `step` for each step of the work watched,
 * `turn` for each turn of the event loop (a timer of another request).
 */
export class Timeline {
  readonly events: ('step' | 'turn')[] = [];
  #started = false;
  #asked = false;
  #ended = false;

  get asked(): boolean {
    return this.#asked;
  }

  /** Resolves once the work watched has made its first step (it is in progress). */
  async started(): Promise<void> {
    while (!this.#started) await new Promise((r) => setImmediate(r));
  }

  /** Starts counting turns: the read or validation is asked for now. */
  ask(): void {
    this.#asked = true;
    const turn = (): void => {
      if (this.#ended) return;
      this.events.push('turn');
      setImmediate(turn);
    };
    setImmediate(turn);
  }

  /** `steps`, each step after the ask logged; held after its first step until the ask. */
  *watched(steps: Steps<void>): Steps<void> {
    if (steps.next().done === true) return;
    this.#started = true;
    while (!this.#asked) yield;
    for (;;) {
      this.events.push('step');
      if (steps.next().done === true) return;
      yield;
    }
  }

  /** Stops counting; whether a turn came between two steps of the work after the ask. */
  end(): boolean {
    this.#ended = true;
    const firstTurn = this.events.indexOf('turn');
    return firstTurn !== -1 && firstTurn < this.events.lastIndexOf('step');
  }
}
