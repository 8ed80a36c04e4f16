"""Every text format a route reads, fed arbitrary text through HTTP: the Number Sums CSV (as `{"csv": ...}`
on solve, grade and render, and as a `text/csv` body) and the puzz.link reader (`{"url": ...}` on solve,
grade and render for Battleship). Whatever the text (any line separator, NUL, a byte-order mark, quotes,
lone surrogates, huge numbers, very long input), the answer is a 2xx or a 422 whose detail says what is
wrong; never a 5xx.

Hypothesis draws from an alphabet weighted towards what these formats are made of (digits, separators,
the run-length letters, line ends of every kind), plus any character at all, and from inputs shaped like
the formats with one part broken; the @examples are the cases that once failed or sit on a limit.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generators.registry import TYPES

GENERATE_BUDGET_SECONDS = 60  # the `client` fixture's (conftest)

LINE_SEPARATORS = ["\n", "\r\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
ODD = ["\x00", "\ufeff", '"', "'", "\t", " ", "\u00a0", "²", "٣", "１", "_", "+", "-", "e", "∞", "\U0001f600"]
CSV_ROUTES = [f"/{route}/number-sums" for route in ("solve", "grade", "render")]
URL_ROUTES = [f"/{route}/battleship" for route in ("solve", "grade", "render")]
URL_PREFIX = "https://puzz.link/p?battleship/"

surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
any_character = st.characters(codec=None) | surrogates  # JSON carries lone surrogates as \ud800 escapes
huge = st.integers(min_value=-(10**80), max_value=10**80).map(str) | st.just("9" * 5000)


def text_of(*alphabets: str, max_size: int, min_size: int = 0) -> st.SearchStrategy[str]:
    """Text mostly of these characters, every line separator and the odd ones, and now and then any."""
    token = st.sampled_from([*"".join(alphabets), *LINE_SEPARATORS, *ODD]) | any_character
    return st.lists(token, min_size=min_size, max_size=max_size).map("".join)


csv_text = st.one_of(
    text_of("0123456789,, ", max_size=300),
    st.lists(  # lines of fields: row sums and digits, some of them broken
        st.lists(st.integers(0, 12).map(str) | huge | text_of("0123456789", max_size=4), min_size=1, max_size=8)
        .map(",".join),
        min_size=1, max_size=16,
    ).flatmap(lambda lines: st.sampled_from(LINE_SEPARATORS).map(lambda end: end.join(lines))),
    st.tuples(text_of("0123456789,", min_size=1, max_size=40), st.integers(1, 30_000)).map(lambda t: t[0] * t[1]),
)
url_body = text_of("0123456789abcdefghijklmnopqrstuvwxyz-./=%:", max_size=200)
url_text = st.one_of(
    text_of("0123456789/?:.", "battleship", max_size=200),
    st.tuples(st.integers(-3, 200).map(str) | huge | text_of("0123456789", max_size=3),
              st.integers(-3, 200).map(str) | huge | text_of("0123456789", max_size=3), url_body)
    .map(lambda t: f"{URL_PREFIX}{t[0]}/{t[1]}/{t[2]}"),
    st.tuples(url_body, st.integers(1, 5_000)).map(lambda t: URL_PREFIX + "6/6/" + t[0] * t[1]),
)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def post_json(client, route: str, field: str, text: str):  # noqa: ANN201
    """JSON written by hand: ensure_ascii escapes lone surrogates, which a client library would refuse."""
    body = json.dumps({field: text}).encode()
    return client.post(route, content=body, headers={"Content-Type": "application/json"})


def assert_clear(response, field: str) -> None:  # noqa: ANN001
    assert response.status_code < 500, response.text[:500]
    if response.status_code < 300:
        return
    assert response.status_code == 422, response.text[:500]
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail, detail
    for error in detail:
        assert error["loc"][0] == "body" and (len(error["loc"]) == 1 or error["loc"][1] == field), error
        assert isinstance(error["msg"], str) and len(error["msg"]) > 10, error  # says what is wrong
    assert len(response.content) < 10_000, "a 422 names the problem; it does not send the input back whole"


@pytest.mark.parametrize("route", CSV_ROUTES)
@SETTINGS
@given(text=csv_text)
@example(text=",1\r2,1")  # old Mac line ends: a 500 once
@example(text=",1\n1," + "1" * 200_000)  # past the csv module's field limit
@example(text=",1\n1," + "9" * 5000)  # past int()'s digit limit
@example(text="\ufeff,1\n1,1\x00")
@example(text='",1\n1,1')  # a quote left open
@example(text=",1\u20281,1")
def test_any_csv_text_field_is_read_or_refused_clearly(client, route: str, text: str) -> None:
    assert_clear(post_json(client, route, "csv", text), "csv")


@SETTINGS
@given(data=st.one_of(csv_text.map(lambda text: text.encode("utf-8", "surrogatepass")), st.binary(max_size=300)))
@example(data=b",1\r2,1")
@example(data=b"\xef\xbb\xbf,1\r\n1,1")
@example(data=b"\xff\xfe,\x001\x00")
def test_any_csv_body_is_read_or_refused_clearly(client, data: bytes) -> None:
    response = client.post("/solve/number-sums", content=data, headers={"Content-Type": "text/csv"})
    assert_clear(response, "csv")


@pytest.mark.parametrize("route", URL_ROUTES)
@SETTINGS
@given(text=url_text)
@example(text=URL_PREFIX + "²/6/x")  # str.isdigit() is true for superscripts, int() refuses them: a 500 once
@example(text=URL_PREFIX + "6/6/g12h2g30g3gk0r3w/²/x")
@example(text=URL_PREFIX + "6/6/g12h2g30g3gk0r3w/" + "9" * 5000)
@example(text=URL_PREFIX + "6/6/g12h2g30g3gk0r3w//c")  # the README's URL: read
@example(text=URL_PREFIX + "6/6/" + "-" * 3000)
@example(text="\x00" + URL_PREFIX + "6/6/\u2028//c")
def test_any_puzzlink_url_is_read_or_refused_clearly(client, route: str, text: str) -> None:
    assert_clear(post_json(client, route, "url", text), "url")


def test_the_formats_under_test_are_the_registered_ones() -> None:
    assert TYPES["number-sums"].parse_text is not None and TYPES["number-sums"].text_format == "csv"
    assert TYPES["battleship"].parse_url is not None
