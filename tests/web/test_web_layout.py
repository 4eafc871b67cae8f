"""The page on a phone held upright, a phone held sideways and a desktop: the keyboard's help
only where there is a keyboard.

Geometry is read off the page in CSS pixels of the viewport (getBoundingClientRect) at scroll
position 0; the phones are touch screens as Playwright emulates them (``has_touch``,
``is_mobile``: the media features ``hover: none`` and ``pointer: coarse``), the desktop a mouse.
"""

import pytest

from web_harness import WebGadget

PHONE = dict(device_scale_factor=3, has_touch=True, is_mobile=True)
SIZES = {
    "phone": dict(viewport={"width": 390, "height": 844}, **PHONE),
    "phone sideways": dict(viewport={"width": 844, "height": 390}, **PHONE),
    "desktop": dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1),
}
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
