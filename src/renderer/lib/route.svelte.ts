/**
 * Which view the window shows, kept in the URL's hash (`#/conflicts`) so a notification or the tray
 * can open a view by address, and back/forward work in a browser.
 */
export const views = ['overview', 'activity', 'conflicts', 'not-synced', 'held-deletions', 'settings'] as const;
export type ViewName = (typeof views)[number];

function parse(hash: string): ViewName {
  const name = hash.replace(/^#\/?/, '');
  return views.find((view) => view === name) ?? 'overview';
}

export class Route {
  current = $state<ViewName>(parse(location.hash));

  start(): () => void {
    const onHash = (): void => {
      this.current = parse(location.hash);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
    };
  }

  go(view: ViewName): void {
    location.hash = `#/${view}`;
    this.current = view;
  }
}
