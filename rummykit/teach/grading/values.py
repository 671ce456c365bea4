"""The values a submission hands back: plain data in a small, size-bounded JSON form that
the grading process parses and refuses otherwise. Standard library only: the child that
runs a student's notebook encodes with :func:`encode`, the grader decodes with
:func:`decode`, and no object of the student's ever reaches the grader.

A value is one of: an int (at most :data:`MAX_DIGITS` digits), a Fraction, a float, a str
(at most :data:`MAX_TEXT` characters), None, ``...`` (an answer left blank), a bool, or a
list of these (at most :data:`MAX_ITEMS` items, nested at most :data:`MAX_DEPTH` deep).
numpy's numbers are read as Python's. Anything else is sent as what it is not: its type's
name (``{"unsupported": "DataFrame"}``), so the grader can say "got a DataFrame".

>>> from fractions import Fraction
>>> decode(encode(Fraction(3, 7))), decode(encode([1, 2.5, "x"])), decode(encode(...))
(Fraction(3, 7), [1, 2.5, 'x'], Ellipsis)
>>> decode({"int": "12" * 3000})
Traceback (most recent call last):
    ...
rummykit.errors.SubmissionError: an int of more than 4000 digits
"""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
import re
from fractions import Fraction

from rummykit.errors import SubmissionError

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_ITEMS",
    "MAX_MESSAGE",
    "MAX_TEXT",
    "MISSING",
    "Unsupported",
    "decode",
    "decode_message",
    "encode",
    "encode_message",
]

#: The most digits of an int (and of a Fraction's numerator or denominator).
MAX_DIGITS = 4000
#: The most characters of a str.
MAX_TEXT = 10_000
#: The most items of a list.
MAX_ITEMS = 1000
#: How deep lists nest.
MAX_DEPTH = 2
#: The most bytes of one message (one snapshot of every answer variable).
MAX_MESSAGE = 1 << 20

_INT = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


class _Missing:
    """A variable the notebook never set."""

    def __repr__(self) -> str:
        return "MISSING"


#: The value of a variable the notebook never set.
MISSING = _Missing()


@dataclasses.dataclass(frozen=True)
class Unsupported:
    """A value of a type the grader does not take: its type's name and a short text."""

    type: str
    text: str = ""


def encode(value: object, depth: int = 0) -> object:
    """``value`` as plain JSON data (see the module's docstring)."""
    if value is None:
        return {"none": True}
    if value is Ellipsis:
        return {"ellipsis": True}
    if isinstance(value, bool) or _numpy_bool(value):
        return {"bool": bool(value)}
    if isinstance(value, numbers.Integral):
        digits = str(int(value))
        if len(digits.lstrip("-")) > MAX_DIGITS:
            return {"unsupported": "int", "text": f"an int of {len(digits)} digits"}
        return {"int": digits}
    if isinstance(value, numbers.Rational):
        fraction = Fraction(int(value.numerator), int(value.denominator))
        top, bottom = str(fraction.numerator), str(fraction.denominator)
        if max(len(top.lstrip("-")), len(bottom)) > MAX_DIGITS:
            return {"unsupported": "Fraction", "text": "a Fraction of more than 4000 digits"}
        return {"fraction": [top, bottom]}
    if isinstance(value, numbers.Real):
        number = float(value)
        return {"float": number.hex() if math.isfinite(number) else repr(number)}
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            return {"unsupported": "str", "text": f"a str of {len(value)} characters"}
        return {"str": value}
    if isinstance(value, (list, tuple)) and depth < MAX_DEPTH:
        if len(value) > MAX_ITEMS:
            kind = type(value).__name__
            return {"unsupported": kind, "text": f"a {kind} of {len(value)} items"}
        return {"list": [encode(item, depth + 1) for item in value]}
    try:
        text = repr(value)[:80]
    except Exception:  # a student's __repr__ may raise anything
        text = ""
    return {"unsupported": type(value).__name__[:80], "text": text}


def _numpy_bool(value: object) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def decode(data: object, depth: int = 0) -> object:
    """The value that :func:`encode` made ``data`` from; a :class:`SubmissionError` for
    anything :func:`encode` does not make."""
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise SubmissionError(f"a value is an object of one tag, got {_short(data)}")
    if len(data) == 2 and set(data) != {"unsupported", "text"}:
        raise SubmissionError(f"a value is an object of one tag, got {_short(data)}")
    (tag, body), *_ = data.items()
    if tag == "none" and body is True:
        return None
    if tag == "ellipsis" and body is True:
        return Ellipsis
    if tag == "bool" and isinstance(body, bool):
        return body
    if tag == "int":
        return _int(body)
    if tag == "fraction" and isinstance(body, list) and len(body) == 2:
        top, bottom = _int(body[0]), _int(body[1])
        if bottom <= 0:
            raise SubmissionError("a Fraction's denominator is a positive int")
        return Fraction(top, bottom)
    if tag == "float" and isinstance(body, str):
        if body in ("nan", "inf", "-inf"):
            return float(body)
        try:
            return float.fromhex(body) if len(body) <= 40 else _refuse("a float", body)
        except ValueError:
            raise SubmissionError(f"a float in hex, got {_short(body)}") from None
    if tag == "str" and isinstance(body, str):
        if len(body) > MAX_TEXT:
            raise SubmissionError(f"a str of more than {MAX_TEXT} characters")
        return body
    if tag == "list" and isinstance(body, list) and depth < MAX_DEPTH:
        if len(body) > MAX_ITEMS:
            raise SubmissionError(f"a list of more than {MAX_ITEMS} items")
        return [decode(item, depth + 1) for item in body]
    if tag == "unsupported" and isinstance(body, str) and len(body) <= 80:
        text = data.get("text", "")
        if not isinstance(text, str) or len(text) > 80:
            raise SubmissionError("an unsupported value's text is a str of at most 80 characters")
        return Unsupported(body, text)
    raise SubmissionError(f"not a value the grader takes: {_short(data)}")


def _int(text: object) -> int:
    if not isinstance(text, str) or not _INT.fullmatch(text):
        if isinstance(text, str) and re.fullmatch(r"-?[0-9]+", text):
            raise SubmissionError(f"an int of more than {MAX_DIGITS} digits")
        raise SubmissionError(f"an int is written in decimal digits, got {_short(text)}")
    return int(text)


def _refuse(what: str, text: str) -> None:
    raise SubmissionError(f"{what}, got {_short(text)}")


def _short(data: object) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def encode_message(values: dict[str, object], **facts: object) -> bytes:
    """One snapshot: ``{"values": {name: encoded}, **facts}`` as one line of JSON."""
    return (json.dumps({"values": values, **facts}, separators=(",", ":")) + "\n").encode()


def decode_message(line: bytes, names: tuple[str, ...]) -> tuple[dict[str, object], dict]:
    """The values of ``names`` in one snapshot line, and its other facts (``cell``,
    ``errors``, ``seconds``, ``student_id``: plain data, checked by the caller); a
    :class:`SubmissionError` if the line is no snapshot."""
    if len(line) > MAX_MESSAGE:
        raise SubmissionError(f"a snapshot of more than {MAX_MESSAGE} bytes")
    try:
        data = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SubmissionError("a snapshot is one line of JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("values"), dict):
        raise SubmissionError("a snapshot is an object with its values")
    raw = data.pop("values")
    values = {name: decode(raw[name]) if name in raw else MISSING for name in names}
    return values, data
