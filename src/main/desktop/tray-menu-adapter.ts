/** Turns the tray menu's plain template (tray-menu.ts) into Electron's menu template, clicks calling `run`. */
import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction, TrayMenuItem } from './tray-menu.js';

export function toElectronTemplate(items: readonly TrayMenuItem[], run: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'status':
        return { label: item.label, enabled: false };
      case 'separator':
        return { type: 'separator' };
      case 'submenu':
        return { label: item.label, submenu: toElectronTemplate(item.items, run) };
      case 'action':
        return {
          label: item.label,
          enabled: item.enabled,
          click: () => {
            run(item.action);
          },
        };
    }
  });
}
