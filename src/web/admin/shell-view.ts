import { html, type SafeHtml } from '../../text/html.ts';
import { ADMIN_GROUPS, ADMIN_SCREENS, type AdminResource } from './catalog.ts';

export type AdminNav = { resources: readonly AdminResource[]; current?: string };

/**
 * The admin's frame inside the school's page: the menu of everything staff manage, grouped as the owner thinks of
 * the school, then the screen. The current screen is marked for assistive technology (aria-current).
 */
export function adminShell(nav: AdminNav, body: SafeHtml, notice?: string): SafeHtml {
  const link = (key: string, label: string) =>
    html`<li><a href="/admin/${key}"${nav.current === key ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const groups = ADMIN_GROUPS.map((group) => {
    const items = [
      ...nav.resources.filter((r) => r.group === group && !r.hidden),
      ...ADMIN_SCREENS.filter((screen) => screen.group === group),
    ];
    return items.length
      ? html`<li><span class="admin-group">${group}</span><ul>${items.map((r) => link(r.key, r.label))}</ul></li>`
      : '';
  });
  return html`<div class="admin">
<nav aria-label="Admin" class="admin-nav" id="admin-menu"><ul>
<li><a href="/admin"${nav.current === undefined ? html` aria-current="page"` : ''}>Overview</a></li>
${groups}
</ul></nav>
<div class="admin-main"><p class="menu-link"><a href="#admin-menu">Admin menu</a></p>${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}${body}</div>
</div>`;
}
