#!/usr/bin/env python3
"""html_check.py - checks a warpmem HTML page, in headless Chromium or as text.

  tools/html_check.py [--static] [--screenshot PNG] [--window-size W,H]
                      [--js CODE] [--expect SEL=N | SEL>=N | SEL=SEL2]... PAGE.html

With Chromium (Debian's `chromium`, installed by scripts/setup.sh): loads the
page with `chromium --headless --no-sandbox --disable-gpu --dump-dom` and
checks the DOM after the page's script ran: <body data-ready="1"> (the script
ran to its end), no data-error (window.onerror saw no error) and no message
on the console.  --js runs CODE after the page's script (on a copy of the
page), e.g. to click a column header and note the result in an attribute
that --expect then counts.  Without Chromium it prints SKIP and exits 77 (ctest's
SKIP_RETURN_CODE).  --screenshot also saves a picture of the page.

--static: no browser; parses the file itself and checks that it is
well-formed (every element closed, in order) and that the script's markers
are there.

Either way each --expect counts elements on the page: SEL is `tag`, `.class`,
`#id`, `[attr]` or `[attr=value]`, or several of them joined (svg.mem-chart,
section.launch[data-status=ok]); the right side is a number (`=N`, `>=N`) or
another selector whose count must be equal.  Exit 0 when all hold, 1 with a
line per fault otherwise, 77 when skipped.
"""
import argparse
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BROWSERS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


class Page(html.parser.HTMLParser):
    """The elements of a page (tag, attributes) and its nesting faults."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.stack = []
        self.faults = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            open_tag = self.stack[-1] if self.stack else ("nothing", 0)
            self.faults.append(f"line {self.getpos()[0]}: </{tag}> closes <{open_tag[0]}> of line {open_tag[1]}")
            if any(t == tag for t, _ in self.stack):  # recover: pop up to the match
                while self.stack and self.stack.pop()[0] != tag:
                    pass
            return
        self.stack.pop()

    def close(self):
        super().close()
        for tag, line in self.stack:
            self.faults.append(f"<{tag}> of line {line} is never closed")


SEL_PART = re.compile(r"([a-zA-Z][a-zA-Z0-9-]*)|\.([A-Za-z0-9_-]+)|#([A-Za-z0-9_-]+)|\[([A-Za-z0-9_-]+)(?:=([^\]]*))?\]")


def parse_selector(sel):
    """tag.class#id[attr=value] as a list of (kind, name, value)."""
    parts, pos = [], 0
    while pos < len(sel):
        m = SEL_PART.match(sel, pos)
        if not m or m.end() == pos:
            raise ValueError(f"selector '{sel}': cannot read it at '{sel[pos:]}'")
        tag, cls, ident, attr, val = m.groups()
        if tag:
            parts.append(("tag", tag.lower(), None))
        elif cls:
            parts.append(("class", cls, None))
        elif ident:
            parts.append(("attr", "id", ident))
        else:
            parts.append(("attr", attr.lower(), val.strip("\"'") if val is not None else None))
        pos = m.end()
    return parts


def matches(parts, tag, attrs):
    for kind, name, val in parts:
        if kind == "tag" and tag != name:
            return False
        if kind == "class" and name not in (attrs.get("class") or "").split():
            return False
        if kind == "attr" and (name not in attrs or (val is not None and attrs[name] != val)):
            return False
    return True


def count(page, sel):
    parts = parse_selector(sel)
    return sum(1 for tag, attrs in page.elements if matches(parts, tag, attrs))


def split_expect(exp):
    """SEL, op, rhs: at the first = or >= outside [...]."""
    depth = 0
    for i, c in enumerate(exp):
        depth += (c == "[") - (c == "]")
        if depth == 0 and c == "=" and i > 0:
            op_at = i - 1 if exp[i - 1] == ">" else i
            return exp[:op_at], exp[op_at:i + 1], exp[i + 1:]
    return None


