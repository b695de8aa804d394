#!/usr/bin/env python3
"""umbra report: pages of real runs rendered in headless Chromium, their DOM checked against the
statistics JSON they came from; bad input refused without a page.

    report_test.py UMBRA SHARED_DIR SOURCE_DIR WORK_DIR CASE

CASE ventus   a shipped Ventus program (bfs_4x16) through `umbra ventus run --report`
CASE rdna3    a corpus kernel (mandelbrot) at -O0 and -O3 through `umbra run --profile-pcs` and
              `umbra report` side by side; the hottest instructions against llvm-objdump-19
CASE timing   the timing section from a statistics file with a "timing" object (docs/REPORT.md)
CASE errors   truncated, foreign, mistyped and missing statistics: a clear error and no page;
              statistics appended to one file (a stream of documents)

The pages and their screenshots stay in WORK_DIR/artifacts.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

umbra, shared, src, work, case = sys.argv[1:6]
art = os.path.join(work, "artifacts")
os.makedirs(art, exist_ok=True)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, expect=0):
    p = subprocess.run([umbra, *args], capture_output=True, text=True)
    if p.returncode != expect:
        print(p.stdout, p.stderr)
        sys.exit(f"umbra {' '.join(args)}: exit status {p.returncode}, expected {expect}")
    return p


# ---- the DOM, as Chromium serialises it after the page's script ran ----

class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, dict(attrs), parent, [], ""

    def all(self, pred=lambda n: True):
        for c in self.children:
            if pred(c):
                yield c
            yield from c.all(pred)

    def cls(self):
        return (self.attrs.get("class") or "").split()

    def content(self):
        return self.text + "".join(c.content() for c in self.children)


VOID = {"meta", "br", "img", "input", "link", "hr", "line"}


class Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = self.cur = Node("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        # text after a child goes to the parent too: content() order is approximate, enough here
        self.cur.text += data


def chromium_render(page, name, height):
    """Load the page in headless Chromium: its DOM after the script ran, and a screenshot."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("SKIP: Chromium is not installed (Debian package chromium, see scripts/deps.sh)")
        sys.exit(77)
    png = os.path.join(art, name + ".png")
    with tempfile.TemporaryDirectory() as profile:
        p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            f"--user-data-dir={profile}", "--no-first-run", f"--window-size=1280,{height}",
                            f"--screenshot={png}", "--dump-dom", "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"{name}: chromium exit status {p.returncode}: {p.stderr[-500:]}")
    check(os.path.getsize(png) > 20000 if os.path.exists(png) else False, f"{name}: no screenshot {png}")
    with open(os.path.join(art, name + ".dom.html"), "w") as f:
        f.write(p.stdout)
    b = Builder()
    b.feed(p.stdout)
    return b.root


def page_loaded(dom, name):
    """The script ran to its end (it marks the page ready) and window.onerror reported nothing."""
    status = next(dom.all(lambda n: n.attrs.get("id") == "report-status"), None)
    check(status is not None and status.attrs.get("data-ready") == "1", f"{name}: the page's script did not finish")
    errors = next(dom.all(lambda n: n.attrs.get("id") == "script-errors"), None)
    check(errors is not None and errors.content().strip() == "", f"{name}: script errors: {errors and errors.content()}")
    html_el = next(dom.all(lambda n: n.tag == "html"), None)
    check(html_el is not None and "data-script-errors" not in html_el.attrs, f"{name}: window.onerror fired")
    # self-contained: nothing is fetched from anywhere
    for n in dom.all(lambda n: n.tag in ("script", "link", "img", "iframe")):
        check("src" not in n.attrs and "href" not in n.attrs, f"{name}: {n.tag} loads {n.attrs}")


def chart(dom, cid):
    f = next(dom.all(lambda n: n.tag == "figure" and n.attrs.get("id") == cid), None)
    check(f is not None, f"chart {cid} missing")
    return f


def bars(fig):
    return list(fig.all(lambda n: n.tag == "g" and "bar" in n.cls())) if fig else []


def segs(bar):
    return list(bar.all(lambda n: n.tag == "rect" and "seg" in n.cls()))


def bar_total(bar):
    return sum(float(s.attrs["data-value"]) for s in segs(bar))


def cells(dom, key):
    return list(dom.all(lambda n: n.tag == "td" and n.attrs.get("data-key") == key))


def number(text):
    return float(re.sub(r"[^0-9.]", "", text.split()[0]))


