#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check.py DIR - the pictures made in the test VM (guest.sh), checked on
the host: every SVG passes xmllint; headless Chromium loads each picture
without a console error, an exception or a request for anything but the
file itself; the elements each picture must have are there; screenshots
go to DIR/*.png.  Prints TAP; exits 1 if a check fails.

    flame.svg       profile --svg of "clock_spin 1500 nested": the frames
                    main, meas_outer, meas_middle, meas_spin_target, each
                    directly above its caller and within its width; search
                    and zoom work
    heat.svg        iotrace --heatmap while fio read null_blk (250 us):
                    axes and cells; the requests in the cells are those of
                    the trace; fio's fastest requests (its 1st percentile
                    of completion latency) lie in the band of the heat
                    map's fastest 1% or the next, and below each of fio's
                    percentiles
                    lies at least that share of the cells' requests (a
                    request's device time never exceeds what fio saw)
    heat-from.svg   the same from the records saved with --json: the same
                    cells
    run.html        run --html --profile: the class 0 table, the stops
                    bar chart, the disks table, the flame graph with the
                    chain
    task.svg        task report --svg of clock_spin: its object
                    clock_spin and meas_spin_target stacked, most samples
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Error  # noqa: E402

D = os.path.abspath(sys.argv[1])
CHAIN = ["main", "meas_outer", "meas_middle", "meas_spin_target"]
n = bad = 0


def ok(cond, what):
    global n, bad
    n += 1
    print("%s %d - pictures: %s" % ("ok" if cond else "not ok", n, what))
    bad |= not cond


def xmllint(name):
    r = subprocess.run(["xmllint", "--noout", os.path.join(D, name)],
                       capture_output=True, text=True)
    ok(r.returncode == 0, "%s passes xmllint %s" % (name, r.stderr.strip()))


def load(b, name):
    """Open DIR/name; checks errors and requests; returns the page."""
    url = "file://" + os.path.join(D, name)
    page = b.open(url)
    shot = os.path.join(D, os.path.splitext(name)[0] + ".png")
    page.screenshot(shot)
    errs = page.errors
    ok(not errs, "%s loads without console errors %s" % (name, errs or ""))
    reqs = [u for u in page.requests if u != url and not u.startswith("data:")]
    ok(not reqs, "%s fetches nothing %s" % (name, reqs or ""))
    return page


# The frames of the chain: each directly above the one before, within it.
CHAIN_JS = r"""
(function (chain) {
  var fr = Array.from(document.querySelectorAll('g.fr'));
  var box = function (g) {
    var r = g.querySelector('rect');
    return {x: +g.getAttribute('data-x'), w: +g.getAttribute('data-w'),
            d: +g.getAttribute('data-d'), y: +r.getAttribute('y'),
            px: +r.getAttribute('width')};
  };
  var best = 0;
  fr.filter(function (g) { return g.getAttribute('data-n') == chain[0]; })
    .forEach(function (g) {
      var prev = box(g), k = 1, found = true;
      while (k < chain.length && found) {
        found = false;
        fr.forEach(function (h) {
          var b = box(h);
          if (!found && h.getAttribute('data-n') == chain[k] &&
              b.d == prev.d + 1 && b.x >= prev.x &&
              b.x + b.w <= prev.x + prev.w && b.y < prev.y) {
            prev = b; found = true; k++;
          }
        });
      }
      if (k == chain.length && prev.w > best) best = prev.w;
    });
  return best;
})(%s)
"""


def check_flame(page, name):
    total = page.eval("+document.getElementById('meas-flame')"
                      ".getAttribute('data-total')")
    w = page.eval(CHAIN_JS % json.dumps(CHAIN))
    ok(total and w * 2 >= total,
       "%s: %s in order, %s of %s samples" % (name, ";".join(CHAIN), w,
                                              total))
    hits = page.eval("measFlame.search('^meas_')")
    matched = page.eval("document.getElementById('meas-matched').textContent")
    ok(hits >= 3 and matched.startswith("Matched: "),
       "%s: search colours %s frames (%s)" % (name, hits, matched))
    before = page.eval("document.querySelector('g.fr[data-n=\"meas_middle\"]"
                       " rect').getAttribute('width')")
    page.eval("measFlame.zoom(document.querySelector("
              "'g.fr[data-n=\"meas_middle\"]'))")
    after = page.eval("document.querySelector('g.fr[data-n=\"meas_middle\"]"
                      " rect').getAttribute('width')")
    page.eval("measFlame.reset()")
    ok(float(after) > 1100 and float(after) >= float(before),
       "%s: zoom on meas_middle widens it from %s to %s px" %
       (name, before, after))
    tip = page.eval("document.querySelector('g.fr[data-n=\"meas_middle\"]"
                    " title').textContent")
    ok(re.fullmatch(r"meas_middle \(\d+ samples, \d+\.\d\d%\)", tip or ""),
       "%s: tooltip with count and percent (%s)" % (name, tip))


CELLS_JS = r"""
Array.from(document.querySelectorAll('g.hm-disk')).map(function (g) {
  return [g.getAttribute('data-disk'),
          Array.from(g.querySelectorAll('rect.hm-cell')).map(function (r) {
            return [+r.getAttribute('data-col'),
                    +r.getAttribute('data-low-ns'),
                    +r.getAttribute('data-count')];
          })];
})
"""


def check_heat(page, name):
    axes = page.eval("[document.querySelectorAll('.hm-xaxis text').length,"
                     " document.querySelectorAll('.hm-yaxis text').length]")
    ok(axes[0] >= 3 and axes[1] >= 3,
       "%s: time and latency axes with labels %s" % (name, axes))
    cells = dict((d, c) for d, c in page.eval(CELLS_JS))
    ok("nullb0" in cells and len(cells["nullb0"]) > 5,
       "%s: nullb0 panel with %d cells" % (name, len(cells.get("nullb0", []))))
    return cells


def main():
    prof = tempfile.mkdtemp(prefix="meas-chromium.")
    try:
        for name in ("flame.svg", "heat.svg", "heat-from.svg", "task.svg"):
            xmllint(name)
        with Browser(prof) as b:
            page = load(b, "flame.svg")
            check_flame(page, "flame.svg")

            page = load(b, "heat.svg")
            cells = check_heat(page, "heat.svg")
            page = load(b, "heat-from.svg")
            cells2 = check_heat(page, "heat-from.svg")
            ok(cells == cells2, "heat-from.svg: the same cells as heat.svg")
            check_fio(cells.get("nullb0", []))

            page = load(b, "run.html")
            check_html(page)

            page = load(b, "task.svg")
            w = page.eval(CHAIN_JS % json.dumps(
                ["clock_spin", "meas_spin_target"]))
            total = page.eval("+document.getElementById('meas-flame')"
                              ".getAttribute('data-total')")
            ok(total and w * 2 >= total,
               "task.svg: clock_spin;meas_spin_target under %s of"
               " %s samples" % (w, total))
    except Error as e:
        ok(False, "chromium: %s" % e)
    finally:
        shutil.rmtree(prof, ignore_errors=True)
    print("1..%d" % n)
    return bad


def check_fio(cells):
    recs = [json.loads(l) for l in open(os.path.join(D, "iotrace.json"))
            if l.strip()]
    traced = sum(1 for r in recs if r.get("disk") == "nullb0")
    drawn = sum(c for _, _, c in cells)
    ok(traced and drawn == traced,
       "heat.svg: %d requests drawn, %d traced on nullb0" % (drawn, traced))
    fio = json.load(open(os.path.join(D, "fio.json")))
    rd = fio["jobs"][0]["read"]
    ios = rd["total_ios"]
    ok(abs(ios - traced) <= 8 + ios // 100,
       "heat.svg: fio read %d times, the trace has %d" % (ios, traced))
    pct = dict((float(k), float(v))
               for k, v in rd["clat_ns"]["percentile"].items())
    rows = {}
    for _, low, c in cells:
        rows[low] = rows.get(low, 0) + c
    lows = sorted(rows)
    # the band of the heat map's fastest 1%: where the count reaches 1%
    acc, band = 0, lows[0] if lows else 0
    for low in lows:
        acc += rows[low]
        if acc * 100 >= drawn:
            band = low
            break
    top = band * 2 if band else 2000
    # fio's completion latency of a request is its device time plus the
    # system call around it: never less.  So fio's fastest 1% lie in the
    # band of the heat map's fastest 1%, or in the next one up ...
    p1 = pct.get(1.0, 0)
    ok(band <= p1 < top * 2,
       "heat.svg: the fastest 1%% in %d-%d us; fio's 1st percentile %.0f us"
       " (fio's median %.0f us)" % (band / 1000, top / 1000, p1 / 1000,
                                    pct.get(50.0, 0) / 1000))
    # ... and at every percentile of fio's, at least that share of the
    # heat map's requests starts in a row below fio's latency.
    worst = None
    for p, v in sorted(pct.items()):
        below = sum(c for low, c in rows.items() if low < v)
        short = p / 100 - (below / drawn if drawn else 0)
        if worst is None or short > worst[0]:
            worst = (short, p, v, below)
    ok(worst is not None and worst[0] <= 0.02,
       "heat.svg: below each of fio's percentiles, at least its share "
       "(worst: %.1f%% at %.0f us, %d requests below)" %
       (worst[1], worst[2] / 1000, worst[3]) if worst else "no percentiles")


def check_html(page):
    rows = page.eval("document.querySelectorAll('#meas-class0 tr').length")
    ok(rows > 20, "run.html: class 0 table, %s rows" % rows)
    bars = page.eval("Array.from(document.querySelectorAll('#meas-stops "
                     "g.bar')).map(function (g) { return "
                     "g.getAttribute('data-name'); })")
    ok(len(bars) >= 5 and all(b.startswith("stops-") for b in bars),
       "run.html: stops by reason, %d bars" % len(bars))
    disks = page.eval("Array.from(document.querySelectorAll('#meas-disks td:"
                      "first-child')).map(function (t) { return t.textContent; })")
    ok("nullb0" in disks, "run.html: the disks table, with %s" % disks)
    w = page.eval(CHAIN_JS % json.dumps(CHAIN))
    ok(w > 0, "run.html: the flame graph with %s (%s samples)" %
       (";".join(CHAIN), w))
    text = open(os.path.join(D, "run.html")).read()
    ext = re.findall(r"(?:src|href)\s*=|@import|url\(", text)
    ok(not ext, "run.html: no external script, style sheet or font %s" % ext)


if __name__ == "__main__":
    sys.exit(main())
