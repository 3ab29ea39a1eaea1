# SPDX-License-Identifier: Apache-2.0
"""render_page loads real pages in headless Chromium and reports each kind of console error."""

import pathlib
import struct

import pytest

from opbridge_testing import browser
from opbridge_testing.browser import BrowserError, BrowserTimeoutError, render_page

RECTS = 7
COUNT_RECTS = "document.querySelectorAll('svg rect').length"


def page(folder: pathlib.Path, body: str) -> pathlib.Path:
    path = folder / "page.html"
    path.write_text(f"<!doctype html>\n<html><head><meta charset='utf-8'></head><body>\n{body}\n</body></html>\n")
    return path


def png_size(png: bytes) -> tuple[int, int]:
    # The IHDR chunk comes first: width and height, big-endian, after the 8-byte signature and chunk header.
    return struct.unpack(">II", png[16:24])


def test_a_clean_page_has_no_errors_and_a_full_page_screenshot(tmp_path: pathlib.Path) -> None:
    rects = "".join(f"<rect x='{20 * i}' y='0' width='10' height='10' fill='teal'/>" for i in range(RECTS))
    # Taller than the viewport: the screenshot must cover the whole page.
    path = page(tmp_path, f"<svg width='600' height='1500'>{rects}</svg>")
    result = render_page(path, COUNT_RECTS, screenshot=tmp_path / "page.png", width=800, height=600)
    assert result.console_errors == []
    assert result.value == RECTS
    assert result.screenshot is not None and result.screenshot.startswith(b"\x89PNG\r\n\x1a\n")
    assert (tmp_path / "page.png").read_bytes() == result.screenshot
    width, height = png_size(result.screenshot)
    assert width == 800
    assert height >= 1500


def test_console_error_is_reported_with_its_text_and_line(tmp_path: pathlib.Path) -> None:
    # Line 4: the doctype, the html line, then <script> and console.error.
    result = render_page(page(tmp_path, '<script>\nconsole.error("x");\n</script>'), "1 + 1")
    assert result.value == 2
    assert result.screenshot is None
    assert result.console_errors == [f"console.error: x ({page_url(tmp_path)}:4)"]


def test_an_uncaught_exception_is_reported(tmp_path: pathlib.Path) -> None:
    result = render_page(page(tmp_path, "<script>undefined_function();</script>"), "null")
    [error] = result.console_errors
    assert "ReferenceError: undefined_function is not defined" in error
    assert page_url(tmp_path) in error


def test_missing_resources_are_reported(tmp_path: pathlib.Path) -> None:
    result = render_page(page(tmp_path, "<img src='missing.png'><script src='missing.js'></script>"), "null")
    assert len(result.console_errors) == 2
    assert all("net::ERR_FILE_NOT_FOUND" in error for error in result.console_errors)
    # The two loads fail in either order.
    for name in ("missing.png", "missing.js"):
        assert sum(name in error for error in result.console_errors) == 1, result.console_errors


def test_a_page_that_never_answers_times_out_naming_the_step(tmp_path: pathlib.Path) -> None:
    path = page(tmp_path, "<p>waits forever</p>")
    with pytest.raises(BrowserTimeoutError, match=r"page\.html.*step: evaluate the expression"):
        # Long enough for Chromium to start on a loaded machine; the promise never settles.
        render_page(path, "new Promise(() => {})", timeout_seconds=20)


def test_an_expression_that_throws_is_an_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(BrowserError, match=r"threw: .*ReferenceError"):
        render_page(page(tmp_path, "<p>hello</p>"), "no_such_name")


def page_url(folder: pathlib.Path) -> str:
    return (folder / "page.html").resolve().as_uri()


def test_a_missing_chromium_names_the_fix(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "no-chromium")
    with pytest.raises(BrowserError, match=r"no-chromium is missing: run \./bazelw.*debian_packages\.txt"):
        render_page(page(tmp_path, "<p>hello</p>"), "null")
