/**
 * Browser signals a proctor wants to see. Only the transitions that matter are reported
 * (hidden, focus lost, fullscreen left, paste); the event names follow docs/api.md §3.8.
 */
export const PROCTOR_EVENTS = Object.freeze({
  TAB_HIDDEN: 'TAB_HIDDEN',
  FOCUS_LOST: 'FOCUS_LOST',
  FULLSCREEN_EXIT: 'FULLSCREEN_EXIT',
  PASTE: 'PASTE',
});

/** The server takes a PASTE's length up to this (docs/api.md §3.8). */
export const MAX_PASTE_LENGTH = 10_000_000;

/**
 * @param {{document?: Document|null, window?: Window|null}} target
 * @param {(type: string, fields?: {length?: number}) => void} record  a PASTE tells how many
 *   characters were pasted (the server's long-paste rule reads it), never what
 * @returns {() => void} stop
 */
export function watchProctoring({ document: doc, window: win }, record) {
  const stops = [];
  const listen = (target, type, fn) => {
    if (!target?.addEventListener) return;
    target.addEventListener(type, fn);
    stops.push(() => target.removeEventListener(type, fn));
  };
  let wasFullscreen = !!doc?.fullscreenElement;
  listen(doc, 'visibilitychange', () => {
    if (doc.visibilityState === 'hidden') record(PROCTOR_EVENTS.TAB_HIDDEN);
  });
  listen(win, 'blur', () => record(PROCTOR_EVENTS.FOCUS_LOST));
  listen(doc, 'fullscreenchange', () => {
    const now = !!doc.fullscreenElement;
    if (wasFullscreen && !now) record(PROCTOR_EVENTS.FULLSCREEN_EXIT);
    wasFullscreen = now;
  });
  listen(doc, 'paste', (event) => {
    const text = event?.clipboardData?.getData?.('text');
    record(PROCTOR_EVENTS.PASTE, typeof text === 'string' ? { length: Math.min(text.length, MAX_PASTE_LENGTH) } : undefined);
  });
  return () => stops.splice(0).forEach((stop) => stop());
}
