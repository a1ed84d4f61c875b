"""Accessibility checks made in the page: accessible names (Chromium's accessibility tree),
text contrast (computed styles, WCAG 2.1 relative luminance) and horizontal overflow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

#: Roles of controls a person operates: each needs a name a screen reader can say.
CONTROL_ROLES = {
    "button", "checkbox", "combobox", "listbox", "menuitem", "radio", "searchbox", "slider",
    "spinbutton", "switch", "textbox", "link", "tab", "option",
}  # fmt: skip


def unnamed_controls(page: Page) -> list[str]:
    """Every control in the page's accessibility tree that has no accessible name."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("Accessibility.enable")
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        out = []
        for node in nodes:
            if node.get("ignored"):
                continue
            role = node.get("role", {}).get("value")
            name = str(node.get("name", {}).get("value") or "").strip()
            if role in CONTROL_ROLES and not name:
                described = "?"
                if "backendDOMNodeId" in node:
                    d = cdp.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})
                    attrs = d["node"].get("attributes", [])
                    described = f"<{d['node']['nodeName'].lower()} {' '.join(attrs)}>"
                out.append(f"{role}: {described}")
        return out
    finally:
        cdp.detach()


#: Every visible element with text of its own: its colour against what is behind it.
_CONTRAST_JS = (Path(__file__).parent / "contrast.js").read_text()


def contrast(page: Page, minimum: float = 4.5) -> dict[str, Any]:
    """``{"checked": n, "problems": [...]}`` for every visible text in the page."""
    result: dict[str, Any] = page.evaluate(_CONTRAST_JS, minimum)
    return result


def overflows(page: Page, width: int = 390) -> list[str]:
    """What sticks out beyond ``width`` pixels, making the page scroll sideways.

    A mobile browser widens its layout viewport to content that does not fit (``innerWidth``
    grows with it), so the page is measured against the device's own width.
    """
    found: list[str] = page.evaluate(
        """(width) => {
          const wide = Math.max(document.documentElement.scrollWidth, innerWidth);
          if (wide <= width) return [];
          const out = [];
          for (const el of document.body.querySelectorAll("*")) {
            const r = el.getBoundingClientRect();
            if (r.right > width + 1 && r.width > 0 && el.checkVisibility()) {
              const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
              const text = (el.textContent || "").trim().slice(0, 24);
              out.push(`${name} "${text}" right=${Math.round(r.right)}`);
            }
          }
          // Text that runs out of its box counts too.
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const range = document.createRange();
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.textContent.trim()) continue;
            range.selectNodeContents(n);
            const r = range.getBoundingClientRect();
            if (r.right > width + 1 && r.width > 0) {
              const el = n.parentElement;
              const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
              const text = n.textContent.trim().slice(0, 24);
              out.push(`text in ${name} "${text}" right=${Math.round(r.right)}`);
            }
          }
          return [`${wide} px wide, not ${width}`, ...out.slice(0, 10)];
        }""",
        width,
    )
    return found


def large_text(page: Page, percent: int = 200) -> None:
    """The reader's text size, as a phone's accessibility setting makes it."""
    page.evaluate(
        "(p) => document.documentElement.style.setProperty('font-size', p + '%', 'important')",
        percent,
    )
    page.wait_for_timeout(150)


#: axe-core from npm, pinned by the top-level package-lock.json (``scripts/install --tests``
#: runs ``npm ci``): the rules of WCAG 2.x and the best practices, run inside each page.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
_axe_source: list[str] = []


def _axe() -> str:
    if not _axe_source:
        if not AXE.exists():
            # A missing checker is a broken set-up, not a reason to pass: CI installs it.
            raise AssertionError(f"no axe-core at {AXE}: run scripts/install --tests")
        # Run as the body of a function Playwright evaluates over the DevTools protocol: the
        # page's Content-Security-Policy stays on and no script tag is added to the page.
        _axe_source.append("() => {\n" + AXE.read_text() + "\n}")
    return _axe_source[0]


def axe_violations(page: Page) -> list[str]:
    """Every rule axe-core finds broken in the page as it stands, one line each: the rule,
    its impact and the elements (a CSS selector and a piece of their HTML)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe())
    found: list[str] = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.slice(0, 6)
            .map((n) => `${n.target.join(" ")} ${n.html.slice(0, 120)}`).join(" | "));
        }"""
    )
    return found