CLASSES = ["scalar_alu", "vector_int", "vector_fp", "scalar_mem", "vector_load", "vector_store", "atomic",
           "local_mem", "branch", "simt_control", "sync", "other"]
SPACES = ["global", "local", "private", "constant"]


def check_common(dom, name, runs):
    """Charts and tables every page has; runs = the statistics (the total objects) in page order."""
    n = len(runs)
    # summary: the totals table shows the JSON's numbers
    tot = next(dom.all(lambda t: t.attrs.get("id") == "totals"))
    for key in ("warp_instructions", "thread_instructions", "workgroups", "warps", "lane_slots"):
        got = [c for c in tot.all(lambda c: c.tag == "td" and c.attrs.get("data-key") == key)]
        check([int(number(c.content())) for c in got] == [r[key] for r in runs],
              f"{name}: totals {key} {[c.content() for c in got]} != {[r[key] for r in runs]}")
    simt = [c.content() for c in tot.all(lambda c: c.tag == "td" and c.attrs.get("data-key") == "simt_efficiency")]
    check(simt == [f"{100 * r['simt_efficiency']:.2f} %" for r in runs], f"{name}: SIMT efficiency {simt}")
    secs = [c.content() for c in tot.all(lambda c: c.tag == "td" and c.attrs.get("data-key") == "host_seconds")]
    check(secs == [f"{r['host_seconds']:.6f} s" for r in runs], f"{name}: wall time {secs}")
    # instruction mix: one stacked bar per run, a segment per class it executed
    used = [c for c in CLASSES if any(r["instructions_by_class"][c] for r in runs)]
    fig = chart(dom, "chart-mix")
    check(fig is not None and fig.attrs.get("data-segments") == str(len(used)), f"{name}: mix legend {used}")
    mix = bars(fig)
    check(len(mix) == n, f"{name}: {len(mix)} instruction-mix bars, expected {n}")
    for b, r in zip(mix, runs):
        want = {c: r["instructions_by_class"][c] for c in used if r["instructions_by_class"][c]}
        got = {s.attrs["data-seg"]: int(float(s.attrs["data-value"])) for s in segs(b)}
        check(got == want, f"{name}: mix segments {got} != {want}")
        check(bar_total(b) == r["warp_instructions"], f"{name}: mix bar sums to {bar_total(b)}")
    # memory: a group per address space, a bar per run, segments loads/stores/atomics
    mem = bars(chart(dom, "chart-mem-accesses"))
    check(len(mem) == 4 * n, f"{name}: {len(mem)} memory bars, expected {4 * n}")
    for i, b in enumerate(mem):
        t = runs[i % n]["memory"][SPACES[i // n]]
        want = {k: t[k] for k in ("loads", "stores", "atomics") if t[k]}
        got = {s.attrs["data-seg"]: int(float(s.attrs["data-value"])) for s in segs(b)}
        check(b.attrs.get("data-group") == SPACES[i // n] and got == want,
              f"{name}: memory bar {b.attrs.get('data-group')} {got} != {want}")
    mb = bars(chart(dom, "chart-mem-bytes"))
    check([bar_total(b) for b in mb] ==
          [runs[i % n]["memory"][SPACES[i // n]]["bytes_read"] + runs[i % n]["memory"][SPACES[i // n]]["bytes_written"]
           for i in range(4 * n)], f"{name}: memory bytes bars")


def check_hot(dom, name, docs):
    """A hottest-instructions table per document: the profile adds up to the counted
    warp-instructions, the table lists its top 20 by count with their disassembly. Returns the
    top entries of each document."""
    tables = list(dom.all(lambda n: n.tag == "table" and "hot" in n.cls()))
    check(len(tables) == len(docs), f"{name}: {len(tables)} hottest-instruction tables")
    tops = []
    for js, t in zip(docs, tables):
        prof = js["pc_profile"]["instructions"]
        warp = js["total"]["warp_instructions"] if "total" in js else js["warp_instructions"]
        check(sum(i["count"] for i in prof) == warp == js["pc_profile"]["total"],
              f"{name}: the per-PC counts do not add up to the warp-instructions")
        rows = list(t.all(lambda n: n.tag == "tr" and n.parent.tag == "tbody"))
        check(len(rows) == min(20, len(prof)), f"{name}: {len(rows)} hot rows")
        top = sorted(prof, key=lambda i: -i["count"])[:len(rows)]
        tds = [list(r.all(lambda c: c.tag == "td")) for r in rows]
        check([int(number(td[2].content())) for td in tds] == [i["count"] for i in top],
              f"{name}: hot counts are not the top of the profile")
        check(len(tds) > 0 and " ".join(tds[0][4].content().split()) == " ".join(top[0]["disasm"].split()),
              f"{name}: the hottest row's disassembly")
        tops.append(top)
    return tops


def ventus_case():
    prog = os.path.join(shared, "testcases", "ventus", "bfs_4x16")
    stats, page = os.path.join(work, "bfs.json"), os.path.join(art, "ventus_bfs.html")
    run(["ventus", "run", prog, "--stats", stats, "--report", page, "--quiet"])
    js = json.load(open(stats))
    launches = js["launches"]
    dom = chromium_render(page, "ventus_bfs", 4200)
    page_loaded(dom, "ventus")
    check_common(dom, "ventus", [js["total"]])
    # per launch: one bar each, the heavy launches by their warp-instructions and time
    for cid, key in (("chart-launch-insts", "warp_instructions"), ("chart-launch-time", "host_seconds"),
                     ("chart-divergence", "divergent_branches")):
        got = [(b.attrs["data-group"], bar_total(b)) for b in bars(chart(dom, cid))]
        want = [(l["name"], float(l["stats"][key])) for l in launches]
        check(got == want, f"ventus: {cid} {got} != {want}")
    simt = [(b.attrs["data-group"], round(bar_total(b), 4)) for b in bars(chart(dom, "chart-simt"))]
    check(simt == [(l["name"], round(100 * l["stats"]["simt_efficiency"], 4)) for l in launches], f"ventus: SIMT {simt}")
    # the mix per launch: a bar per launch, a segment per class the launch executed
    per = bars(chart(dom, "chart-mix-launch"))
    check(len(per) == len(launches), f"ventus: {len(per)} per-launch mix bars, expected {len(launches)}")
    for b, l in zip(per, launches):
        check(len(segs(b)) == sum(1 for c in CLASSES if l["stats"]["instructions_by_class"][c]),
              f"ventus: launch {l['name']} has {len(segs(b))} mix segments")
    # the launch table: a row per launch, the heaviest marked
    rows = [r for r in dom.all(lambda n: n.tag == "tr" and n.parent and n.parent.parent is not None
                               and "launches" in n.parent.parent.cls() and n.parent.tag == "tbody")]
    check(len(rows) == len(launches), f"ventus: {len(rows)} launch rows")
    heavy = [r for r in rows if "heavy" in r.cls()]
    top = max(l["stats"]["warp_instructions"] for l in launches)
    check(len(heavy) >= 1 and all(int(number(next(r.all(lambda c: c.attrs.get("data-key") == "warp_instructions")).content())) == top
                                  for r in heavy), "ventus: the heaviest launch is not marked")
    check_hot(dom, "ventus", [js])
    # the profile's PCs are the program's: each disassembles as `umbra ventus disasm` lists it
    listing = {}
    for line in run(["ventus", "disasm", os.path.join(prog, "object.riscv")]).stdout.splitlines():
        m = re.match(r"([0-9a-f]{8}): [0-9a-f]{8}\s+(.*)", line)
        if m:
            listing[int(m.group(1), 16)] = " ".join(re.sub(r" <[^>]*>$", "", m.group(2)).split())
    for i in js["pc_profile"]["instructions"]:
        check(listing.get(int(i["pc"], 16)) == " ".join(i["disasm"].split()), f"ventus: {i['pc']} {i['disasm']!r}")
    check("No timing data" in dom.content(), "ventus: the note of the empty timing section")


def rdna3_case():
    kernel = os.path.join(src, "..", "rdna3", "kernels", "mandelbrot.cl")
    docs = []
    for opt in ("0", "3"):
        co, stats = os.path.join(work, f"mandelbrot.O{opt}.co"), os.path.join(work, f"mandelbrot.O{opt}.json")
        run(["cc", kernel, f"-O{opt}", "-o", co])
        extra = ["--report", os.path.join(art, "rdna3_mandelbrot_O3_single.html")] if opt == "3" else []
        run(["run", co, "--kernel", "mandelbrot", "--global", "48,24", "--local", "8,8", "--arg", "buf:zeros:4608",
             "--arg", "i32:48", "--arg", "i32:24", "--arg", "f32:-2.1", "--arg", "f32:-1.2", "--arg", "f32:0.09",
             "--arg", "u32:100", "--stats", stats, "--profile-pcs", "--quiet", *extra])
        docs.append((co, json.load(open(stats)), stats))
    check(os.path.exists(os.path.join(art, "rdna3_mandelbrot_O3_single.html")), "rdna3: umbra run --report wrote no page")
    page = os.path.join(art, "rdna3_mandelbrot_O0_O3.html")
    run(["report", "--label", "-O0", docs[0][2], "--label", "-O3", docs[1][2], "-o", page, "--title", "mandelbrot"])
    dom = chromium_render(page, "rdna3_mandelbrot_O0_O3", 5200)
    page_loaded(dom, "rdna3")
    runs = [d for _, d, _ in docs]
    check_common(dom, "rdna3", runs)
    # runs side by side: one group (the kernel), two bars
    b = bars(chart(dom, "chart-launch-insts"))
    check([(x.attrs["data-series"], bar_total(x)) for x in b] == [("-O0", runs[0]["warp_instructions"]),
                                                                  ("-O3", runs[1]["warp_instructions"])],
          "rdna3: grouped warp-instruction bars")
    # the hottest instructions' disassembly is llvm-objdump-19's
    for (co, js, _), top in zip(docs, check_hot(dom, "rdna3", runs)):
        objdump = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=gfx1100", co], capture_output=True, text=True).stdout
        listing = {}
        for line in objdump.splitlines():
            m = re.match(r"\s+(\S.*?)\s*// ([0-9A-F]+):", line)
            if m:
                listing[int(m.group(2), 16)] = " ".join(m.group(1).split())
        for i in top:
            check(listing.get(i["offset"]) == " ".join(i["disasm"].split()),
                  f"rdna3: {i['pc']}: '{i['disasm']}' but llvm-objdump-19 says '{listing.get(i['offset'])}'")


def timing_case():
    """The section the timing model (issue 11) fills: a "timing" object as docs/REPORT.md shapes it."""
    co, stats = os.path.join(work, "vec_add.co"), os.path.join(work, "vec_add.json")
    run(["cc", os.path.join(src, "..", "rdna3", "kernels", "vec_add.cl"), "-O3", "-o", co])
    run(["run", co, "--kernel", "vec_add", "--global", "256", "--local", "64", "--arg", "buf:iota:f32:256",
         "--arg", "buf:iota:f32:256", "--arg", "buf:zeros:1024", "--arg", "u32:256", "--stats", stats, "--quiet"])
    js = json.load(open(stats))
    js["timing"] = {
        "cycles": 12345, "clock_mhz": 2500, "ipc": 0.42, "occupancy": 0.75,
        "wave_cycles": {"issuing": 500, "waiting_vmcnt": 7000, "waiting_lgkmcnt": 900, "barrier": 0, "idle": 300},
        "caches": {"L0": {"hits": 30, "misses": 10}, "L1": {"hits": 5, "misses": 5}, "L2": {"hits": 1, "misses": 3}},
        "timeline": [{"track": "SIMD0", "name": "wave 0", "start": 0, "end": 6000},
                     {"track": "SIMD1", "name": "wave 1", "start": 100, "end": 12345}],
    }
    tstats = os.path.join(work, "vec_add_timing.json")
    json.dump(js, open(tstats, "w"))
    page = os.path.join(art, "rdna3_timing.html")
    run(["report", tstats, "-o", page])
    dom = chromium_render(page, "rdna3_timing", 4000)
    page_loaded(dom, "timing")
    cyc = cells(dom, "cycles")
    check(len(cyc) == 1 and cyc[0].content() == "12,345", f"timing: cycles {[c.content() for c in cyc]}")
    st = bars(chart(dom, "chart-timing-wave_cycles"))
    check(len(st) == 1 and {s.attrs["data-seg"]: float(s.attrs["data-value"]) for s in segs(st[0])} ==
          {k: v for k, v in js["timing"]["wave_cycles"].items() if v}, "timing: the stall breakdown")
    hit = [(b.attrs["data-group"], bar_total(b)) for b in bars(chart(dom, "chart-timing-caches"))]
    check(hit == [("L0", 75.0), ("L1", 50.0), ("L2", 25.0)], f"timing: hit rates {hit}")
    ev = list(dom.all(lambda n: n.tag == "rect" and "event" in n.cls()))
    check(len(ev) == 2, f"timing: {len(ev)} timeline events")


def errors_case():
    good = os.path.join(work, "good.json")
    run(["ventus", "run", os.path.join(shared, "testcases", "ventus", "vecadd_4x8"), "--stats", good, "--quiet"])
    text = open(good).read()
    out = os.path.join(work, "err.html")
    cases = {
        "truncated.json": (text[: len(text) // 2], r"truncated\.json: line \d+, column \d+: "),
        "foreign.json": ('{"a": 1}\n', r"foreign\.json: not umbra statistics"),
        "array.json": ("[1, 2]\n", r"array\.json: not umbra statistics"),
        "empty.json": ("", r"empty\.json: line \d+, column \d+: "),
        "mistyped.json": ('{"warp_instructions": "many"}\n', r'mistyped\.json: "warp_instructions" is not a'),
        "badlaunch.json": ('{"launches": [{"name": "k", "stats": {"warp_instructions": -1}}], "total": {"warp_instructions": 1}}',
                           r'badlaunch\.json: launches\[0\]\."warp_instructions" is not a'),
    }
    for name, (content, msg) in cases.items():
        path = os.path.join(work, name)
        open(path, "w").write(content)
        if os.path.exists(out):
            os.remove(out)
        p = run(["report", good, path, "-o", out], expect=1)
        check(re.search(msg, p.stderr) is not None, f"errors: {name}: message {p.stderr!r}")
        check(not os.path.exists(out), f"errors: {name}: a page was written")
    p = run(["report", os.path.join(work, "no-such.json"), "-o", out], expect=1)
    check("no-such.json" in p.stderr and not os.path.exists(out), f"errors: missing file: {p.stderr!r}")
    # an existing page stays as it was
    open(out, "w").write("old page")
    run(["report", os.path.join(work, "foreign.json"), "-o", out], expect=1)
    check(open(out).read() == "old page", "errors: a bad input replaced an existing page")
    p = run(["report", good, "-o", os.path.join(work, "no-such-dir", "x.html")], expect=1)
    check("no-such-dir" in p.stderr, f"errors: unwritable page: {p.stderr!r}")
    # a program folder whose name is not UTF-8: the statistics stay JSON (U+FFFD), the page is made
    odd = os.path.join(work.encode(), b"vecadd-\xff")
    if os.path.exists(odd):
        shutil.rmtree(odd)
    shutil.copytree(os.path.join(shared, "testcases", "ventus", "vecadd_4x8").encode(), odd)
    oddjs = os.path.join(work, "odd.json")
    p = subprocess.run([umbra.encode(), b"ventus", b"run", odd, b"--stats", oddjs.encode(), b"--report", out.encode(),
                        b"--quiet"], capture_output=True)
    check(p.returncode == 0 and json.load(open(oddjs))["input"].endswith("vecadd-\ufffd"),
          f"errors: non-UTF-8 folder name: {p.stderr!r}")
    # statistics appended to one file, run after run: one run whose launches follow each other
    stream = os.path.join(work, "stream.json")
    open(stream, "w").write(text + text)
    run(["report", stream, "-o", out])
    b = Builder()
    b.feed(open(out).read())
    js = json.loads(text)
    names = [l["name"] for l in js["launches"]]
    got = [g.attrs["data-group"] for g in bars(chart(b.root, "chart-launch-insts"))]
    check(got == names + [n + " #2" for n in names], f"errors: stream launches {got}")
    tot = [int(number(c.content())) for c in cells(b.root, "warp_instructions")][:1]
    check(tot == [2 * js["total"]["warp_instructions"]], f"errors: stream total {tot}")
    open(stream, "w").write(text + '{"a": 1}\n')
    p = run(["report", stream, "-o", os.path.join(work, "stream.html")], expect=1)
    check("stream.json (document 2): not umbra statistics" in p.stderr, f"errors: stream: {p.stderr!r}")
    open(stream, "w").write(text + '{"launches": [\n')
    p = run(["report", stream, "-o", os.path.join(work, "stream.html")], expect=1)
    m = re.search(r"stream\.json: line (\d+), column \d+: ", p.stderr)
    check(m is not None and int(m.group(1)) == text.count("\n") + 2, f"errors: stream syntax error: {p.stderr!r}")
    check(not os.path.exists(os.path.join(work, "stream.html")), "errors: stream: a page was written")
    run(["report", good], expect=2)   # no -o
    run(["report", good, "-o", out])  # and the good file alone makes a page
    check(open(out).read().startswith("<!DOCTYPE html>"), "errors: the good file's page")


{"ventus": ventus_case, "rdna3": rdna3_case, "timing": timing_case, "errors": errors_case}[case]()
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("ok")
