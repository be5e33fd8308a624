/**
 * Which view the window shows, kept in the URL's hash (`#/conflicts`) so a notification or the tray
 * can open a view by address, and back/forward work in a browser. A view may take parameters after a
 * `?` (`#/quick-download?preset=ID`: the tray's "search with preset").
 */
export const views = ['overview', 'activity', 'quick-download', 'conflicts', 'not-synced', 'held-deletions', 'settings'] as const;
export type ViewName = (typeof views)[number];

interface Parsed {
  view: ViewName;
  params: Record<string, string>;
}

function parse(hash: string): Parsed {
  const [name = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) params[key] = value;
  return { view: views.find((view) => view === name) ?? 'overview', params };
}

export class Route {
  private readonly initial = parse(location.hash);
  current = $state<ViewName>(this.initial.view);
  /** The current view's parameters (empty when it has none). */
  params = $state.raw<Record<string, string>>(this.initial.params);

  start(): () => void {
    const onHash = (): void => {
      const parsed = parse(location.hash);
      this.current = parsed.view;
      this.params = parsed.params;
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
    };
  }

  go(view: ViewName): void {
    location.hash = `#/${view}`;
    this.current = view;
    this.params = {};
  }
}
