// Every visible element with text of its own: its colour against what is behind it
// (WCAG 2.1 relative luminance). Called by a11y.contrast() with the minimum ratio.
(minimum) => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  // The opaque colours behind an element: its own background, or its ancestors', with
  // translucent layers blended in; a gradient gives each of its colours.
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      const img = cs.backgroundImage;
      if (img && img !== "none") {
        const stops = [...img.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0])).filter((c) => c[3] > 0);
        if (stops.length) return stops.map((s) => layers.reduceRight((acc, l) => over(l, acc), s[3] < 1 ? over(s, [11, 15, 20, 1]) : s));
      }
      const bg = parse(cs.backgroundColor);
      if (bg && bg[3] > 0) {
        if (bg[3] >= 0.999) return [layers.reduceRight((acc, l) => over(l, acc), bg)];
        layers.push(bg);
      }
    }
    return [layers.reduceRight((acc, l) => over(l, acc), [255, 255, 255, 1])];
  };
  const faded = (el) => {
    for (let e = el; e; e = e.parentElement) {
      if (Number(getComputedStyle(e).opacity) < 1) return true;
      if (e.matches && e.matches(":disabled")) return true;
    }
    return false;
  };
  const problems = [];
  let checked = 0;
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || faded(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.clip && cs.clip !== "auto") continue;
    const fg = parse(cs.color);
    if (!fg) continue;
    checked += 1;
    for (const bg of behind(el)) {
      const c = ratio(fg[3] < 1 ? over(fg, bg) : fg, bg);
      if (c < minimum) {
        problems.push(`${c.toFixed(2)}:1 ${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ` +
          `"${el.textContent.trim().slice(0, 30)}" ${cs.color} on rgb(${bg.slice(0, 3).map(Math.round).join(",")})`);
        break;
      }
    }
  }
  return { checked, problems };
}
