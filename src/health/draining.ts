/**
 * An instance asked to stop, in the seconds before it stops accepting (STOP_DRAIN_SECONDS): `/readyz` answers 503 so
 * the load balancer's health check takes it out of rotation, and every response closes its connection, so no
 * kept-alive connection is left for a request to arrive on once the server closes.
 */
export type Draining = { readonly on: boolean; begin(): void };

export function draining(): Draining {
  let on = false;
  return {
    get on() {
      return on;
    },
    begin() {
      on = true;
    },
  };
}
