/*
 * Flink Insight tab for Flink's web dashboard. The plugin's read-only proxy under /flink/ loads this script into
 * Flink's index.html, by a relative <script src="../insight-tab/tab.js">. It adds an "Insight" entry, linking to the
 * Insight panel, to the dashboard's left menu (nz-sider > ul[nz-menu] > li[nz-menu-item]), cloned from an existing
 * entry so it looks like its siblings. Angular renders the menu after this script runs, so a MutationObserver waits
 * for it; if no menu shows up within GIVE_UP_MS (Flink's markup changed), a small fixed "Insight" button at the
 * bottom left keeps the panel reachable.
 * Every URL is relative, so the tab also works behind a reverse proxy that adds a path prefix (https://host/insight/
 * for the plugin's /): Flink's dashboard is served at <prefix>/flink/ with <base href="./"> and its routes in the
 * fragment, so links resolve against <prefix>/flink/, and the panel, at <prefix>/, is "../" from there.
 * Plain JavaScript, no dependencies; safe to load twice and robust to the menu being rendered again.
 */
(function () {
  'use strict';

  // Relative to the dashboard's base URL (<prefix>/flink/): the panel at <prefix>/, whatever the prefix.
  var PANEL_URL = '../';
  var LABEL = 'Insight';
  var MARK = 'data-insight-tab';
  var BUTTON_ID = 'flink-insight-tab-button';
  var GIVE_UP_MS = 5000;
  var MENU_SELECTORS = ['nz-sider ul[nz-menu]', '.ant-layout-sider ul.ant-menu'];
  // A line-chart glyph in the 1em box ng-zorro's icons use, drawn with the menu's text colour.
  var ICON = '<svg viewBox="64 64 896 896" width="1em" height="1em" fill="currentColor" aria-hidden="true"'
    + ' focusable="false"><path d="M888 792H200V168c0-4.4-3.6-8-8-8h-56c-4.4 0-8 3.6-8 8v688c0 4.4 3.6 8 8 8h752'
    + 'c4.4 0 8-3.6 8-8v-56c0-4.4-3.6-8-8-8zM305.8 637.7c3.1 3.1 8.1 3.1 11.3 0l138.3-137.6L583 628.5c3.1 3.1 8.2'
    + ' 3.1 11.3 0l275.4-275.3c3.1-3.1 3.1-8.2 0-11.3l-39.6-39.6a8.03 8.03 0 00-11.3 0l-230 229.9L461.4 404a8.03'
    + ' 8.03 0 00-11.3 0L266.3 586.7a8.03 8.03 0 000 11.3l39.5 39.7z"></path></svg>';

  if (window.__flinkInsightTab) {
    return;
  }
  window.__flinkInsightTab = true;

  function findMenu() {
    for (var i = 0; i < MENU_SELECTORS.length; i++) {
      var menu = document.querySelector(MENU_SELECTORS[i]);
      if (menu) {
        return menu;
      }
    }
    return null;
  }

  /** The last top-level entry of the menu ("Job Manager", "Submit New Job", ...), the model for ours. */
  function modelEntry(menu) {
    var model = null;
    for (var i = 0; i < menu.children.length; i++) {
      var child = menu.children[i];
      if (child.tagName === 'LI' && !child.hasAttribute(MARK)
          && (child.hasAttribute('nz-menu-item') || child.classList.contains('ant-menu-item'))) {
        model = child;
      }
    }
    return model;
  }

  /** The deepest element showing the entry's label, found as the last element with text and no element child. */
  function labelElement(entry) {
    var all = entry.querySelectorAll('*');
    for (var i = all.length - 1; i >= 0; i--) {
      var el = all[i];
      if (el.children.length === 0 && el.tagName !== 'svg' && el.textContent.trim() !== ''
          && !(el.closest && el.closest('svg'))) {
        return el;
      }
    }
    return null;
  }

  function goToPanel(event) {
    if (event.defaultPrevented || event.button > 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
      return; // let the browser open the link in a new tab or window
    }
    event.preventDefault();
    window.location.assign(PANEL_URL);
  }

  function buildEntry(model) {
    var entry = model.cloneNode(true); // keeps Angular's scoped-style attributes, not its listeners
    entry.classList.remove('ant-menu-item-selected', 'ant-menu-item-active');
    for (var i = entry.attributes.length - 1; i >= 0; i--) {
      var name = entry.attributes[i].name;
      if (name.indexOf('ng-reflect') === 0 || name === 'routerlink' || name === 'routerlinkactive') {
        entry.removeAttribute(name);
      }
    }
    entry.setAttribute(MARK, 'menu');
    entry.setAttribute('role', 'menuitem');
    entry.setAttribute('title', 'Flink Insight: metric history, checkpoints and the client path');
    var icon = entry.querySelector('.anticon, i[nz-icon], span[nz-icon]');
    if (icon) {
      icon.className = 'anticon anticon-line-chart';
      icon.innerHTML = ICON;
    }
    var label = labelElement(entry);
    var link = document.createElement('a');
    link.href = PANEL_URL;
    link.textContent = LABEL;
    link.style.color = 'inherit';
    if (label) {
      label.textContent = '';
      label.appendChild(link);
    } else {
      entry.appendChild(link);
    }
    entry.addEventListener('click', function (event) {
      if (event.target !== link) {
        goToPanel(event);
      }
    });
    link.addEventListener('click', goToPanel);
    return entry;
  }

  function showButton() {
    if (document.getElementById(BUTTON_ID) || !document.body) {
      return;
    }
    var button = document.createElement('a');
    button.id = BUTTON_ID;
    button.href = PANEL_URL;
    button.textContent = LABEL;
    button.title = 'Open the Flink Insight panel';
    button.setAttribute(MARK, 'button');
    button.style.cssText = 'position:fixed;left:16px;bottom:16px;z-index:1000;padding:4px 15px;border-radius:2px;'
      + 'background:#1890ff;color:#fff;font:14px/1.5715 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,'
      + 'sans-serif;text-decoration:none;box-shadow:0 2px 8px rgba(0,0,0,.25)';
    document.body.appendChild(button);
  }

  function removeButton() {
    var button = document.getElementById(BUTTON_ID);
    if (button && button.parentNode) {
      button.parentNode.removeChild(button);
    }
  }

  /** Adds the menu entry when the menu is there and lacks it; true when the entry is in place. */
  function ensureEntry() {
    var menu = findMenu();
    if (!menu) {
      return false;
    }
    var model = modelEntry(menu);
    var entry = menu.querySelector('[' + MARK + '="menu"]');
    if (entry) {
      syncIndent(entry, model);
      return true;
    }
    if (!model) {
      return false;
    }
    menu.appendChild(buildEntry(model));
    return true;
  }

  /** ng-zorro sets each entry's indent inline and drops it when the menu collapses: follow the model entry. */
  function syncIndent(entry, model) {
    if (!model) {
      return;
    }
    var style = model.getAttribute('style');
    if (style === null) {
      entry.removeAttribute('style');
    } else if (entry.getAttribute('style') !== style) {
      entry.setAttribute('style', style);
    }
  }

  var scheduled = false;
  function check() {
    scheduled = false;
    try {
      if (ensureEntry()) {
        removeButton();
      }
    } catch (e) {
      // Never break Flink's dashboard: the fallback button below stays the way to the panel.
      showButton();
    }
  }

  function schedule() {
    if (!scheduled) {
      scheduled = true;
      window.setTimeout(check, 50);
    }
  }

  new MutationObserver(schedule).observe(document.documentElement,
    {childList: true, subtree: true, attributes: true, attributeFilter: ['style']});
  schedule();
  window.setTimeout(function () {
    if (!ensureEntry()) {
      showButton();
    }
  }, GIVE_UP_MS);
})();
