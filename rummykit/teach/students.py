"""Student IDs, as a course's roster holds them.

A student ID is a student number (``"3032123456"``) or the local part of an email address
(``"ada.lovelace"``, ``"ada_l-2"``): 1 to 64 characters of lowercase letters, digits,
``.``, ``_`` and ``-``, starting with a letter or a digit. Spaces at either end are
ignored and capitals are lowered, so ``" Ada.Lovelace "`` is ``ada.lovelace``; anything
else (an ``@``, a space inside, an empty ID) is refused with
:class:`~rummykit.errors.StudentIdError`. A student's numbers in an assignment come from
their ID and the course (:func:`rummykit.teach.homework.spec.question_seed`).

>>> normalize_id("  Ada.Lovelace ")
'ada.lovelace'
>>> normalize_id("ada@berkeley.edu")
Traceback (most recent call last):
    ...
rummykit.errors.StudentIdError: a student ID is 1 to 64 lowercase letters, digits, '.', '_' or '-' (a student number or an email's local part, before the @), got 'ada@berkeley.edu'
"""

from __future__ import annotations

import re

from rummykit.errors import StudentIdError

__all__ = ["ID_PATTERN", "normalize_id"]

#: The accepted form of a (normalised) student ID.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")


def normalize_id(student_id: object) -> str:
    """The ID as the numbers are made from: stripped and lowercased, and checked."""
    if not isinstance(student_id, str):
        raise StudentIdError(f"a student ID is text, such as '3032123456', got {student_id!r}")
    tidy = student_id.strip().lower()
    if not ID_PATTERN.fullmatch(tidy):
        raise StudentIdError(
            "a student ID is 1 to 64 lowercase letters, digits, '.', '_' or '-' (a student "
            f"number or an email's local part, before the @), got {student_id!r}"
        )
    return tidy