def check_expect(page, exp):
    split = split_expect(exp)
    if not split or not split[0] or not split[2]:
        return [f"--expect '{exp}': write SEL=N, SEL>=N or SEL=SEL2"]
    lhs, op, rhs = split
    n = count(page, lhs)
    want = int(rhs) if rhs.isdigit() else count(page, rhs)
    what = rhs if rhs.isdigit() else f"{want} ({rhs})"
    ok = n >= want if op == ">=" else n == want
    print(f"  {lhs}: {n} {'(ok)' if ok else f'-- expected {op} {what}'}")
    return [] if ok else [f"{lhs}: {n} elements, expected {op} {what}"]


def body_attrs(page):
    for tag, attrs in page.elements:
        if tag == "body":
            return attrs
    return None


def find_browser():
    for b in BROWSERS:
        path = shutil.which(b)
        if path:
            return path
    return None


def run_browser(browser, url, extra, timeout=180):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--no-first-run", "--enable-logging=stderr", "--log-level=0", *extra, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def console_messages(stderr):
    """The page's console lines in Chromium's log (INFO:CONSOLE(line)] "...")."""
    return [ln for ln in stderr.splitlines() if ":CONSOLE" in ln]


def with_script(path, code):
    """A copy of the page (beside it: same folder, same relative paths) that
    runs `code` after the page's own script."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = text.rfind("</body>")
    if at < 0:
        at = len(text)
    fd, copy = tempfile.mkstemp(suffix=".html", dir=os.path.dirname(path))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text[:at] + "<script>" + code + "</script>\n" + text[at:])
    return copy


def check_in_browser(args, faults):
    browser = find_browser()
    if not browser:
        print("SKIP: no Chromium (chromium, chromium-browser or google-chrome) on PATH; scripts/setup.sh installs "
              "Debian's chromium")
        sys.exit(SKIP)
    page_path = os.path.abspath(args.page)
    if args.js:
        page_path = with_script(page_path, args.js)
    url = "file://" + page_path
    res = run_browser(browser, url, ["--dump-dom", "--virtual-time-budget=10000"])
    if args.js:
        os.unlink(page_path)
    if res.returncode != 0 or "<body" not in res.stdout:
        faults.append(f"{browser} --dump-dom failed (status {res.returncode}): {res.stderr.strip()[-800:]}")
        return None
    page = Page()
    page.feed(res.stdout)
    page.close()
    for ln in console_messages(res.stderr):
        faults.append(f"console: {ln.strip()}")
    if args.screenshot:
        shot = run_browser(browser, url, [f"--screenshot={os.path.abspath(args.screenshot)}",
                                          f"--window-size={args.window_size}", "--hide-scrollbars"])
        if shot.returncode != 0 or not os.path.exists(args.screenshot):
            faults.append(f"screenshot failed (status {shot.returncode}): {shot.stderr.strip()[-800:]}")
        else:
            print(f"  screenshot {args.screenshot}: {os.path.getsize(args.screenshot)} bytes")
    body = body_attrs(page) or {}
    if body.get("data-ready") != "1":
        faults.append("<body> has no data-ready=\"1\": the page's script did not run to its end")
    if "data-error" in body:
        faults.append(f"script error: {body['data-error']}")
    return page


def check_static(args, faults):
    with open(args.page, encoding="utf-8") as f:
        text = f.read()
    page = Page()
    page.feed(text)
    page.close()
    faults += page.faults[:20]
    if "dataset.ready" not in text or "window.onerror" not in text:
        faults.append("the shared script (ready flag, window.onerror) is missing")
    if re.search(r"<(script|link|img)[^>]*\b(src|href)=\"(https?:)?//", text):
        faults.append("the page loads something from the network")
    return page


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("page")
    ap.add_argument("--static", action="store_true", help="no browser: parse the file")
    ap.add_argument("--screenshot", help="save a PNG of the page (Chromium)")
    ap.add_argument("--window-size", default="1280,2000")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--js", help="JavaScript to run after the page's script (Chromium)")
    args = ap.parse_args()
    faults = []
    print(f"html_check: {args.page} ({'static' if args.static else 'chromium'})")
    page = check_static(args, faults) if args.static else check_in_browser(args, faults)
    if page is not None:
        for exp in args.expect:
            try:
                faults += check_expect(page, exp)
            except ValueError as e:
                faults.append(str(e))
    for f in faults:
        print(f"FAIL: {f}")
    print(f"html_check: {'ok' if not faults else f'{len(faults)} faults'}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
