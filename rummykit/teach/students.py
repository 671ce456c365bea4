"""Student IDs and the seed each one's numbers come from.

A student ID is what a course's roster holds: a student number (``"3032123456"``) or the
local part of an email address (``"ada.lovelace"``, ``"ada_l-2"``): 1 to 64 characters of
lowercase letters, digits, ``.``, ``_`` and ``-``, starting with a letter or a digit.
Spaces at either end are ignored and capitals are lowered, so ``" Ada.Lovelace "`` is
``ada.lovelace``; anything else (an ``@``, a space inside, an empty ID) is refused with
:class:`~rummykit.errors.StudentIdError`.

The seed is the first 4 bytes of the SHA-256 digest of ``"rummykit-student:" + id``, a
number below 2**32: the same on every machine and in every Python (never ``hash()``, which
changes from process to process).

>>> student_seed("ada.lovelace") == student_seed(" Ada.Lovelace ")
True
>>> student_seed("3032123456")
3761440764
>>> student_seed("ada@berkeley.edu")
Traceback (most recent call last):
    ...
rummykit.errors.StudentIdError: a student ID is 1 to 64 lowercase letters, digits, '.', '_' or '-' (a student number or an email's local part, before the @), got 'ada@berkeley.edu'
"""

from __future__ import annotations

import hashlib
import os
import re

from rummykit.errors import StudentIdError

__all__ = ["GRADING_ID_VARIABLE", "ID_PATTERN", "grading_seed", "normalize_id", "student_seed"]

#: The accepted form of a (normalised) student ID.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
#: The environment variable through which the grader names the student whose submission it
#: grades: the hidden tests take the seed from it, not from what the notebook says.
GRADING_ID_VARIABLE = "RUMMYKIT_STUDENT_ID"


def normalize_id(student_id: object) -> str:
    """The ID as the seed is made from: stripped and lowercased, and checked.

    >>> normalize_id("  Ada.Lovelace ")
    'ada.lovelace'
    """
    if not isinstance(student_id, str):
        raise StudentIdError(f"a student ID is text, such as '3032123456', got {student_id!r}")
    tidy = student_id.strip().lower()
    if not ID_PATTERN.fullmatch(tidy):
        raise StudentIdError(
            "a student ID is 1 to 64 lowercase letters, digits, '.', '_' or '-' (a student "
            f"number or an email's local part, before the @), got {student_id!r}"
        )
    return tidy


def student_seed(student_id: str) -> int:
    """The seed of ``student_id``'s numbers (see the module's docstring)."""
    digest = hashlib.sha256(f"rummykit-student:{normalize_id(student_id)}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def grading_seed(notebook_id: str) -> int:
    """The seed the tests check against: the student the grader names in
    :data:`GRADING_ID_VARIABLE` when it is set (the roster's ID, from the submission's
    file name), else ``notebook_id`` (the ID the student typed, for their own checks).

    >>> grading_seed("ada.lovelace") == student_seed("ada.lovelace")   # no grader running
    True
    """
    return student_seed(os.environ.get(GRADING_ID_VARIABLE) or notebook_id)
