/**
 * Keeps the keyboard focus in the window when the element that had it goes away: a button swapped for
 * another ("Pause for 1 hour" → "Resume syncing"), a list item that is resolved or dismissed, a view
 * that is left. The focus never falls to <body>: it moves to what now stands where that element stood
 * (the control in its place, else the next item of the list, else the one before), and when nothing
 * stands there, up to the view's heading. An element folded away (its <details> closed) hands the
 * focus to the first control around it that is shown. An element that is only disabled while its
 * command runs, or inert while the app is away, gets the focus back when it can take it again.
 *
 * It moves the focus only when the focus was lost: never away from an element, and never when a
 * person put it on the page by clicking beside the controls. Views may still place the focus
 * themselves (a question takes it); then nothing is lost and this does nothing.
 */

/** One step of the way from the focused element up to <body>: a parent, and where the way went through it. */
interface Step {
  parent: Element;
  /** The index, among `parent.children`, of the child the focused element was in. */
  index: number;
}

const tabbable = 'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])';
const focusableAtAll = `${tabbable}, [tabindex="-1"]`;

/** Drawn and reachable: not inert, not in a closed <details> or a hidden part (which may still have boxes). */
function shown(element: Element): boolean {
  return element.closest('[inert]') === null && element.checkVisibility({ visibilityProperty: true });
}

function canFocus(element: Element): element is HTMLElement {
  return element instanceof HTMLElement && element.matches(focusableAtAll) && shown(element);
}

/**
 * Whether the focus has gone from every element: it is on <body>, or still on an element that can no
 * longer take it (removed, hidden, disabled, inert), which the browser moves to <body> only later.
 */
function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected || !canFocus(active);
}

/** Focuses a heading or other element that takes focus only from code. */
function focusOn(element: HTMLElement): void {
  if (!element.matches(focusableAtAll)) element.tabIndex = -1;
  element.focus();
}

function trailOf(element: Element): Step[] {
  const trail: Step[] = [];
  let child = element;
  for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
    trail.push({ parent, index: Array.prototype.indexOf.call(parent.children, child) });
    if (parent === document.body) break;
    child = parent;
  }
  return trail;
}

/**
 * Starts keeping the focus in the page; returns the function that stops. `heading` finds the view's
 * heading, where the focus goes when nothing stands in the place of what had it.
 */
export function keepFocus(heading: () => HTMLElement | null): () => void {
  let last: Element | null = null;
  let trail: Step[] = [];
  /** The focused element was disabled, hidden or made inert, not removed: it gets the focus back when it can take it. */
  let waiting = false;

  /** The element inside `element` that takes the focus: itself, its heading, or its first control. */
  function within(element: Element): HTMLElement | null {
    const view = heading();
    if (view !== null && element.contains(view)) return view;
    if (canFocus(element) && element.matches(tabbable)) return element;
    const title = element.querySelector('h1, h2, h3');
    if (title instanceof HTMLElement && shown(title)) return title;
    for (const control of element.querySelectorAll(tabbable)) if (canFocus(control)) return control;
    return null;
  }

  function replacement(): HTMLElement | null {
    for (const { parent, index } of trail) {
      if (!parent.isConnected) continue;
      const children = Array.from(parent.children);
      // What stands where it stood, then what follows it, then what came before it, nearest first.
      const order = [...children.slice(index), ...children.slice(0, index).reverse()];
      for (const child of order) {
        const found = within(child);
        if (found !== null) return found;
      }
    }
    return heading();
  }

  /** For an element folded away (a closed <details>, a closed menu): the first shown place around it that takes the focus. */
  function around(element: Element): HTMLElement | null {
    for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
      if (!parent.checkVisibility()) continue;
      const found = within(parent);
      if (found !== null) return found;
    }
    return heading();
  }

  function check(): void {
    if (last === null || !focusLost()) return;
    if (!last.isConnected) {
      const target = replacement();
      if (target !== null) focusOn(target);
      return;
    }
    if (canFocus(last)) {
      if (waiting) focusOn(last);
      return;
    }
    // Disabled while its command runs, or inert while the app is away: it takes the focus back later.
    if (last.closest('[inert]') !== null || last.checkVisibility()) {
      waiting = true;
      return;
    }
    const target = around(last);
    if (target !== null) focusOn(target);
  }

  function onFocusIn(event: FocusEvent): void {
    if (!(event.target instanceof Element) || event.target === document.body) return;
    last = event.target;
    trail = trailOf(last);
    waiting = false;
  }
  // A click beside the controls puts the focus on the page on purpose: nothing is brought back.
  function onPointerDown(): void {
    waiting = false;
    last = null;
  }

  let scheduled = false;
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      check();
    });
  }

  const observer = new MutationObserver(schedule);
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'inert', 'class', 'open'] });
  document.addEventListener('focusin', onFocusIn, true);
  document.addEventListener('focusout', schedule, true);
  document.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn, true);
    document.removeEventListener('focusout', schedule, true);
    document.removeEventListener('pointerdown', onPointerDown, true);
  };
}
