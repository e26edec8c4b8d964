/** Long loops over files give the event loop a turn this often, so that requests and keystrokes are still served. */
const YIELD_EVERY_MS = 15;

/** For one long loop: call it on each pass; it gives the event loop a turn once YIELD_EVERY_MS have passed since the last. */
export function turnTaker(): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last <= YIELD_EVERY_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    last = Date.now();
  };
}
