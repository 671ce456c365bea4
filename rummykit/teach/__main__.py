"""``python -m rummykit.teach build|grade``: build the assignments, grade submissions.

python -m rummykit.teach build [--masters assignments] [--out build/assignments] [NAME ...]
python -m rummykit.teach grade AUTOGRADER.zip SUBMISSIONS/ --out grades.csv [--roster ids.txt]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rummykit.errors import RummyError
from rummykit.teach.assign import ASSIGNMENTS, BUILD, build, grade


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rummykit.teach", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="student and autograder versions of every master")
    make.add_argument("names", nargs="*", help="masters to build (default: all)")
    make.add_argument("--masters", type=Path, default=ASSIGNMENTS)
    make.add_argument("--out", type=Path, default=BUILD)
    mark = commands.add_parser("grade", help="grade a folder of STUDENT_ID.ipynb into a CSV")
    mark.add_argument("autograder", type=Path, help="the autograder.zip that build made")
    mark.add_argument("submissions", type=Path, help="a folder of STUDENT_ID.ipynb files")
    mark.add_argument("--out", type=Path, required=True, help="the CSV of points to write")
    mark.add_argument("--roster", type=Path, help="a file of student IDs, one a line")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            for name, (student, autograder) in build(
                args.masters, args.out, args.names or None
            ).items():
                print(f"{name}: {student} (hand out), {autograder} (grade with)")
        else:
            roster = None
            if args.roster is not None:
                roster = [
                    line.strip() for line in args.roster.read_text().splitlines() if line.strip()
                ]
            rows = grade(args.autograder, args.submissions, args.out, roster=roster)
            problems = sum(bool(row["message"]) for row in rows)
            print(f"graded {len(rows)} students into {args.out}; {problems} with a message")
    except (RummyError, OSError) as error:
        print(f"rummykit.teach: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
