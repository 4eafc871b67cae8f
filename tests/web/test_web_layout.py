"""The page's layout on a phone held upright, a phone held sideways, a desktop and a short
desktop window: every key on the screen without scrolling, the display beside the keys when the
screen is low and wide, and the keyboard's help only where there is a keyboard.

Geometry is read off the page in CSS pixels of the viewport (getBoundingClientRect) at scroll
position 0; the phones are touch screens as Playwright emulates them (``has_touch``,
``is_mobile``: the media features ``hover: none`` and ``pointer: coarse``), the desktop a mouse.
"""

import pytest

from web_harness import WebGadget, bits, differs

PHONE = dict(device_scale_factor=3, has_touch=True, is_mobile=True)
SIZES = {
    "phone": dict(viewport={"width": 390, "height": 844}, **PHONE),
    "phone sideways": dict(viewport={"width": 844, "height": 390}, **PHONE),
    "desktop": dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1),
    "short desktop window": dict(viewport={"width": 1280, "height": 400}, device_scale_factor=1),
}
SIDEWAYS = ("phone sideways", "short desktop window")  # wide and low: the keys beside the display
TOUCH = ("phone", "phone sideways")

GEOMETRY = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
                          return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
    const keys = {};
    for (const el of document.querySelectorAll("[data-key]")) if (!el.hidden) keys[el.dataset.key] = box(el);
    const help = document.getElementById("help");
    return {width: innerWidth, height: innerHeight, dpr: devicePixelRatio,
            scrollWidth: document.documentElement.scrollWidth, scrollY: scrollY,
            display: box(document.getElementById("oled-box")), canvas: box(document.getElementById("oled")),
            gadget: box(document.querySelector(".gadget")), keys: keys,
            help: help.checkVisibility() && help.textContent ? box(help) : null};
}"""


def geometry(page):
    return page.evaluate(GEOMETRY)


def inside(box, g):
    """``box`` lies wholly in the viewport (half a pixel of rounding allowed)."""
    return (box["left"] >= -0.5 and box["top"] >= -0.5 and box["right"] <= g["width"] + 0.5
            and box["bottom"] <= g["height"] + 0.5)


def overlap(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def check_fits(g, size):
    """What every size must show: the gadget whole on the screen, unscrolled, the display and
    the keys apart, the keys beside the display sideways and below it otherwise."""
    assert g["scrollY"] == 0 and g["scrollWidth"] <= g["width"], g
    off = {name: box for name, box in g["keys"].items() if not inside(box, g)}
    assert not off, "keys outside the %dx%d viewport: %s" % (g["width"], g["height"], off)
    assert inside(g["display"], g), ("the display is outside the viewport", g["display"])
    assert inside(g["gadget"], g), ("the gadget does not fit the viewport", g["gadget"])
    hit = {name: box for name, box in g["keys"].items() if overlap(box, g["display"])}
    assert not hit, ("keys over the display", g["display"], hit)
    if size in SIDEWAYS:
        left = min(box["left"] for box in g["keys"].values())
        assert left >= g["display"]["right"], ("the keys are not beside the display", g)
    else:
        top = min(box["top"] for box in g["keys"].values())
        assert top >= g["display"]["bottom"], ("the keys are not below the display", g)


def check_display(g, size):
    """Crisp (a whole number of device pixels per OLED pixel) and as large as the size allows."""
    c = g["canvas"]
    width, height = c["right"] - c["left"], c["bottom"] - c["top"]
    px = round(width * g["dpr"])
    assert px % 128 == 0 and abs(height - width / 2) < 0.01, (size, c)
    if size in TOUCH and size in SIDEWAYS:
        assert width >= 0.5 * g["width"] and height >= 0.55 * g["height"], (size, c)
    elif size in TOUCH:
        assert width >= 0.7 * g["width"], (size, c)
    else:
        assert width >= 512, (size, c)  # the desktop's display as it was: 4 pixels a pixel


@pytest.mark.parametrize("size", SIZES)
def test_every_key_is_on_the_screen_without_scrolling(size, page_as, origin, host):
    """Each key inside the viewport and away from the display, and a tap at its place (no
    scrolling: a touch or a click where the key is shown) presses it: DOWN, then OK."""
    page = page_as(**SIZES[size])
    web = WebGadget(page, origin).open()
    g = geometry(page)
    check_fits(g, size)
    check_display(g, size)
    dev = host()
    for key in ("DOWN", "OK"):
        dev.press(key)
        box = g["keys"][key]
        x, y = (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2
        if size in TOUCH:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        web.settle()
        frame, want = web.frame(), bits(dev.panel.pixels())
        assert frame == want, differs("after a tap on %s" % key, frame, want)


@pytest.mark.parametrize("size", SIZES)
def test_the_keyboard_help_shows_only_where_there_is_a_keyboard(size, page_as, origin):
    page = page_as(**SIZES[size])
    WebGadget(page, origin).open()
    g = geometry(page)
    if size in TOUCH:
        assert g["help"] is None, "the keyboard's help shows on a touch screen"
    else:
        assert g["help"] and inside(g["help"], g), g["help"]
        assert "Enter" in page.text_content("#help")


def test_turning_the_phone_lays_the_page_out_again(page_as, origin):
    """A phone turned sideways and back: the page follows each turn (its resize), and comes
    back as it was."""
    upright = SIZES["phone"]["viewport"]
    page = page_as(**SIZES["phone"])
    WebGadget(page, origin).open()
    before = geometry(page)
    turns = (("phone sideways", SIZES["phone sideways"]["viewport"]), ("phone", upright))
    for size, viewport in turns:
        page.set_viewport_size(viewport)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        g = geometry(page)
        check_fits(g, size)
        check_display(g, size)
    assert g == before
